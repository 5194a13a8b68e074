/**
 * `createDsmlSanitizer`: the incremental DSML engine. Text goes in, in chunks
 * of any size; `text`, `tool-call` and `diagnostic` events come out. Feeding a
 * text whole or in any split gives the same events (adjacent text merged).
 *
 * Layers: `tag-lexer.ts` reads one tag at a time; this file gives tags
 * meaning (blocks, invokes, parameters, the rescues) and decides what is held,
 * released as text, recovered as a call, or removed and reported.
 *
 * Linear time: prose is skipped with `indexOf` to the next `<` or bar; every
 * character is read by the lexer at most a bounded number of times (a rejected
 * tag gives back at most its few pre-marker characters); held text is kept as
 * fragments and joined once when it is resolved. See DESIGN.md §3 and §5.
 */
import {
  callKey,
  parseFencedJsonCall,
  parseJsonObjectBody,
  parseXmlChildren,
  setArgument,
  typeValue,
} from './arguments.ts'
import { classifyCloserName, classifyOpenerName, isBar, isToolName, type TagKind } from './grammar.ts'
import { createFenceTracker, type FenceTracker } from './fence-tracker.ts'
import { type DsmlSanitizerOptions, type ResolvedOptions, resolveOptions } from './options.ts'
import {
  createTagLexer,
  type LexedTag,
  STEP_COMPLETE,
  STEP_CONTINUE,
  STEP_REJECT,
  type TagLexerContext,
} from './tag-lexer.ts'
import type { Diagnostic, DiagnosticKind, DsmlSanitizer, NativeToolCall, SanitizerEvent, ToolCall } from './types.ts'

interface ParameterState {
  name: string | undefined
  stringAttribute: string | undefined
  /** The opener carried no marker. */
  markerless: boolean
  /** Not inside an invoke: a wrapped-tool outer parameter, or an orphan (V10). */
  orphan: boolean
  value: string[]
  overflowed: boolean
}

interface InvokeState {
  name: string | undefined
  /** `invoke` (or `tool`); `wrapper`: named by an outer parameter (V26); `name-tag`: `<‹DSML›NAME>`. */
  kind: 'invoke' | 'wrapper' | 'name-tag'
  markerless: boolean
  args: Record<string, unknown>
  argumentCount: number
  /** Complete parameters whose opener carried a marker. */
  markeredArgumentCount: number
  hasStringAttribute: boolean
  /** A rescue of `looseParameters` was needed. */
  loose: boolean
  body: string[]
  invalidJson: string[]
  overflowed: boolean
}

interface BlockState {
  markerless: boolean
  /** DSML elements seen after the opener. */
  elements: number
}

interface Region {
  /** A DSML marker was seen in it: it is markup, to be removed if not recovered. */
  confirmed: boolean
  /** Characters consumed since the region began (resolved tags included). */
  consumed: number
  block: BlockState | undefined
  invoke: InvokeState | undefined
  parameter: ParameterState | undefined
}

type Sink = 'outside' | 'gap' | 'body' | 'value'

/** Remainders this short are scanned with a loop instead of `indexOf` calls. */
const SHORT_SCAN = 16

/** Next position of `character` at or after `from`, reusing a cached answer; -2 means none left. */
function nextPosition(input: string, character: string, from: number, cached: number): number {
  if (cached === -2 || cached >= from) return cached
  const position = input.indexOf(character, from)
  return position === -1 ? -2 : position
}

/** Is there a bar in `text` from `start` to `end`? */
function hasBar(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) if (isBar(text.charCodeAt(index))) return true
  return false
}

/** A short chunk with no `<` and no bar: text wherever it falls outside markup. */
function isPlainShortText(chunk: string): boolean {
  for (let index = 0; index < chunk.length; index++) {
    const code = chunk.charCodeAt(index)
    if (code === 0x3c || isBar(code)) return false
  }
  return true
}

/** Most pieces one text event takes (see `emitText`). */
const TEXT_BATCH = 256

/** Longest pending prefix kept: longer than any partial marker (`</ spaces bars spaces DSM`). */
const PENDING_LIMIT = 32

const NO_MARKERLESS: TagLexerContext = { markerlessOpeners: false, markerlessClosers: false }
const MARKERLESS_CLOSERS: TagLexerContext = { markerlessOpeners: false, markerlessClosers: true }
const ALL_MARKERLESS: TagLexerContext = { markerlessOpeners: true, markerlessClosers: true }

/**
 * The machine behind a sanitizer, created on the first chunk that could hold
 * markup. Methods, not getters: an object literal with
 * getters gets a map of its own per instance, which makes every call site
 * that reads it polymorphic across streams.
 */
interface Engine {
  feed(chunk: string): SanitizerEvent[]
  end(): SanitizerEvent[]
  heldChars(): number
  idle(): boolean
}

/**
 * Creates the engine. Until a chunk holds a `<` or a bar, a sanitizer is a few
 * fields (text passes straight through, fences are tracked); the state machine
 * is built on the first chunk that could hold markup. So an idle sanitizer —
 * one per open stream and channel in a gateway — costs little memory.
 *
 * @example
 * ```ts
 * const sanitizer = createDsmlSanitizer()
 * const events = [...sanitizer.feed(chunk), ...sanitizer.end()]
 * ```
 */
export function createDsmlSanitizer(options: DsmlSanitizerOptions = {}): DsmlSanitizer {
  return new LazySanitizer(resolveOptions(options))
}

/** A sanitizer whose engine is built on demand (a class: its methods cost nothing per instance). */
class LazySanitizer implements DsmlSanitizer {
  #resolved: ResolvedOptions
  #engine: Engine | undefined
  #fences: FenceTracker | undefined
  #nativeCalls: Set<string> | undefined
  #ended = false

  constructor(resolved: ResolvedOptions) {
    this.#resolved = resolved
  }

  feed(chunk: string): SanitizerEvent[] {
    if (this.#ended) throw new TypeError('Cannot feed the DSML sanitizer: end() was already called')
    if (typeof chunk !== 'string') throw new TypeError(`Cannot feed the DSML sanitizer: expected a string, got ${typeof chunk}`)
    if (this.#resolved.mode === 'off') return chunk.length > 0 ? [{ type: 'text', text: chunk }] : []
    if (this.#engine !== undefined) return this.#engine.feed(chunk)
    if (chunk.length === 0) return []
    if (!mayHoldMarkup(chunk)) {
      // Any text ends a pending backtick run, so once a tracker exists it sees every chunk.
      if (this.#fences !== undefined || chunk.includes('`')) (this.#fences ??= createFenceTracker()).track(chunk)
      return [{ type: 'text', text: chunk }]
    }
    this.#engine = createEngine(this.#resolved, (this.#fences ??= createFenceTracker()), (this.#nativeCalls ??= new Set()))
    return this.#engine.feed(chunk)
  }

  end(): SanitizerEvent[] {
    if (this.#ended) throw new TypeError('Cannot end the DSML sanitizer: end() was already called')
    this.#ended = true
    return this.#engine === undefined || this.#resolved.mode === 'off' ? [] : this.#engine.end()
  }

  noteNativeToolCall(call: NativeToolCall): void {
    if (call === null || typeof call !== 'object' || typeof call.name !== 'string') {
      throw new TypeError('Cannot note a native tool call: expected { name: string, arguments }')
    }
    ;(this.#nativeCalls ??= new Set()).add(callKey(call.name, call.arguments))
  }

  get heldChars(): number {
    return this.#engine === undefined ? 0 : this.#engine.heldChars()
  }

  get idle(): boolean {
    return !this.#ended && (this.#engine === undefined || this.#engine.idle())
  }
}

/** Could this chunk open markup: does it hold a `<` or a bar? */
function mayHoldMarkup(chunk: string): boolean {
  if (chunk.length <= SHORT_SCAN) return !isPlainShortText(chunk)
  return (
    chunk.includes('<') || chunk.includes('\uFF5C') || chunk.includes('|') || chunk.includes('\u2016') || chunk.includes('\u2502')
  )
}

function createEngine(resolved: ResolvedOptions, fences: FenceTracker, nativeCalls: Set<string>): Engine {
  const { rescues, eagerStopChars, maxTagChars } = resolved
  /** Held markup is reported once it would pass this; the lexer's tag and a lone block's gap fit in the rest. */
  const heldCap = resolved.maxHoldChars - maxTagChars - eagerStopChars
  const lexer = createTagLexer(maxTagChars)

  let out: SanitizerEvent[] = []
  /** Pieces appended to the last text event. */
  let textPieces = 0
  /** Emitted text not yet sliced: `rangeInput.slice(rangeStart, rangeEnd)` (see `emitRange`). */
  let rangeInput: string | undefined
  let rangeStart = 0
  let rangeEnd = 0

  /** Markup was just removed; markerless closers right after it are noise (PATTERNS §5). */
  let afterRemoval = false

  let lexing = false
  /** Text of the tag being lexed, from earlier chunks. */
  let tagParts: string[] = []
  /**
   * A rejected partial tag cut short by the start of another tag (`<｜` then
   * `<‹DSML›…`). Its fate follows that next tag: removed with it if it is
   * markup, released if it is text. Without this, removing the markup could
   * join `<｜` and a following `DSML｜>` into a marker in the output.
   */
  let pending = ''

  let region: Region | undefined
  let held: string[] = []
  let heldLength = 0
  /** Text after a lone block opener: released if the block turns out empty. */
  let gap: string[] = []
  let gapLength = 0

  // ── output ────────────────────────────────────────────────────────────

  /** Updates fences and the after-removal flag for emitted text. */
  function noteEmitted(text: string, start: number, end: number): void {
    fences.track(text, start, end)
    if (afterRemoval) {
      for (let index = start; index < end; index++) {
        const code = text.charCodeAt(index)
        if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) {
          afterRemoval = false
          break
        }
      }
    }
  }

  /**
   * Emits `input.slice(start, end)`. Consecutive ranges of the same input are
   * kept as one range and sliced once: long prose comes out as a few slices of
   * the input, not as many small pieces (that the collector would have to walk).
   */
  function emitRange(input: string, start: number, end: number): void {
    if (end <= start) return
    noteEmitted(input, start, end)
    if (rangeInput === input && rangeEnd === start) {
      rangeEnd = end
      return
    }
    flushRange()
    rangeInput = input
    rangeStart = start
    rangeEnd = end
  }

  function flushRange(): void {
    if (rangeInput === undefined) return
    const text = rangeInput.slice(rangeStart, rangeEnd)
    rangeInput = undefined
    appendText(text)
  }

  function emitText(text: string): void {
    if (text.length === 0) return
    flushRange()
    noteEmitted(text, 0, text.length)
    appendText(text)
  }

  function appendText(text: string): void {
    // Appending with `+=` shares the pieces instead of copying them; but one
    // rope of many thousand tiny pieces is what the collector then walks and
    // copies over and over. So a text event takes at most TEXT_BATCH pieces: a
    // long text comes out as several adjacent text events (one text, as ever).
    const last = out[out.length - 1]
    if (last?.type === 'text' && textPieces < TEXT_BATCH) {
      last.text += text
      textPieces++
    } else {
      out.push({ type: 'text', text })
      textPieces = 1
    }
  }

  function push(event: SanitizerEvent): void {
    flushRange()
    out.push(event)
  }

  function diagnose(kind: DiagnosticKind, text: string, message: string, tool?: string): void {
    const diagnostic: Diagnostic = tool === undefined ? { kind, text, message } : { kind, text, tool, message }
    push({ type: 'diagnostic', diagnostic })
    if (text.length > 0) afterRemoval = true
  }

  // ── held text ─────────────────────────────────────────────────────────

  function takeHeld(): string {
    const text = held.length === 1 ? held[0]! : held.join('')
    held = []
    heldLength = 0
    return text
  }

  function takeGap(): string {
    const text = gap.join('')
    gap = []
    gapLength = 0
    return text
  }

  /** Appends committed markup, reporting it in `maxHoldChars`-bounded pieces instead of growing. */
  function hold(text: string): void {
    if (region !== undefined) region.consumed += text.length
    while (heldLength + text.length > heldCap) {
      const room = heldCap - heldLength
      held.push(text.slice(0, room))
      heldLength += room
      text = text.slice(room)
      overflow()
    }
    if (text.length > 0) {
      held.push(text)
      heldLength += text.length
    }
  }

  function overflow(): void {
    diagnose('hold-limit', takeHeld(), `Held DSML markup passed maxHoldChars (${resolved.maxHoldChars}); removed and reported`)
    const current = region
    if (current === undefined) return
    if (current.parameter !== undefined) {
      current.parameter.overflowed = true
      current.parameter.value = []
    }
    if (current.invoke !== undefined) {
      current.invoke.overflowed = true
      current.invoke.body = []
    }
  }

  function dropHeld(message: string, tool?: string): void {
    if (heldLength > 0) diagnose('dropped-markup', takeHeld(), message, tool)
  }

  /** An unconfirmed candidate proved to be text: everything it held comes out unchanged. */
  function releaseCandidate(): void {
    emitText(takeHeld() + takeGap())
    region = undefined
    if (lexing) lexer.setContext(lexerContext())
  }

  function endRegion(): void {
    region = undefined
    afterRemoval = true
  }

  // ── contexts ──────────────────────────────────────────────────────────

  function sink(): Sink {
    if (region === undefined) return 'outside'
    if (region.parameter !== undefined) return 'value'
    if (region.invoke !== undefined) return 'body'
    return 'gap'
  }

  /** Bars matter (fragments) outside, in a block's gaps, and anywhere in an unconfirmed candidate. */
  function barsMatter(): boolean {
    const current = sink()
    return current === 'outside' || current === 'gap' || (region !== undefined && !region.confirmed)
  }

  function lexerContext(): TagLexerContext {
    const current = region
    if (current === undefined) {
      const openers = rescues.markerlessTags || rescues.wrappedTool
      return { markerlessOpeners: openers, markerlessClosers: afterRemoval }
    }
    if (current.parameter !== undefined) return current.parameter.markerless ? MARKERLESS_CLOSERS : NO_MARKERLESS
    if (current.invoke !== undefined) return current.invoke.kind === 'name-tag' ? NO_MARKERLESS : ALL_MARKERLESS
    return ALL_MARKERLESS
  }

  /** Text that is not a tag, in the current context. */
  function consumeText(text: string): void {
    const current = region
    if (current === undefined) {
      emitText(text)
      return
    }
    if (current.parameter !== undefined) {
      if (!current.parameter.overflowed) current.parameter.value.push(text)
      hold(text)
      return
    }
    if (current.invoke !== undefined) {
      if (!current.invoke.overflowed) current.invoke.body.push(text)
      hold(text)
      return
    }
    if (current.block !== undefined && current.block.elements === 0) {
      current.consumed += text.length
      gap.push(text)
      gapLength += text.length
      return
    }
    hold(text)
  }

  /** How far plain text may run before a candidate must be given up (eager stop), or Infinity. */
  function budgetLeft(): number {
    const current = region
    if (current === undefined) return Infinity
    if (!current.confirmed) return eagerStopChars - current.consumed
    if (current.block !== undefined && current.invoke === undefined && current.parameter === undefined && current.block.elements === 0) {
      return eagerStopChars - gapLength
    }
    return Infinity
  }

  /** Eager stop: a candidate with no DSML marker, or a lone block opener with only text after it. */
  function giveUpCandidate(): void {
    const current = region!
    if (!current.confirmed) {
      releaseCandidate()
      return
    }
    resolveLoneBlock()
  }

  /** A markered block opener followed by text only: try the fenced-JSON rescue, else drop the opener and release the text. */
  function resolveLoneBlock(): void {
    if (rescues.fencedJson && resolved.mode !== 'off') {
      const gapText = takeGap()
      const fenced = parseFencedJsonCall(gapText)
      if (fenced !== undefined) {
        hold(gapText.slice(0, fenced.end))
        finishCall(fenced.name, fenced.arguments, [])
        hold(gapText.slice(fenced.end))
        region!.block!.elements++
        return
      }
      gap = gapText.length > 0 ? [gapText] : []
      gapLength = gapText.length
    }
    dropHeld('DSML block opener with no call after it')
    const text = takeGap()
    region = undefined
    afterRemoval = true
    emitText(text)
    if (lexing) lexer.setContext(lexerContext())
  }

  // ── tags ──────────────────────────────────────────────────────────────

  /** The name attribute, unless the tag was cut off inside it (then it names nothing). */
  function nameOf(tag: LexedTag): string | undefined {
    return tag.broken ? undefined : tag.nameAttribute
  }

  function kindOf(tag: LexedTag): TagKind | 'fragment' {
    if (tag.special) return 'special'
    if (tag.fragment) return 'fragment'
    return tag.closing ? classifyCloserName(tag.name) : classifyOpenerName(tag.name)
  }

  function handleTag(tag: LexedTag, text: string): void {
    const current = region
    if (current === undefined) {
      handleOutsideTag(tag, text)
      return
    }
    const kind = kindOf(tag)
    if (!current.confirmed && tag.marker !== 'none') {
      if (!continuesCandidate(tag, kind)) {
        releaseCandidate()
        handleOutsideTag(tag, text)
        return
      }
      current.confirmed = true
    }
    if (current.parameter !== undefined) handleParameterTag(tag, kind, text)
    else if (current.invoke !== undefined) handleInvokeTag(tag, kind, text)
    else handleBlockTag(tag, kind, text)
  }

  /** A markered tag that carries a markerless candidate on (and so confirms it as DSML). */
  function continuesCandidate(tag: LexedTag, kind: TagKind | 'fragment'): boolean {
    if (tag.closing) return kind === 'parameter' || kind === 'invoke' || kind === 'block' || kind === 'empty'
    if (kind === 'parameter') return true
    return kind === 'invoke' && region!.invoke === undefined && region!.parameter === undefined
  }

  function startRegion(text: string, confirmed: boolean): Region {
    region = { confirmed, consumed: 0, block: undefined, invoke: undefined, parameter: undefined }
    hold(text)
    return region
  }

  function newInvoke(name: string | undefined, kind: InvokeState['kind'], markerless: boolean): InvokeState {
    return {
      name,
      kind,
      markerless,
      args: {},
      argumentCount: 0,
      markeredArgumentCount: 0,
      hasStringAttribute: false,
      loose: false,
      body: [],
      invalidJson: [],
      overflowed: false,
    }
  }

  function newParameter(tag: LexedTag, orphan: boolean): ParameterState {
    return {
      name: tag.nameAttribute,
      stringAttribute: tag.stringAttribute,
      markerless: tag.marker === 'none',
      orphan,
      value: [],
      overflowed: false,
    }
  }

  function handleOutsideTag(tag: LexedTag, text: string): void {
    const kind = kindOf(tag)
    if (tag.marker === 'none') {
      if (tag.closing) {
        if (afterRemoval) diagnose('dropped-markup', text, 'Stray closer right after removed DSML markup')
        else emitText(text)
        return
      }
      if (tag.selfClosing) {
        emitText(text)
        return
      }
      if (kind === 'block' && rescues.markerlessTags) {
        startRegion(text, false).block = { markerless: true, elements: 0 }
      } else if (kind === 'invoke' && rescues.markerlessTags) {
        startRegion(text, false).invoke = newInvoke(nameOf(tag), 'invoke', true)
      } else if (kind === 'parameter' && (rescues.wrappedTool || rescues.markerlessTags)) {
        startRegion(text, false).parameter = newParameter(tag, true)
      } else {
        emitText(text)
      }
      return
    }
    if (tag.closing && (kind === 'parameter' || kind === 'invoke')) {
      // A stray inner closer: the model is inside markup whose opener was lost.
      // What follows is held like a lone block's content: removed if a block
      // closer confirms it, released as text otherwise (fixture gameforge-256).
      startRegion(text, true).block = { markerless: false, elements: 0 }
      return
    }
    if (tag.closing || tag.selfClosing || kind === 'special' || kind === 'fragment' || kind === 'empty') {
      diagnose('dropped-markup', text, describeRemoval(tag, kind))
      return
    }
    switch (kind) {
      case 'block':
        startRegion(text, true).block = { markerless: false, elements: 0 }
        return
      case 'invoke':
        startRegion(text, true).invoke = newInvoke(nameOf(tag), 'invoke', false)
        return
      case 'parameter':
        startRegion(text, true).parameter = newParameter(tag, true)
        return
      default:
        if (tag.marker === 'dsml' && !tag.broken && isToolName(tag.name)) {
          startRegion(text, true).invoke = newInvoke(tag.name, 'name-tag', false)
        } else {
          diagnose('dropped-markup', text, describeRemoval(tag, kind))
        }
    }
  }

  function describeRemoval(tag: LexedTag, kind: TagKind | 'fragment'): string {
    if (kind === 'special') return 'DeepSeek special token removed'
    if (kind === 'fragment') return 'DSML marker fragment without "<" removed'
    if (tag.closing) return 'Stray DSML closer removed'
    return 'DSML tag outside any call removed'
  }

  /** A DSML element inside a block: the block's gap text so far becomes part of the markup. */
  function startElement(): void {
    const block = region!.block!
    if (block.elements === 0 && gapLength > 0) {
      const text = takeGap()
      region!.consumed -= text.length
      hold(text)
    }
    block.elements++
  }

  function handleBlockTag(tag: LexedTag, kind: TagKind | 'fragment', text: string): void {
    const current = region!
    if (tag.marker === 'none') {
      if (!tag.closing && !tag.selfClosing && kind === 'invoke') {
        startElement()
        hold(text)
        current.invoke = newInvoke(nameOf(tag), 'invoke', true)
        // Markerless inner tags in a markered block need the looseParameters rescue.
        if (current.confirmed) current.invoke.loose = true
      } else if (!tag.closing && !tag.selfClosing && kind === 'parameter') {
        startElement()
        hold(text)
        current.parameter = newParameter(tag, true)
      } else if (tag.closing && kind === 'block') {
        startElement()
        hold(text)
        closeBlock()
      } else {
        consumeText(text)
      }
      return
    }
    startElement()
    hold(text)
    if (tag.closing) {
      if (kind === 'block') closeBlock()
      return
    }
    if (tag.selfClosing) return
    if (kind === 'invoke') current.invoke = newInvoke(nameOf(tag), 'invoke', false)
    else if (kind === 'parameter') current.parameter = newParameter(tag, true)
    // Anything else inside a block (special tokens, fragments, nested openers) is junk, removed with the block.
  }

  function closeBlock(): void {
    const current = region!
    if (!current.confirmed) {
      releaseCandidate()
      return
    }
    dropHeld('DSML block markup removed')
    endRegion()
  }

  function handleInvokeTag(tag: LexedTag, kind: TagKind | 'fragment', text: string): void {
    const current = region!
    const invoke = current.invoke!
    if (invoke.kind === 'name-tag') {
      hold(text)
      if (tag.closing) finishNameTag()
      else if (!invoke.overflowed) invoke.body.push(text)
      return
    }
    if (!tag.closing && kind === 'parameter') {
      if (tag.selfClosing) {
        hold(text)
        selfClosingParameter(tag)
      } else {
        hold(text)
        if (tag.marker === 'none' && !invoke.markerless) invoke.loose = true
        current.parameter = newParameter(tag, false)
      }
      return
    }
    if (!tag.closing && kind === 'invoke') {
      if (tag.selfClosing && tag.marker !== 'none' && tag.nameAttribute !== undefined) {
        // A parameter written as a self-closing invoke with its value in an attribute.
        hold(text)
        selfClosingParameter(tag)
        return
      }
      abandonInvoke('DSML invoke without its closer removed')
      handleTag(tag, text)
      return
    }
    if (tag.closing && (kind === 'invoke' || kind === 'empty')) {
      hold(text)
      finishInvoke()
      return
    }
    if (tag.closing && kind === 'parameter') {
      hold(text)
      if (invoke.kind === 'wrapper') finishInvoke()
      return
    }
    if (kind === 'block') {
      if (tag.closing && invoke.kind === 'wrapper') {
        finishInvoke()
      } else {
        abandonInvoke('DSML invoke without its closer removed')
      }
      handleTag(tag, text)
      return
    }
    if (tag.marker === 'none') {
      consumeText(text)
      return
    }
    // Special tokens, fragments, unknown tags inside an invoke: junk, removed with it.
    hold(text)
  }

  function handleParameterTag(tag: LexedTag, kind: TagKind | 'fragment', text: string): void {
    const current = region!
    const parameter = current.parameter!
    if (tag.closing) {
      if (kind === 'parameter' || (kind === 'empty' && tag.marker !== 'none')) {
        hold(text)
        closeParameter(kind === 'empty')
        return
      }
      if (kind === 'invoke' || kind === 'block') {
        closeParameter(true)
        handleTag(tag, text)
        return
      }
      consumeText(text)
      return
    }
    if (tag.marker === 'none' || kind === 'special' || kind === 'unknown' || kind === 'empty' || kind === 'fragment') {
      consumeText(text)
      return
    }
    if (kind === 'parameter' && parameter.orphan && current.invoke === undefined) {
      // V26: the outer parameter names the tool; its inner parameters are the arguments.
      current.parameter = undefined
      current.invoke = newInvoke(parameter.name, 'wrapper', parameter.markerless)
      handleTag(tag, text)
      return
    }
    closeParameter(true)
    handleTag(tag, text)
  }

  function selfClosingParameter(tag: LexedTag): void {
    const invoke = region!.invoke!
    invoke.loose = true
    const name = tag.nameAttribute
    if (name === undefined || name === '') return
    const stringAttribute = tag.stringAttribute
    const isFlag = stringAttribute !== undefined && ['true', 'false'].includes(stringAttribute.trim().toLowerCase())
    const raw = tag.valueAttribute ?? (isFlag ? '' : (stringAttribute ?? ''))
    const typed = typeValue(raw, tag.valueAttribute !== undefined ? stringAttribute : undefined)
    setArgument(invoke.args, name, typed.value)
    invoke.argumentCount++
    invoke.markeredArgumentCount++
  }

  function closeParameter(loose: boolean): void {
    const current = region!
    const parameter = current.parameter!
    current.parameter = undefined
    if (parameter.orphan) {
      // V10: a parameter with no invoke names no tool.
      if (!current.confirmed) {
        releaseCandidate()
        return
      }
      dropHeld('DSML parameter outside any invoke removed (no tool name)')
      if (current.block === undefined) endRegion()
      return
    }
    const invoke = current.invoke!
    if (loose) invoke.loose = true
    if (parameter.overflowed) {
      invoke.overflowed = true
      return
    }
    const name = parameter.name
    if (name === undefined || name === '') {
      invoke.loose = true
      return
    }
    const typed = typeValue(parameter.value.join(''), parameter.stringAttribute)
    setArgument(invoke.args, name, typed.value)
    invoke.argumentCount++
    if (!parameter.markerless) invoke.markeredArgumentCount++
    if (parameter.stringAttribute !== undefined) invoke.hasStringAttribute = true
    if (typed.invalidJson) invoke.invalidJson.push(name)
  }

  function abandonInvoke(message: string): void {
    const current = region!
    const invoke = current.invoke!
    current.invoke = undefined
    current.parameter = undefined
    if (!current.confirmed) {
      releaseCandidate()
      return
    }
    dropHeld(message, invoke.name !== undefined && isToolName(invoke.name) ? invoke.name : undefined)
    if (current.block === undefined) endRegion()
  }

  /** Why a complete invoke cannot be a call, or undefined when it can. */
  function rejection(invoke: InvokeState, inBlock: boolean, usedBody: boolean): string | undefined {
    if (invoke.overflowed) return 'DSML invoke removed: it passed maxHoldChars'
    if (invoke.name === undefined || !isToolName(invoke.name)) return 'DSML invoke removed: no usable tool name'
    if (invoke.kind === 'wrapper') {
      if (!rescues.wrappedTool) return 'Wrapped tool removed: the wrappedTool rescue is off'
      if (invoke.markerless && invoke.markeredArgumentCount === 0) return 'Wrapped tool removed: no DSML parameter inside'
    } else if (!inBlock && !rescues.orphanInvoke && !invoke.markerless) {
      return 'DSML invoke outside a block removed: the orphanInvoke rescue is off'
    }
    if (invoke.loose && !rescues.looseParameters) return 'DSML invoke removed: a parameter was not closed properly (looseParameters is off)'
    if (usedBody && !rescues.rawJsonBody) return 'DSML invoke removed: a raw JSON body needs the rawJsonBody rescue'
    if (invoke.markerless && region?.confirmed !== true) {
      if (!rescues.markerlessTags) return 'Markerless invoke left as text: the markerlessTags rescue is off'
      if (!invoke.hasStringAttribute && resolved.knownTools?.has(invoke.name) !== true) {
        return 'Markerless invoke left as text: no string attribute and not a known tool'
      }
    }
    return undefined
  }

  function finishInvoke(): void {
    const current = region!
    const invoke = current.invoke!
    current.invoke = undefined
    current.parameter = undefined
    let args: Record<string, unknown> | undefined = invoke.argumentCount > 0 ? invoke.args : undefined
    let usedBody = false
    if (args === undefined && invoke.kind === 'invoke' && !invoke.overflowed) {
      args = parseJsonObjectBody(invoke.body.join(''))
      usedBody = args !== undefined
    }
    const reason = args === undefined ? 'DSML invoke removed: no arguments' : rejection(invoke, current.block !== undefined, usedBody)
    if (reason !== undefined) {
      if (!current.confirmed) {
        releaseCandidate()
        return
      }
      dropHeld(reason, invoke.name !== undefined && isToolName(invoke.name) ? invoke.name : undefined)
    } else {
      finishCall(invoke.name!, args!, invoke.invalidJson)
    }
    if (current.block === undefined) endRegion()
  }

  function finishNameTag(): void {
    const current = region!
    const invoke = current.invoke!
    current.invoke = undefined
    const args = invoke.overflowed ? undefined : parseXmlChildren(invoke.body.join(''))
    if (args === undefined || !rescues.toolNameTag) {
      dropHeld(args === undefined ? 'DSML tag named after a tool removed: no arguments' : 'Tool-name tag removed: the toolNameTag rescue is off', invoke.name)
    } else {
      finishCall(invoke.name!, args, [])
    }
    endRegion()
  }

  /** Emits a complete call (or the reason it is not emitted), with the held markup as its source. */
  function finishCall(name: string, args: Record<string, unknown>, invalidJson: string[]): void {
    region!.confirmed = true
    for (const parameter of invalidJson) {
      diagnose('invalid-json', '', `Parameter "${parameter}" of "${name}" is not JSON; used as a string`, name)
    }
    if (resolved.mode === 'strip') {
      diagnose('dropped-markup', takeHeld(), `Call to "${name}" removed (mode "strip")`, name)
      return
    }
    if (resolved.knownTools !== undefined && !resolved.knownTools.has(name)) {
      diagnose('unknown-tool', takeHeld(), `Call to "${name}" removed: not in knownTools`, name)
      return
    }
    if (nativeCalls.size > 0 && nativeCalls.has(callKey(name, args))) {
      diagnose('duplicate-call', takeHeld(), `Call to "${name}" removed: the same native call was already sent`, name)
      return
    }
    const call: ToolCall = { id: resolved.generateId(), name, arguments: args }
    push({ type: 'tool-call', call, source: takeHeld() })
    push({ type: 'diagnostic', diagnostic: { kind: 'recovered-call', text: '', tool: name, message: `Recovered a call to "${name}"` } })
    afterRemoval = true
  }

  // ── scanning ──────────────────────────────────────────────────────────

  /** Releases the characters of a rejected tag; those from the first bar on are read again. */
  function rejectTag(text: string): void {
    if (barsMatter()) {
      for (let index = 1; index < text.length; index++) {
        if (isBar(text.charCodeAt(index))) {
          consumeText(text.slice(0, index))
          scan(text.slice(index))
          return
        }
      }
    }
    consumeText(text)
  }

  /** The text of the tag just decided: parts from earlier inputs, then this input's range. */
  function takeTagText(input: string, start: number, end: number): string {
    const text = tagParts.length > 0 ? tagParts.join('') + input.slice(start, end) : input.slice(start, end)
    tagParts = []
    return text
  }

  function completeTag(text: string): void {
    const tag = lexer.tag()
    const prefix = pending
    pending = ''
    if (tag.length < text.length) {
      handleTag(tag, prefix + text.slice(0, tag.length))
      scan(text.slice(tag.length))
    } else {
      handleTag(tag, prefix + text)
    }
  }

  /** Where text can reach the output: outside markup, a lone block's gap, an unconfirmed candidate. */
  function producesText(): boolean {
    const current = region
    if (current === undefined || !current.confirmed) return true
    return sink() === 'gap' && current.block!.elements === 0
  }

  function holdPending(text: string): void {
    pending += text
    if (pending.length > PENDING_LIMIT) {
      consumeText(pending.slice(0, pending.length - PENDING_LIMIT))
      pending = pending.slice(pending.length - PENDING_LIMIT)
    }
  }

  function flushPending(): void {
    if (pending.length > 0) {
      const text = pending
      pending = ''
      consumeText(text)
    }
  }

  function scan(input: string): void {
    const length = input.length
    let index = 0
    // Next position of each interesting character, found lazily with indexOf.
    /** Where a tag begun in this input started (-1: none pending). */
    let tagFrom = -1
    let nextLessThan = -1
    let nextAsciiBar = -1
    let nextFullwidthBar = -1
    let nextDoubleBar = -1
    let nextBoxBar = -1
    while (index < length) {
      if (lexing) {
        const tagStart = tagFrom !== -1 ? tagFrom : index
        tagFrom = -1
        let decided = false
        while (index < length) {
          if (region !== undefined && !lexer.markerSeen && lexer.length >= budgetLeft()) {
            giveUpCandidate()
            continue
          }
          const step = lexer.step(input.charCodeAt(index))
          if (step === STEP_CONTINUE) {
            index++
            continue
          }
          if (step === STEP_COMPLETE) index++
          const whole = tagParts.length === 0
          lexing = false
          if (step !== STEP_REJECT) {
            completeTag(takeTagText(input, tagStart, index))
          } else {
            const code = input.charCodeAt(index)
            if ((code === 0x3c || (isBar(code) && barsMatter())) && producesText()) {
              holdPending(takeTagText(input, tagStart, index))
            } else if (whole && region === undefined && pending === '' && !hasBar(input, tagStart + 1, index)) {
              // The usual case: a `<` in prose. Its text is a range of this input.
              emitRange(input, tagStart, index)
            } else {
              const text = takeTagText(input, tagStart, index)
              flushPending()
              rejectTag(text)
            }
          }
          decided = true
          break
        }
        if (!decided) tagParts.push(input.slice(tagStart))
        continue
      }
      const withBars = barsMatter()
      let next: number
      if (length - index <= SHORT_SCAN) {
        // A short remainder (typical of token-sized chunks): one loop beats five indexOf calls.
        next = index
        while (next < length) {
          const code = input.charCodeAt(next)
          if (code === 0x3c || (withBars && isBar(code))) break
          next++
        }
      } else {
        if (nextLessThan !== -2 && nextLessThan < index) {
          nextLessThan = input.indexOf('<', index)
          if (nextLessThan === -1) nextLessThan = -2
        }
        next = nextLessThan === -2 ? length : nextLessThan
        if (withBars) {
          nextAsciiBar = nextPosition(input, '|', index, nextAsciiBar)
          if (nextAsciiBar !== -2 && nextAsciiBar < next) next = nextAsciiBar
          nextFullwidthBar = nextPosition(input, '\uFF5C', index, nextFullwidthBar)
          if (nextFullwidthBar !== -2 && nextFullwidthBar < next) next = nextFullwidthBar
          nextDoubleBar = nextPosition(input, '\u2016', index, nextDoubleBar)
          if (nextDoubleBar !== -2 && nextDoubleBar < next) next = nextDoubleBar
          nextBoxBar = nextPosition(input, '\u2502', index, nextBoxBar)
          if (nextBoxBar !== -2 && nextBoxBar < next) next = nextBoxBar
        }
      }
      const budget = budgetLeft()
      if (next - index >= budget) {
        if (budget > 0) consumeText(input.slice(index, index + budget))
        index += Math.max(budget, 0)
        giveUpCandidate()
        continue
      }
      if (next > index) {
        if (region === undefined) emitRange(input, index, next)
        else consumeText(input.slice(index, next))
        index = next
        if (index === length) break
      }
      if (region === undefined) {
        if (fences.inFence) {
          flushPending()
          emitText(input[index]!)
          index++
          continue
        }
      }
      const code = input.charCodeAt(index)
      lexing = true
      lexer.begin(code !== 0x3c, lexerContext())
      tagParts = []
      tagFrom = index
      index++
    }
    // A tag begun at this input's last character goes on in the next one.
    if (lexing && tagFrom !== -1) tagParts.push(input.slice(tagFrom))
  }

  function finishLexing(): void {
    while (lexing) {
      const step = lexer.finish()
      const text = tagParts.join('')
      tagParts = []
      lexing = false
      if (step === STEP_REJECT) {
        flushPending()
        rejectTag(text)
      } else {
        completeTag(text)
      }
    }
  }

  /** End of input: what every open structure means (DESIGN.md §5, PATTERNS.md V15/V16). */
  function resolveAtEnd(): void {
    const current = region
    if (current === undefined) return
    if (!current.confirmed) {
      // A markerless candidate that never became a call is text.
      releaseCandidate()
      return
    }
    if (current.parameter !== undefined || current.invoke !== undefined) {
      // A parameter or invoke without its closer is never a call (V16).
      const name = current.invoke?.name
      dropHeld('DSML markup cut off by the end of the text removed', name !== undefined && isToolName(name) ? name : undefined)
      current.parameter = undefined
      current.invoke = undefined
    }
    if (current.block !== undefined && current.block.elements === 0) {
      // A lone opener (V15 with nothing inside): drop it, release what followed.
      resolveLoneBlock()
      if (region === undefined) return
    }
    dropHeld('Unclosed DSML block removed')
    region = undefined
  }

  // ── public ────────────────────────────────────────────────────────────

  return {
    feed(chunk) {
      if (region === undefined && !lexing && !afterRemoval && chunk.length <= SHORT_SCAN && isPlainShortText(chunk)) {
        // Fast path for token-sized prose: nothing held, nothing that could open markup.
        if (chunk.length === 0) return []
        fences.track(chunk)
        return [{ type: 'text', text: chunk }]
      }
      out = []
      scan(chunk)
      flushRange()
      return out
    },
    end() {
      out = []
      finishLexing()
      resolveAtEnd()
      flushRange()
      return out
    },
    heldChars: () => heldLength + gapLength + pending.length + (lexing ? lexer.length : 0),
    idle: () => region === undefined && !lexing && !afterRemoval,
  }
}
