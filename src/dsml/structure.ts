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
 * `endOfInput` says what every state means when the text ends. What becomes
 * of the markup a state ends with is `Markup`'s part (`markup.ts`).
 */
import type { CallAcceptance } from './acceptance.ts'
import { isBlank, isMarkerLostOpener, isToolName, isToolNameElement } from './grammar.ts'
import { ALL_NAMES, CLOSERS, drifting, NO_NAMES, OPENERS, type TagContext } from './markup-starts.ts'
import { Markup, selfClosingParameter } from './markup.ts'
import type { ResolvedOptions } from './options.ts'
import type { Output } from './output.ts'
import {
  block,
  inInvoke,
  inOrphanParameter,
  inNameElement,
  inParameter,
  inSpecialCall,
  inSpecialCalls,
  inToolNameTag,
  inWrappedTool,
  loneBlock,
  newField,
  newInvoke,
  newParameter,
  newRegion,
  OUTSIDE,
  type State,
} from './states.ts'
import { specialCallTag, specialCallsTag } from './special-calls.ts'
import type { Tag } from './tag.ts'
import { continuesCandidate, describeRemoval, meaningOf, nameOf, type TagMeaning, toolNameOf } from './tag-meaning.ts'

type InvokeState = Extract<State, { kind: 'invoke' | 'wrapped-tool' }>
type ToolNameTagState = Extract<State, { kind: 'tool-name-tag' }>
type ParameterState = Extract<State, { kind: 'parameter' | 'orphan-parameter' }>
type BlockState = Extract<State, { kind: 'lone-block' | 'block' }>

export class Structure {
  state: State = OUTSIDE
  /** Reading documentation (`documentation`): no code span is asked about, no call made. */
  #documentation = false
  #resolved: ResolvedOptions
  #output: Output
  #markup: Markup
  #outsideOpeners: boolean

  /** Is a name a declared tool? (The acceptance's answer.) */
  #declared: (name: string) => boolean

  constructor(resolved: ResolvedOptions, output: Output, acceptance: CallAcceptance) {
    this.#declared = (name) => acceptance.isDeclared(name)
    this.#resolved = resolved
    this.#output = output
    this.#markup = new Markup(resolved, output, acceptance)
    this.#outsideOpeners = resolved.rescues.markerlessTags || resolved.rescues.wrappedTool
  }

  /**
   * The text read is documentation (an example in inline code whose closing
   * backticks removed markup could join to others): its markup is removed,
   * and no call is made from it.
   */
  set documentation(on: boolean) {
    this.#documentation = on
    this.#markup.documentation = on
  }

  // ── what the scanner asks ─────────────────────────────────────────────

  get heldChars(): number {
    return this.#markup.heldChars
  }

  /** Outside markup, with no removal just before: only markup openers can change anything. */
  get idle(): boolean {
    return this.state.kind === 'outside' && !this.#output.isAfterRemoval()
  }

  /** Bars start fragments here: outside, between a block's elements, anywhere in a candidate. */
  barsMatter(): boolean {
    const state = this.state
    return state.kind === 'outside' || state.kind === 'lone-block' || state.kind === 'block' || state.kind === 'special-calls' || !state.region.confirmed
  }

  /** Text here may still come out as text: outside, in a candidate, after a lone block opener. */
  producesText(): boolean {
    const state = this.state
    return state.kind === 'outside' || state.kind === 'lone-block' || !state.region.confirmed
  }

  /**
   * What a tag starting here may be: the markerless names it may carry, and,
   * inside markup a real marker opened, read by its shape (`TagContext.drift`).
   */
  context(): TagContext {
    const state = this.state
    const names = this.#names()
    return state.kind !== 'outside' && state.region.confirmed ? drifting(names) : names
  }

  /** The markerless names a tag starting here may carry. */
  #names(): TagContext {
    const state = this.state
    switch (state.kind) {
      case 'outside':
        return this.#outsideNames()
      case 'parameter':
      case 'orphan-parameter':
        // A markerless parameter's value ends at markerless closers; in a confirmed block, at the next opener too.
        if (!state.parameter.markerless) return NO_NAMES
        return state.region.confirmed ? ALL_NAMES : CLOSERS
      case 'tool-name-tag':
      case 'name-element':
      case 'special-calls':
      case 'special-call':
        return NO_NAMES
      case 'lone-block':
        // V4.1's opener that lost its marker goes on only with a marked tag right after it (`needsMarker`): any other
        // tag releases it, and is read as it would be had the opener been text.
        return state.region.needsMarker ? this.#outsideNames() : ALL_NAMES
      case 'block':
      case 'invoke':
      case 'wrapped-tool':
        return ALL_NAMES
      default:
        return state satisfies never
    }
  }

  /** The markerless names a tag outside markup may carry: openers where a rescue reads them, closers right after removed markup. */
  #outsideNames(): TagContext {
    if (this.#output.isAfterRemoval()) return this.#outsideOpeners ? ALL_NAMES : CLOSERS
    return this.#outsideOpeners ? OPENERS : NO_NAMES
  }

  /** How far plain text may run before the region must be given up (eager stop), or Infinity. */
  budgetLeft(): number {
    const state = this.state
    if (state.kind === 'outside') return Infinity
    if (!state.region.confirmed) return this.#resolved.eagerStopChars - state.region.consumed
    if (state.kind === 'lone-block') return this.#resolved.eagerStopChars - this.#markup.gapChars
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
        if (!state.parameter.overflowed) state.parameter.value.append(text)
        this.#markup.hold(state, text)
        return
      case 'invoke':
      case 'wrapped-tool':
      case 'tool-name-tag':
      case 'name-element':
      case 'special-call':
        if (!state.invoke.overflowed) state.invoke.body.push(text)
        this.#markup.hold(state, text)
        return
      case 'lone-block':
        if (state.region.needsMarker && !isBlank(text)) {
          // A lost-marker opener followed by text: it was text too.
          this.state = this.#markup.release()
          this.#output.emitText(text)
          return
        }
        this.#markup.holdGap(state.region, text)
        return
      case 'block':
      case 'special-calls':
        this.#markup.hold(state, text)
        return
      default:
        state satisfies never
    }
  }

  /**
   * Is a tag that starts here with `code` text because it is in a code fence?
   * Outside markup, in a fence, nothing is markup: documentation is neither
   * run nor removed (DESIGN.md §5.4).
   */
  fencedAt(code: number): boolean {
    return this.state.kind === 'outside' && this.#output.fences.inFenceAt(code)
  }

  /**
   * A completed tag; `text` is its text, with any pending partial tags
   * before it. `handled`, or why it is not read as markup yet: it stands in
   * a code fence (the region it began in was released, and the released
   * text opened one: `fenced`, the caller reads it again as text), or
   * outside markup after a backtick run that may open an inline code span
   * (`code-span`: the caller decides that first — then the tag is in the
   * span, or the runs before it are literal backticks and it is asked
   * again). Every tag read as markup outside a region is asked this, however
   * it came to stand there: a candidate it ended or confirmed, or an eager
   * stop, released first.
   */
  handleTag(tag: Tag, text: string): 'handled' | 'fenced' | 'code-span' {
    const meaning = meaningOf(tag, this.#declared)
    for (;;) {
      const state = this.state
      if (this.fencedAt(tag.text.charCodeAt(0))) return 'fenced'
      if (state.kind === 'outside' && this.#mayBeInCodeSpan(tag)) return 'code-span'
      if (state.kind !== 'outside' && !state.region.confirmed) {
        // A markered tag either carries a markerless candidate on (confirming it as DSML) or ends it;
        // a candidate that needs a marker right after it ends at any other tag.
        // One that needs a marker right after it is not continued by a tag that partial tags came before (`text` holds them).
        const confirms = tag.marker !== 'none' && continuesCandidate(state, tag, meaning) && !(state.region.needsMarker && text.length > tag.length)
        if ((tag.marker !== 'none' || state.region.needsMarker) && !confirms) {
          this.state = this.#markup.release()
          continue
        }
        if (confirms && this.#inCodeSpanIfReleased(tag)) {
          // The candidate's text left a backtick run open: the tag may be documentation, decided where it starts.
          this.state = this.#markup.release()
          return 'code-span'
        }
        if (confirms) {
          state.region.confirmed = true
          state.region.needsMarker = false
        }
      }
      if (tag.driftedWord) this.#reportDrift(state, tag)
      if (this.#transition(state, tag, meaning, text)) return 'handled'
    }
  }

  /** Does the tag start, outside markup, where an inline code span may be open? Not in documentation (it is in one). */
  #mayBeInCodeSpan(tag: Tag): boolean {
    return !this.#documentation && this.#output.fences.codeSpanOpenAt(tag.text.charCodeAt(0))
  }

  /**
   * Would the tag start where a code span may be open, were the candidate it
   * confirms released as text? A clone of the tracker reads the candidate's
   * held text (at most `eagerStopChars`, a character at a time as every
   * clone does); the pending partial tags before the tag hold no backtick.
   */
  #inCodeSpanIfReleased(tag: Tag): boolean {
    if (this.#documentation) return false
    const fences = this.#output.fences
    if (!fences.codeSpanOpenAt(tag.text.charCodeAt(0)) && !this.#markup.holdsBacktick()) return false
    const released = fences.clone()
    released.track(this.#markup.heldText())
    return released.codeSpanOpenAt(tag.text.charCodeAt(0))
  }

  /** A drifted marker word read as the marker (once per region): informational, nothing removed. */
  #reportDrift(state: State, tag: Tag): void {
    if (state.kind !== 'outside') {
      if (state.region.driftReported) return
      state.region.driftReported = true
    }
    this.#output.diagnose('drifted-markup', '', `DSML marker word drifted to "${tag.word}"; read by its shape as the marker of the markup it stands in`)
  }

  /** Eager stop: a candidate with no DSML marker, or a lone block opener with only text after it. */
  giveUp(): void {
    const state = this.state
    if (state.kind === 'outside') return
    if (!state.region.confirmed) this.state = this.#markup.release()
    else if (state.kind === 'lone-block') this.state = this.#markup.resolveLoneBlock(state.region)
  }

  /** End of input: what every state means (DESIGN.md §5, PATTERNS.md V15/V16). */
  endOfInput(): void {
    const state = this.state
    const markup = this.#markup
    if (state.kind !== 'outside' && !state.region.confirmed) {
      // A markerless candidate that never became a call is text.
      this.state = markup.release()
      return
    }
    switch (state.kind) {
      case 'outside':
        return
      case 'lone-block':
        // A lone opener (V15 with nothing inside): drop it, release what followed.
        this.state = markup.resolveLoneBlock(state.region)
        if (this.state.kind === 'block') this.state = markup.closeUnclosedBlock()
        return
      case 'block':
        this.state = markup.closeUnclosedBlock()
        return
      case 'invoke':
      case 'wrapped-tool':
      case 'tool-name-tag':
      case 'parameter':
        // An invoke without its closer is never a call (V16).
        markup.cutOff(state.invoke)
        this.state = markup.closeUnclosedBlock()
        return
      case 'orphan-parameter':
        markup.cutOff(undefined)
        this.state = markup.closeUnclosedBlock()
        return
      case 'special-calls':
      case 'name-element':
        this.state = markup.closeUnclosedBlock()
        return
      case 'special-call':
        // A pre-DSML call without its end token is never a call (V16).
        markup.cutOff(undefined)
        this.state = markup.closeUnclosedBlock()
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
        return this.#toolNameTag(state, tag, meaning, text)
      case 'parameter':
      case 'orphan-parameter':
        return this.#parameterTag(state, tag, meaning, text)
      case 'name-element': {
        // Its closer ends it, and the text inside names the tool of the arguments after it;
        // any other tag ends it too, and is read again in the block.
        const own = tag.closing && tag.marker !== 'none' && isToolNameElement(tag.name)
        if (own) this.#markup.hold(state, text)
        const name = state.invoke.overflowed ? undefined : toolNameOf(state.invoke.body.join(''))
        if (name !== undefined) state.region.named = name
        this.state = block(state.region)
        return own
      }
      case 'special-calls':
        this.state = specialCallsTag(this.#markup, state, tag, text)
        return true
      case 'special-call':
        // A tag that is no special token is part of the call's text (its JSON may hold markup-like strings).
        if (tag.special) this.state = specialCallTag(this.#markup, state, tag, text)
        else this.consumeText(text)
        return true
      default:
        return state satisfies never
    }
  }

  /** A markerless tag outside: a candidate begins (held until a marker or the allowed names confirm it), or it is text. */
  #outsideMarkerlessTag(tag: Tag, meaning: TagMeaning, text: string): void {
    const output = this.#output
    const rescues = this.#resolved.rescues
    if (tag.closing) {
      if (output.isAfterRemoval()) output.diagnose('dropped-markup', text, 'Stray closer right after removed DSML markup')
      else output.emitTag(tag, text)
    } else if (tag.selfClosing) {
      output.emitTag(tag, text)
    } else if (meaning === 'block' && isMarkerLostOpener(tag.name)) {
      // V4.1's opener with its marker lost (`< calls>`): markup only on its own line, right before a marked tag.
      if (output.fences.atLineStart) this.state = this.#markup.begin(loneBlock(newRegion(false, true, undefined, true)), text)
      else output.emitTag(tag, text)
    } else if (meaning === 'block' && rescues.markerlessTags) {
      this.state = this.#markup.begin(loneBlock(newRegion(false, true, nameOf(tag))), text)
    } else if (meaning === 'invoke' && rescues.markerlessTags) {
      this.state = this.#markup.begin(inInvoke(newRegion(false, false), newInvoke(nameOf(tag), true)), text)
    } else if (meaning === 'parameter' && (rescues.wrappedTool || rescues.markerlessTags)) {
      this.state = this.#markup.begin(inOrphanParameter(newRegion(false, false), newParameter(tag)), text)
    } else {
      output.emitTag(tag, text)
    }
  }

  #outsideTag(tag: Tag, meaning: TagMeaning, text: string): void {
    const output = this.#output
    if (tag.marker === 'none') {
      this.#outsideMarkerlessTag(tag, meaning, text)
      return
    }
    if (tag.closing && (meaning === 'parameter' || meaning === 'invoke')) {
      // A stray inner closer: the model is inside markup whose opener was lost.
      // What follows is held like a lone block's content: removed if a block
      // closer confirms it, released as text otherwise (fixture gameforge-256).
      this.state = this.#markup.begin(loneBlock(newRegion(true, true)), text)
      return
    }
    if (tag.selfClosing && meaning === 'invoke') {
      // `<‹DSML›invoke name="x"/>`: a complete invoke with no arguments (a call only if the declared schema requires none).
      const invoke = newInvoke(nameOf(tag), false)
      this.state = this.#markup.begin(inInvoke(newRegion(true, false), invoke), text)
      this.state = this.#markup.finishInvoke((this.state as InvokeState).region, invoke, false)
      return
    }
    if (meaning === 'special' && tag.specialToken === 'calls-begin') {
      this.state = this.#markup.begin(inSpecialCalls(newRegion(true, true)), text)
      return
    }
    if (meaning === 'special' && tag.specialToken === 'call-begin') {
      this.state = this.#markup.begin(inSpecialCall(newRegion(true, false), newInvoke(undefined, false)), text)
      return
    }
    if (tag.closing || tag.selfClosing || meaning === 'special' || meaning === 'fragment' || meaning === 'empty') {
      output.diagnose('dropped-markup', text, describeRemoval(tag, meaning))
      return
    }
    switch (meaning) {
      case 'block':
        this.state = this.#markup.begin(loneBlock(newRegion(true, true, nameOf(tag))), text)
        return
      case 'invoke':
        this.state = this.#markup.begin(inInvoke(newRegion(true, false), newInvoke(nameOf(tag), false)), text)
        return
      case 'parameter':
        this.state = this.#markup.begin(inOrphanParameter(newRegion(true, false), newParameter(tag)), text)
        return
      case 'unknown':
        if (isToolNameTag(tag, meaning)) {
          this.state = this.#markup.begin(inToolNameTag(newRegion(true, false), newInvoke(tag.name, false)), text)
        } else {
          output.diagnose('dropped-markup', text, describeRemoval(tag, meaning))
        }
        return
    }
  }

  #blockTag(state: BlockState, tag: Tag, meaning: TagMeaning, text: string): void {
    const region = state.region
    const markup = this.#markup
    if (tag.marker === 'none') {
      const opener = !tag.closing && !tag.selfClosing
      if (opener && meaning === 'invoke') {
        markup.startElement(state, text)
        // Markerless inner tags in a markered block need the looseParameters rescue.
        const invoke = newInvoke(nameOf(tag), true)
        if (region.confirmed) invoke.loose = true
        this.state = inInvoke(region, invoke)
      } else if (opener && meaning === 'parameter') {
        markup.startElement(state, text)
        this.state = inOrphanParameter(region, newParameter(tag))
      } else if (tag.closing && meaning === 'block') {
        this.state = this.#closeBlock(state, text)
      } else {
        this.consumeText(text)
      }
      return
    }
    if (tag.closing && meaning === 'block') {
      this.state = this.#closeBlock(state, text)
      return
    }
    this.state = markup.startElement(state, text)
    if (tag.closing) {
      // a stray inner closer between elements: removed with the block
    } else if (tag.selfClosing && meaning === 'invoke') {
      // `<‹DSML›invoke name="x"/>`: a complete invoke with no arguments (a call only if the declared schema requires none).
      this.state = markup.finishInvoke(region, newInvoke(nameOf(tag), false), false)
    } else if (tag.selfClosing) {
      // a self-closing tag between elements: junk, removed with the block
    } else if (meaning === 'invoke') {
      this.state = inInvoke(region, newInvoke(nameOf(tag), false))
    } else if (meaning === 'parameter') {
      this.state = inOrphanParameter(region, newParameter(tag))
    } else if (meaning === 'unknown' && isToolNameElement(tag.name)) {
      this.state = inNameElement(region)
    }
    // Anything else inside a block (special tokens, fragments, nested openers) is junk, removed with the block.
  }

  /** A block closer: a JSON-in-tag call right after a lone opener, else the block's end. */
  #closeBlock(state: BlockState, text: string): State {
    const markup = this.#markup
    if (state.kind === 'lone-block') {
      const call = markup.closeJsonInTag(state.region, text)
      if (call !== undefined) return call
    }
    markup.startElement(state, text)
    return markup.closeBlock(state.region)
  }

  #invokeTag(state: InvokeState, tag: Tag, meaning: TagMeaning, text: string): boolean {
    const { region, invoke } = state
    const markup = this.#markup
    const wrapped = state.kind === 'wrapped-tool'
    if (!tag.closing && meaning === 'parameter') {
      markup.hold(state, text)
      if (tag.selfClosing) {
        selfClosingParameter(invoke, tag)
      } else {
        if (tag.marker === 'none' && !invoke.markerless) invoke.loose = true
        this.state = inParameter(region, invoke, state.kind, newParameter(tag))
      }
      return true
    }
    if (!tag.closing && meaning === 'invoke') {
      if (tag.selfClosing && tag.marker !== 'none' && tag.nameAttribute !== undefined) {
        // A parameter written as a self-closing invoke with its value in an attribute.
        markup.hold(state, text)
        selfClosingParameter(invoke, tag)
        return true
      }
      // The next invoke: this one ended without its closer. A call if every parameter closed.
      this.state = invoke.cut ? markup.abandonInvoke(region, invoke, 'DSML invoke without its closer removed') : markup.finishInvoke(region, invoke, wrapped, true)
      return false
    }
    if (tag.closing && (meaning === 'invoke' || meaning === 'empty')) {
      markup.hold(state, text)
      this.state = markup.finishInvoke(region, invoke, wrapped)
      return true
    }
    if (tag.closing && meaning === 'parameter') {
      markup.hold(state, text)
      if (wrapped) this.state = markup.finishInvoke(region, invoke, wrapped)
      return true
    }
    if (invoke.implied && !tag.closing && tag.marker !== 'none' && meaning === 'unknown' && isToolNameElement(tag.name)) {
      // The next tool's name: the implied invoke before it is complete.
      this.state = markup.finishInvoke(region, invoke, wrapped)
      return false
    }
    if (meaning === 'block') {
      // A block closer ends an invoke that lost its closer: a call if every parameter closed (as vLLM's parsers expect).
      if (tag.closing && (wrapped || invoke.implied)) this.state = markup.finishInvoke(region, invoke, wrapped)
      else if (tag.closing && !invoke.cut) this.state = markup.finishInvoke(region, invoke, wrapped, true)
      else this.state = markup.abandonInvoke(region, invoke, 'DSML invoke without its closer removed')
      return false
    }
    if (tag.marker === 'none') this.consumeText(text)
    else markup.hold(state, text) // special tokens, fragments, unknown tags inside an invoke: junk, removed with it
    return true
  }

  #parameterTag(state: ParameterState, tag: Tag, meaning: TagMeaning, text: string): boolean {
    const markup = this.#markup
    const parameter = state.parameter
    if (tag.closerWithJunk || (!tag.closing && meaning === 'block')) {
      // Not the value's end: a closer with junk after its name is no closer, and no block begins inside an invoke.
      this.consumeText(text)
      return true
    }
    // A field (`<‹DSML›command>…`) is closed by a closer of its own name too, and ended by the next field.
    const ownName = parameter.field && tag.marker !== 'none' && meaning === 'unknown' && tag.name === parameter.name
    if (tag.closing) {
      if (meaning === 'parameter' || (meaning === 'empty' && tag.marker !== 'none') || ownName) {
        markup.hold(state, text)
        this.state = markup.closeParameter(state, meaning === 'empty')
        return true
      }
      if (meaning === 'invoke' || meaning === 'block') {
        this.state = markup.closeParameter(state, true, !parameter.field)
        return false
      }
      this.consumeText(text)
      return true
    }
    const nextField = parameter.field && isToolNameTag(tag, meaning)
    // In a confirmed block, a markerless parameter ends at the next markerless parameter or invoke (read by shape).
    const nextMarkerless = tag.marker === 'none' && parameter.markerless && state.region.confirmed && (meaning === 'parameter' || meaning === 'invoke')
    if (!nextField && !nextMarkerless && (tag.marker === 'none' || meaning === 'special' || meaning === 'unknown' || meaning === 'empty' || meaning === 'fragment')) {
      this.consumeText(text)
      return true
    }
    if (meaning === 'parameter' && state.kind === 'orphan-parameter') {
      // V26: the outer parameter names the tool; its inner parameters are the arguments.
      const outer = state.parameter
      this.state = inWrappedTool(state.region, newInvoke(outer.name, outer.markerless))
      return false
    }
    // The next parameter (or field) ends this one; an invoke opener cuts it short.
    this.state = markup.closeParameter(state, true, meaning === 'invoke')
    return false
  }

  /**
   * Inside a tag named after the tool (`<‹DSML›execute_command>`): its fields
   * are DSML-marked elements (`<‹DSML›command>…`), parameters, or plain
   * elements (`<timeout>600</timeout>`) in its text; an invoke closer or a
   * closer of its own name ends it. A block, invoke or special token beginning
   * inside it means it was junk before real markup.
   */
  #toolNameTag(state: ToolNameTagState, tag: Tag, meaning: TagMeaning, text: string): boolean {
    const { region, invoke } = state
    const markup = this.#markup
    const marked = tag.marker !== 'none'
    if (marked && !tag.closing && (meaning === 'block' || meaning === 'invoke' || meaning === 'special')) {
      this.state = markup.abandonInvoke(region, invoke, 'DSML tag removed: DSML markup began inside it')
      return false
    }
    if (marked && tag.closing && (meaning === 'invoke' || meaning === 'block' || (meaning === 'unknown' && tag.name === invoke.name))) {
      if (meaning !== 'block') markup.hold(state, text)
      this.state = markup.finishToolNameTag(region, invoke)
      return meaning !== 'block'
    }
    markup.hold(state, text)
    if (!marked) {
      if (!invoke.overflowed) invoke.body.push(text)
    } else if (!tag.closing && meaning === 'parameter') {
      if (tag.selfClosing) selfClosingParameter(invoke, tag)
      else this.state = inParameter(region, invoke, 'tool-name-tag', newParameter(tag))
    } else if (!tag.closing && !tag.selfClosing && isToolNameTag(tag, meaning)) {
      this.state = inParameter(region, invoke, 'tool-name-tag', newField(tag))
    } else if (tag.closing && (meaning === 'parameter' || meaning === 'empty')) {
      markup.closeBodyElement(invoke)
    }
    // Anything else marked (fragments, stray closers) is junk, removed with it.
    return true
  }
}

/** A DSML tag named after a tool (`<‹DSML›execute_command>`): an opener under the word itself whose name means nothing else. */
function isToolNameTag(tag: Tag, meaning: TagMeaning): boolean {
  return meaning === 'unknown' && tag.marker === 'dsml' && !tag.closing && !tag.broken && isToolName(tag.name)
}

