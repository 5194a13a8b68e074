/**
 * The structure layer: what tags mean where they stand. It keeps the engine's
 * named `State` (`states.ts`), gets text and completed tags from the scanner,
 * and decides what is held, released as text, recovered as a call, or
 * removed and reported.
 *
 * `handleTag` is the one dispatcher: each state has one transition, which
 * switches on the tag's kind. A transition that ends its state without using
 * the tag (a parameter closed by an invoke closer) returns false, and the
 * dispatcher hands the tag to the new state; no transition calls back in.
 * `endOfInput` says what every state means when the text ends.
 */
import { CallAcceptance, toolOf } from './acceptance.ts'
import { parseFencedJsonCall, parseJsonObjectBody, parseXmlChildren, setArgument, typeValue } from './arguments.ts'
import { isStringFlag, isToolName, type MarkerlessNames, type TagKind } from './grammar.ts'
import { HeldText } from './hold.ts'
import type { ResolvedOptions } from './options.ts'
import type { Output } from './output.ts'
import { type Invoke, newInvoke, newParameter, newRegion, OUTSIDE, type Region, type State } from './states.ts'
import type { Tag } from './tag-lexer.ts'
import type { ToolCall } from './types.ts'

/** What a tag is, where it stands: its name's kind, or a special token, or a fragment that lost its `<`. */
export type TagMeaning = TagKind | 'special' | 'fragment'

export function meaningOf(tag: Tag): TagMeaning {
  if (tag.special) return 'special'
  if (tag.fragment) return 'fragment'
  return tag.kind
}

const NO_NAMES: MarkerlessNames = Object.freeze({ openers: false, closers: false })
const CLOSERS: MarkerlessNames = Object.freeze({ openers: false, closers: true })
const OPENERS: MarkerlessNames = Object.freeze({ openers: true, closers: false })
const ALL_NAMES: MarkerlessNames = Object.freeze({ openers: true, closers: true })

type InvokeState = Extract<State, { kind: 'invoke' | 'wrapped-tool' }>
type ParameterState = Extract<State, { kind: 'parameter' | 'orphan-parameter' }>
type BlockState = Extract<State, { kind: 'lone-block' | 'block' }>

const CUT_OFF = 'DSML markup cut off by the end of the text removed'

/** The name attribute, unless the tag was cut off inside it (then it names nothing). */
function nameOf(tag: Tag): string | undefined {
  return tag.broken ? undefined : tag.nameAttribute
}

export class Structure {
  state: State = OUTSIDE
  #resolved: ResolvedOptions
  #output: Output
  #acceptance: CallAcceptance
  /** Markup of the current region. */
  #held = new HeldText()
  /** Text after a lone block opener: released if the block turns out empty. */
  #gap = new HeldText()
  #outsideOpeners: boolean

  constructor(resolved: ResolvedOptions, output: Output, acceptance: CallAcceptance) {
    this.#resolved = resolved
    this.#output = output
    this.#acceptance = acceptance
    this.#outsideOpeners = resolved.rescues.markerlessTags || resolved.rescues.wrappedTool
  }

  // ── what the scanner asks ─────────────────────────────────────────────

  get heldChars(): number {
    return this.#held.length + this.#gap.length
  }

  /** Outside markup, with no removal just before: only markup openers can change anything. */
  get idle(): boolean {
    return this.state.kind === 'outside' && !this.#output.afterRemoval
  }

  /** Bars start fragments here: outside, between a block's elements, anywhere in a candidate. */
  barsMatter(): boolean {
    const state = this.state
    return state.kind === 'outside' || state.kind === 'lone-block' || state.kind === 'block' || !state.region.confirmed
  }

  /** Text here may still come out as text: outside, in a candidate, after a lone block opener. */
  producesText(): boolean {
    const state = this.state
    return state.kind === 'outside' || state.kind === 'lone-block' || !state.region.confirmed
  }

  /** The markerless names a tag starting here may carry. */
  names(): MarkerlessNames {
    const state = this.state
    switch (state.kind) {
      case 'outside':
        if (this.#output.afterRemoval) return this.#outsideOpeners ? ALL_NAMES : CLOSERS
        return this.#outsideOpeners ? OPENERS : NO_NAMES
      case 'parameter':
      case 'orphan-parameter':
        return state.parameter.markerless ? CLOSERS : NO_NAMES
      case 'tool-name-tag':
        return NO_NAMES
      case 'lone-block':
      case 'block':
      case 'invoke':
      case 'wrapped-tool':
        return ALL_NAMES
      default:
        return state satisfies never
    }
  }

  /** How far plain text may run before the region must be given up (eager stop), or Infinity. */
  budgetLeft(): number {
    const state = this.state
    if (state.kind === 'outside') return Infinity
    if (!state.region.confirmed) return this.#resolved.eagerStopChars - state.region.consumed
    if (state.kind === 'lone-block') return this.#resolved.eagerStopChars - this.#gap.length
    return Infinity
  }

  // ── input ─────────────────────────────────────────────────────────────

  /** Text that is not a tag, in the current state. */
  consumeText(text: string): void {
    const state = this.state
    switch (state.kind) {
      case 'outside':
        this.#output.emitText(text)
        return
      case 'parameter':
      case 'orphan-parameter':
        if (!state.parameter.overflowed) state.parameter.value.push(text)
        this.#hold(text)
        return
      case 'invoke':
      case 'wrapped-tool':
      case 'tool-name-tag':
        if (!state.invoke.overflowed) state.invoke.body.push(text)
        this.#hold(text)
        return
      case 'lone-block':
        state.region.consumed += text.length
        this.#gap.add(text)
        return
      case 'block':
        this.#hold(text)
        return
      default:
        state satisfies never
    }
  }

  /** A completed tag; `text` is its text, with any pending partial tags before it. */
  handleTag(tag: Tag, text: string): void {
    const meaning = meaningOf(tag)
    for (;;) {
      const state = this.state
      if (state.kind !== 'outside' && !state.region.confirmed && tag.marker !== 'none') {
        // A markered tag either carries a markerless candidate on (confirming it as DSML) or ends it.
        if (!continuesCandidate(state, tag, meaning)) {
          this.#releaseCandidate()
          continue
        }
        state.region.confirmed = true
      }
      if (this.#transition(state, tag, meaning, text)) return
    }
  }

  /** Eager stop: a candidate with no DSML marker, or a lone block opener with only text after it. */
  giveUp(): void {
    const state = this.state
    if (state.kind === 'outside') return
    if (!state.region.confirmed) this.#releaseCandidate()
    else if (state.kind === 'lone-block') this.#resolveLoneBlock(state.region)
  }

  /** End of input: what every state means (DESIGN.md §5, PATTERNS.md V15/V16). */
  endOfInput(): void {
    const state = this.state
    if (state.kind !== 'outside' && !state.region.confirmed) {
      // A markerless candidate that never became a call is text.
      this.#releaseCandidate()
      return
    }
    switch (state.kind) {
      case 'outside':
        return
      case 'lone-block':
        // A lone opener (V15 with nothing inside): drop it, release what followed.
        this.#resolveLoneBlock(state.region)
        if (this.state.kind === 'block') this.#closeUnclosedBlock()
        return
      case 'block':
        this.#closeUnclosedBlock()
        return
      case 'invoke':
      case 'wrapped-tool':
      case 'tool-name-tag':
      case 'parameter':
        // An invoke without its closer is never a call (V16).
        this.#dropHeld(CUT_OFF, toolOf(state.invoke))
        this.#closeUnclosedBlock()
        return
      case 'orphan-parameter':
        this.#dropHeld(CUT_OFF)
        this.#closeUnclosedBlock()
        return
      default:
        state satisfies never
    }
  }

  // ── transitions ───────────────────────────────────────────────────────

  /** The current state's transition for `tag`. False: the state ended without using the tag. */
  #transition(state: State, tag: Tag, meaning: TagMeaning, text: string): boolean {
    switch (state.kind) {
      case 'outside':
        this.#outsideTag(tag, meaning, text)
        return true
      case 'lone-block':
      case 'block':
        this.#blockTag(state, tag, meaning, text)
        return true
      case 'invoke':
      case 'wrapped-tool':
        return this.#invokeTag(state, tag, meaning, text)
      case 'tool-name-tag':
        this.#hold(text)
        if (tag.closing) this.#finishToolNameTag(state.region, state.invoke)
        else if (!state.invoke.overflowed) state.invoke.body.push(text)
        return true
      case 'parameter':
      case 'orphan-parameter':
        return this.#parameterTag(state, tag, meaning, text)
      default:
        return state satisfies never
    }
  }

  #outsideTag(tag: Tag, meaning: TagMeaning, text: string): void {
    const output = this.#output
    const rescues = this.#resolved.rescues
    if (tag.marker === 'none') {
      if (tag.closing) {
        if (output.afterRemoval) output.diagnose('dropped-markup', text, 'Stray closer right after removed DSML markup')
        else output.emitTag(tag, text)
      } else if (tag.selfClosing) {
        output.emitTag(tag, text)
      } else if (meaning === 'block' && rescues.markerlessTags) {
        this.#begin({ kind: 'lone-block', region: newRegion(false, true) }, text)
      } else if (meaning === 'invoke' && rescues.markerlessTags) {
        this.#begin({ kind: 'invoke', region: newRegion(false, false), invoke: newInvoke(nameOf(tag), true) }, text)
      } else if (meaning === 'parameter' && (rescues.wrappedTool || rescues.markerlessTags)) {
        this.#begin({ kind: 'orphan-parameter', region: newRegion(false, false), parameter: newParameter(tag) }, text)
      } else {
        output.emitTag(tag, text)
      }
      return
    }
    if (tag.closing && (meaning === 'parameter' || meaning === 'invoke')) {
      // A stray inner closer: the model is inside markup whose opener was lost.
      // What follows is held like a lone block's content: removed if a block
      // closer confirms it, released as text otherwise (fixture gameforge-256).
      this.#begin({ kind: 'lone-block', region: newRegion(true, true) }, text)
      return
    }
    if (tag.closing || tag.selfClosing || meaning === 'special' || meaning === 'fragment' || meaning === 'empty') {
      output.diagnose('dropped-markup', text, describeRemoval(tag, meaning))
      return
    }
    switch (meaning) {
      case 'block':
        this.#begin({ kind: 'lone-block', region: newRegion(true, true) }, text)
        return
      case 'invoke':
        this.#begin({ kind: 'invoke', region: newRegion(true, false), invoke: newInvoke(nameOf(tag), false) }, text)
        return
      case 'parameter':
        this.#begin({ kind: 'orphan-parameter', region: newRegion(true, false), parameter: newParameter(tag) }, text)
        return
      case 'unknown':
        if (tag.marker === 'dsml' && !tag.broken && isToolName(tag.name)) {
          this.#begin({ kind: 'tool-name-tag', region: newRegion(true, false), invoke: newInvoke(tag.name, false) }, text)
        } else {
          output.diagnose('dropped-markup', text, describeRemoval(tag, meaning))
        }
        return
    }
  }

  #blockTag(state: BlockState, tag: Tag, meaning: TagMeaning, text: string): void {
    const region = state.region
    if (tag.marker === 'none') {
      const opener = !tag.closing && !tag.selfClosing
      if (opener && meaning === 'invoke') {
        this.#startElement(state, text)
        // Markerless inner tags in a markered block need the looseParameters rescue.
        const invoke = newInvoke(nameOf(tag), true)
        if (region.confirmed) invoke.loose = true
        this.state = { kind: 'invoke', region, invoke }
      } else if (opener && meaning === 'parameter') {
        this.#startElement(state, text)
        this.state = { kind: 'orphan-parameter', region, parameter: newParameter(tag) }
      } else if (tag.closing && meaning === 'block') {
        this.#startElement(state, text)
        this.#closeBlock(region)
      } else {
        this.consumeText(text)
      }
      return
    }
    this.#startElement(state, text)
    if (tag.closing) {
      if (meaning === 'block') this.#closeBlock(region)
    } else if (tag.selfClosing) {
      // a self-closing tag between elements: junk, removed with the block
    } else if (meaning === 'invoke') {
      this.state = { kind: 'invoke', region, invoke: newInvoke(nameOf(tag), false) }
    } else if (meaning === 'parameter') {
      this.state = { kind: 'orphan-parameter', region, parameter: newParameter(tag) }
    }
    // Anything else inside a block (special tokens, fragments, nested openers) is junk, removed with the block.
  }

  #invokeTag(state: InvokeState, tag: Tag, meaning: TagMeaning, text: string): boolean {
    const { region, invoke } = state
    const wrapped = state.kind === 'wrapped-tool'
    if (!tag.closing && meaning === 'parameter') {
      this.#hold(text)
      if (tag.selfClosing) {
        selfClosingParameter(invoke, tag)
      } else {
        if (tag.marker === 'none' && !invoke.markerless) invoke.loose = true
        this.state = { kind: 'parameter', region, invoke, wrapped, parameter: newParameter(tag) }
      }
      return true
    }
    if (!tag.closing && meaning === 'invoke') {
      if (tag.selfClosing && tag.marker !== 'none' && tag.nameAttribute !== undefined) {
        // A parameter written as a self-closing invoke with its value in an attribute.
        this.#hold(text)
        selfClosingParameter(invoke, tag)
        return true
      }
      this.#abandonInvoke(region, invoke, 'DSML invoke without its closer removed')
      return false
    }
    if (tag.closing && (meaning === 'invoke' || meaning === 'empty')) {
      this.#hold(text)
      this.#finishInvoke(region, invoke, wrapped)
      return true
    }
    if (tag.closing && meaning === 'parameter') {
      this.#hold(text)
      if (wrapped) this.#finishInvoke(region, invoke, wrapped)
      return true
    }
    if (meaning === 'block') {
      if (tag.closing && wrapped) this.#finishInvoke(region, invoke, wrapped)
      else this.#abandonInvoke(region, invoke, 'DSML invoke without its closer removed')
      return false
    }
    if (tag.marker === 'none') this.consumeText(text)
    else this.#hold(text) // special tokens, fragments, unknown tags inside an invoke: junk, removed with it
    return true
  }

  #parameterTag(state: ParameterState, tag: Tag, meaning: TagMeaning, text: string): boolean {
    if (tag.closing) {
      if (meaning === 'parameter' || (meaning === 'empty' && tag.marker !== 'none')) {
        this.#hold(text)
        this.#closeParameter(state, meaning === 'empty')
        return true
      }
      if (meaning === 'invoke' || meaning === 'block') {
        this.#closeParameter(state, true)
        return false
      }
      this.consumeText(text)
      return true
    }
    if (tag.marker === 'none' || meaning === 'special' || meaning === 'unknown' || meaning === 'empty' || meaning === 'fragment') {
      this.consumeText(text)
      return true
    }
    if (meaning === 'parameter' && state.kind === 'orphan-parameter') {
      // V26: the outer parameter names the tool; its inner parameters are the arguments.
      const outer = state.parameter
      this.state = { kind: 'wrapped-tool', region: state.region, invoke: newInvoke(outer.name, outer.markerless) }
      return false
    }
    this.#closeParameter(state, true)
    return false
  }

  // ── regions ───────────────────────────────────────────────────────────

  /** Enters a region's first state with its opener's text. */
  #begin(state: Exclude<State, { kind: 'outside' }>, text: string): void {
    this.state = state
    this.#hold(text)
  }

  /** A tag between a block's elements: the gap after a lone opener becomes markup too. */
  #startElement(state: BlockState, text: string): void {
    const region = state.region
    if (state.kind === 'lone-block') {
      if (this.#gap.length > 0) {
        const gap = this.#gap.take()
        region.consumed -= gap.length
        this.#hold(gap)
      }
      this.state = { kind: 'block', region }
    }
    this.#hold(text)
  }

  /** Back to the enclosing block after an element, or out of the region. */
  #afterElement(region: Region): void {
    if (region.inBlock) this.state = { kind: 'block', region }
    else this.#endRegion()
  }

  #endRegion(): void {
    this.state = OUTSIDE
    this.#output.afterRemoval = true
  }

  /** An unconfirmed candidate proved to be text: everything it held comes out unchanged. */
  #releaseCandidate(): void {
    const held = this.#held.take()
    this.#output.emitText(this.#gap.length > 0 ? held + this.#gap.take() : held)
    this.state = OUTSIDE
  }

  #closeBlock(region: Region): void {
    if (!region.confirmed) {
      this.#releaseCandidate()
      return
    }
    this.#dropHeld('DSML block markup removed')
    this.#endRegion()
  }

  #closeUnclosedBlock(): void {
    this.#dropHeld('Unclosed DSML block removed')
    this.state = OUTSIDE
  }

  /** A markered block opener followed by text only: try the fenced-JSON rescue, else drop the opener and release the text. */
  #resolveLoneBlock(region: Region): void {
    if (this.#resolved.rescues.fencedJson) {
      const gap = this.#gap.take()
      const fenced = parseFencedJsonCall(gap)
      if (fenced !== undefined) {
        this.state = { kind: 'block', region }
        this.#hold(gap.slice(0, fenced.end))
        this.#finishCall(region, fenced.name, fenced.arguments, [])
        this.#hold(gap.slice(fenced.end))
        return
      }
      this.#gap.add(gap)
    }
    this.#dropHeld('DSML block opener with no call after it')
    const text = this.#gap.take()
    this.#endRegion()
    this.#output.emitText(text)
  }

  // ── invokes and parameters ────────────────────────────────────────────

  #closeParameter(state: ParameterState, loose: boolean): void {
    const { region, parameter } = state
    if (state.kind === 'orphan-parameter') {
      // V10: a parameter with no invoke names no tool.
      if (!region.confirmed) {
        this.#releaseCandidate()
        return
      }
      this.#dropHeld('DSML parameter outside any invoke removed (no tool name)')
      this.#afterElement(region)
      return
    }
    const invoke = state.invoke
    this.state = { kind: state.wrapped ? 'wrapped-tool' : 'invoke', region, invoke }
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

  #abandonInvoke(region: Region, invoke: Invoke, message: string): void {
    if (!region.confirmed) {
      this.#releaseCandidate()
      return
    }
    this.#dropHeld(message, toolOf(invoke))
    this.#afterElement(region)
  }

  #finishInvoke(region: Region, invoke: Invoke, wrapped: boolean): void {
    let args: Record<string, unknown> | undefined = invoke.argumentCount > 0 ? invoke.args : undefined
    let usedBody = false
    if (args === undefined && !wrapped && !invoke.overflowed) {
      args = parseJsonObjectBody(invoke.body.join(''))
      usedBody = args !== undefined
    }
    const reason =
      args === undefined
        ? 'DSML invoke removed: no arguments'
        : this.#acceptance.rejectionOf(invoke, { wrapped, inBlock: region.inBlock, usedBody, confirmed: region.confirmed })
    if (reason !== undefined) {
      if (!region.confirmed) {
        this.#releaseCandidate()
        return
      }
      this.#dropHeld(reason, toolOf(invoke))
    } else {
      this.#finishCall(region, invoke.name!, args!, invoke.invalidJson)
    }
    this.#afterElement(region)
  }

  #finishToolNameTag(region: Region, invoke: Invoke): void {
    const args = invoke.overflowed ? undefined : parseXmlChildren(invoke.body.join(''))
    if (args === undefined) this.#dropHeld('DSML tag named after a tool removed: no arguments', invoke.name)
    else if (!this.#resolved.rescues.toolNameTag) this.#dropHeld('Tool-name tag removed: the toolNameTag rescue is off', invoke.name)
    else this.#finishCall(region, invoke.name!, args, [])
    this.#endRegion()
  }

  /** Emits a complete call (or the reason it is not sent), with the held markup as its source. */
  #finishCall(region: Region, name: string, args: Record<string, unknown>, invalidJson: string[]): void {
    const output = this.#output
    region.confirmed = true
    for (const parameter of invalidJson) {
      output.diagnose('invalid-json', '', `Parameter "${parameter}" of "${name}" is not JSON; used as a string`, name)
    }
    const verdict = this.#acceptance.verdict(name, args)
    if (verdict.kind !== 'call') {
      output.diagnose(verdict.kind, this.#held.take(), verdict.message, name)
      return
    }
    const call: ToolCall = { id: this.#resolved.generateId(), name, arguments: args }
    output.push({ type: 'tool-call', call, source: this.#held.take() })
    output.push({ type: 'diagnostic', diagnostic: { kind: 'recovered-call', text: '', tool: name, message: `Recovered a call to "${name}"` } })
    output.afterRemoval = true
  }

  // ── held markup ───────────────────────────────────────────────────────

  /** Appends markup to the region, reporting it in capped pieces instead of growing. */
  #hold(text: string): void {
    const state = this.state
    if (state.kind !== 'outside') state.region.consumed += text.length
    const cap = this.#resolved.maxMarkupChars
    while (this.#held.length + text.length > cap) {
      const room = cap - this.#held.length
      this.#held.add(text.slice(0, room))
      text = text.slice(room)
      this.#overflow()
    }
    this.#held.add(text)
  }

  #overflow(): void {
    this.#output.diagnose('hold-limit', this.#held.take(), `Held DSML markup passed maxHoldChars (${this.#resolved.maxHoldChars}); removed and reported`)
    const state = this.state
    if (state.kind === 'parameter' || state.kind === 'orphan-parameter') {
      state.parameter.overflowed = true
      state.parameter.value = []
    }
    if (state.kind === 'parameter' || state.kind === 'invoke' || state.kind === 'wrapped-tool' || state.kind === 'tool-name-tag') {
      state.invoke.overflowed = true
      state.invoke.body = []
    }
  }

  #dropHeld(message: string, tool?: string): void {
    if (this.#held.length > 0) this.#output.diagnose('dropped-markup', this.#held.take(), message, tool)
  }
}

/** A markered tag that carries a markerless candidate on (and so confirms it as DSML). */
function continuesCandidate(state: Exclude<State, { kind: 'outside' }>, tag: Tag, meaning: TagMeaning): boolean {
  if (tag.closing) return meaning === 'parameter' || meaning === 'invoke' || meaning === 'block' || meaning === 'empty'
  if (meaning === 'parameter') return true
  return meaning === 'invoke' && (state.kind === 'lone-block' || state.kind === 'block')
}

/** A parameter written as a self-closing tag, its value in an attribute (`value="…"`, or `string` used as the value). */
function selfClosingParameter(invoke: Invoke, tag: Tag): void {
  invoke.loose = true
  const name = tag.nameAttribute
  if (name === undefined || name === '') return
  const stringAttribute = tag.stringAttribute
  const raw = tag.valueAttribute ?? (isStringFlag(stringAttribute) ? '' : (stringAttribute ?? ''))
  const typed = typeValue(raw, tag.valueAttribute !== undefined ? stringAttribute : undefined)
  setArgument(invoke.args, name, typed.value)
  invoke.argumentCount++
  invoke.markeredArgumentCount++
}

function describeRemoval(tag: Tag, meaning: TagMeaning): string {
  if (meaning === 'special') return 'DeepSeek special token removed'
  if (meaning === 'fragment') return 'DSML marker fragment without "<" removed'
  if (tag.closing) return 'Stray DSML closer removed'
  return 'DSML tag outside any call removed'
}
