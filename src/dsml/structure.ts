/**
 * The structure layer: what tags mean where they stand. It keeps the engine's
 * named `State` (`states.ts`), gets text and completed tags from the scanner,
 * and decides what is held, released as text, recovered as a call, or
 * removed and reported.
 *
 * `handleTag` is the one dispatcher: each state has one transition, which
 * switches on the tag's kind; the transitions live one file per state group
 * (`outside-transitions.ts`, `block-transitions.ts`, `invoke-transitions.ts`,
 * `special-calls.ts`), with the structure as their context
 * (`transition-context.ts`). A transition that ends its state without using
 * the tag (a parameter closed by an invoke closer) returns false, and the
 * dispatcher hands the tag to the new state; no transition calls back in.
 * `endOfInput` says what every state means when the text ends. What becomes
 * of the markup a state ends with is `Markup`'s part (`markup.ts`).
 */
import type { CallAcceptance } from './acceptance.ts'
import { blockTag, nameElementTag } from './block-transitions.ts'
import { isBlank } from './grammar.ts'
import { invokeTag, parameterTag, toolNameTag } from './invoke-transitions.ts'
import type { TagContext } from './markup-starts.ts'
import { tagContextOf } from './tag-context.ts'
import { Markup } from './markup.ts'
import type { ResolvedOptions } from './options.ts'
import { outsideTag } from './outside-transitions.ts'
import type { Output } from './output.ts'
import { OUTSIDE, type State } from './states.ts'
import { RunawayGuard } from './runaway-guard.ts'
import { CallStreaming } from './call-streaming.ts'
import { specialCallTag, specialCallsTag } from './special-calls.ts'
import type { Tag } from './tag.ts'
import { continuesCandidate, meaningOf, type TagMeaning } from './tag-meaning.ts'
import type { TransitionContext } from './transition-context.ts'

export class Structure implements TransitionContext {
  state: State = OUTSIDE
  /** Reading documentation (`documentation`): no code span is asked about, no call made. */
  #documentation = false
  #resolved: ResolvedOptions
  readonly output: Output
  readonly markup: Markup
  readonly rescues: ResolvedOptions['rescues']
  #outsideOpeners: boolean

  /** Is a name a declared tool? (The acceptance's answer.) */
  #declared: (name: string) => boolean
  /** The runaway guard (`runawayRepeat`), when on. */
  #guard: RunawayGuard | undefined
  /** Calls written as they form (`streamToolCalls`), when on: told what each tag did. */
  #streaming: CallStreaming | undefined

  constructor(resolved: ResolvedOptions, output: Output, acceptance: CallAcceptance) {
    this.#declared = (name) => acceptance.isDeclared(name)
    this.#resolved = resolved
    this.output = output
    this.#streaming = resolved.streamToolCalls ? new CallStreaming(resolved, acceptance, output) : undefined
    this.markup = new Markup(resolved, output, acceptance, this.#streaming)
    this.rescues = resolved.rescues
    this.#outsideOpeners = resolved.rescues.markerlessTags || resolved.rescues.wrappedTool
    this.#guard = resolved.runawayRepeat === 0 ? undefined : new RunawayGuard(resolved.runawayRepeat)
  }

  /**
   * The text read is documentation (an example in inline code whose closing
   * backticks removed markup could join to others): its markup is removed,
   * and no call is made from it.
   */
  set documentation(on: boolean) {
    this.#documentation = on
    this.markup.documentation = on
  }

  // ── what the scanner asks ─────────────────────────────────────────────

  get heldChars(): number {
    return this.markup.heldChars
  }

  /** Outside markup, with no removal just before: only markup openers can change anything. (Stopped, everything is removed.) */
  get idle(): boolean {
    return this.state.kind === 'outside' && !this.output.isAfterRemoval() && !this.output.stopped
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

  /** What a tag starting here may be (`tagContextOf`: the markerless names it may carry, and whether it drifts). */
  context(): TagContext {
    return tagContextOf(this.state, this.#outsideOpeners, this.output)
  }

  /** How far plain text may run before the region must be given up (eager stop), or Infinity. */
  budgetLeft(): number {
    const state = this.state
    if (state.kind === 'outside') return Infinity
    if (!state.region.confirmed) return this.#resolved.eagerStopChars - state.region.consumed
    if (state.kind === 'lone-block') return this.#resolved.eagerStopChars - this.markup.gapChars
    return Infinity
  }

  // ── input ─────────────────────────────────────────────────────────────

  /** Text that is not a tag, in the current state. */
  consumeText(text: string): void {
    const guard = this.#guard
    if (guard !== undefined && (this.output.stopped || this.state.kind !== 'outside')) {
      if (this.output.stopped) {
        this.output.emitText(text)
        return
      }
      const stopAt = guard.text(text)
      if (stopAt !== -1) {
        // The run is read up to the character that made it too long; the engine stops right after it.
        if (stopAt > 0) this.#consumeText(text.slice(0, stopAt))
        this.#stop('one character repeated')
        this.output.emitText(text.slice(stopAt))
        return
      }
    }
    this.#consumeText(text)
  }

  #consumeText(text: string): void {
    const state = this.state
    switch (state.kind) {
      case 'outside':
        this.output.emitText(text)
        return
      case 'parameter':
      case 'orphan-parameter':
        if (!state.parameter.overflowed) state.parameter.value.append(text)
        this.markup.hold(state, text)
        if (state.kind === 'parameter') this.#streaming?.text(state, text)
        return
      case 'invoke':
      case 'wrapped-tool':
      case 'tool-name-tag':
      case 'name-element':
      case 'special-call':
        if (!state.invoke.overflowed) state.invoke.body.push(text)
        this.markup.hold(state, text)
        if (state.kind === 'invoke') this.#streaming?.invokeText(state)
        return
      case 'lone-block':
        if (state.region.needsMarker && !isBlank(text)) {
          // A lost-marker opener followed by text: it was text too.
          this.state = this.markup.release()
          this.output.emitText(text)
          return
        }
        this.markup.holdGap(state.region, text)
        return
      case 'block':
      case 'special-calls':
        this.markup.hold(state, text)
        return
      default:
        state satisfies never
    }
  }

  /**
   * Is a tag that starts here with `code` text because it is in a code fence?
   * Outside markup, in a fence, nothing is markup: documentation is neither
   * run nor removed (the policy, docs/accepts-and-policy.md).
   */
  fencedAt(code: number): boolean {
    return this.state.kind === 'outside' && this.output.inFenceAt(code)
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
    const guard = this.#guard
    if (guard !== undefined) {
      if (this.output.stopped) {
        this.output.emitText(text)
        return 'handled'
      }
      if (this.state.kind === 'outside') guard.reset()
      else if (guard.tag(tag.text)) {
        this.#stop(`one tag repeated (${JSON.stringify(tag.text.slice(0, 80))})`)
        this.output.emitText(text)
        return 'handled'
      }
    }
    const streaming = this.#streaming
    if (streaming === undefined) return this.#dispatch(tag, text)
    const before = this.state
    const handled = this.#dispatch(tag, text)
    if (this.state !== before) streaming.observe(before, this.state, this.#documentation)
    return handled
  }

  /** The tag to the current state's transition, and on to the next state's while one ends without using it. */
  #dispatch(tag: Tag, text: string): 'handled' | 'fenced' | 'code-span' {
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
          this.state = this.markup.release()
          continue
        }
        if (confirms && this.#inCodeSpanIfReleased(tag)) {
          // The candidate's text left a backtick run open: the tag may be documentation, decided where it starts.
          this.state = this.markup.release()
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
    return !this.#documentation && this.output.fences.codeSpanOpenAt(tag.text.charCodeAt(0))
  }

  /**
   * Would the tag start where a code span may be open, were the candidate it
   * confirms released as text? A clone of the tracker reads the candidate's
   * held text (at most `eagerStopChars`, a character at a time as every
   * clone does); the pending partial tags before the tag hold no backtick.
   */
  #inCodeSpanIfReleased(tag: Tag): boolean {
    if (this.#documentation) return false
    const fences = this.output.fences
    if (!fences.codeSpanOpenAt(tag.text.charCodeAt(0)) && !this.markup.holdsBacktick()) return false
    const released = fences.clone()
    released.track(this.markup.heldText())
    return released.codeSpanOpenAt(tag.text.charCodeAt(0))
  }

  /** A drifted marker word read as the marker (once per region): informational, nothing removed. */
  #reportDrift(state: State, tag: Tag): void {
    if (state.kind !== 'outside') {
      if (state.region.driftReported) return
      state.region.driftReported = true
    }
    this.output.diagnose('drifted-markup', '', `DSML marker word drifted to "${tag.word}"; read by its shape as the marker of the markup it stands in`)
  }

  /** Eager stop: a candidate with no DSML marker, or a lone block opener with only text after it. */
  giveUp(): void {
    const state = this.state
    if (state.kind === 'outside') return
    if (!state.region.confirmed) this.state = this.markup.release()
    else if (state.kind === 'lone-block') this.state = this.markup.resolveLoneBlock(state.region)
  }

  /**
   * The runaway guard tripped: what is held ends as at the end of input, and
   * the engine stops (`Output.stop`): everything after is removed.
   */
  #stop(what: string): void {
    this.endOfInput()
    this.output.diagnose('runaway-markup', '', `Runaway markup: ${what} past runawayRepeat (${this.#resolved.runawayRepeat}); the engine stopped, and removes the rest`)
    this.output.stop()
  }

  /** End of input: what every state means (unclosed blocks: the policy, docs/accepts-and-policy.md). */
  endOfInput(): void {
    const state = this.state
    const markup = this.markup
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

  /** The current state's transition for `tag` (one per state group). False: the state ended without using the tag. */
  #transition(state: State, tag: Tag, meaning: TagMeaning, text: string): boolean {
    switch (state.kind) {
      case 'outside':
        outsideTag(this, tag, meaning, text)
        return true
      case 'lone-block':
      case 'block':
        blockTag(this, state, tag, meaning, text)
        return true
      case 'name-element':
        return nameElementTag(this, state, tag, text)
      case 'invoke':
      case 'wrapped-tool':
        return invokeTag(this, state, tag, meaning, text)
      case 'tool-name-tag':
        return toolNameTag(this, state, tag, meaning, text)
      case 'parameter':
      case 'orphan-parameter':
        return parameterTag(this, state, tag, meaning, text)
      case 'special-calls':
        this.state = specialCallsTag(this.markup, state, tag, text)
        return true
      case 'special-call':
        // A tag that is no special token is part of the call's text (its JSON may hold markup-like strings).
        if (tag.special) this.state = specialCallTag(this.markup, state, tag, text)
        else this.consumeText(text)
        return true
      default:
        return state satisfies never
    }
  }
}
