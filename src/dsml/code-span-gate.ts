/**
 * `CodeSpanGate`: where a tag starts after a backtick run that may open an
 * inline code span (`FenceTracker.codeSpanOpenAt`), whether it is markup or
 * documentation is known only ahead: it is in a code span exactly when a run
 * closes one of those runs before the paragraph ends (`code-spans.ts`). The
 * gate holds the text from there, read by a clone of the fence tracker that
 * watches, until one of the two comes first, the text ends, or the hold cap
 * is reached (then it is read as not in a span). The scanner emits held text
 * that was in a span as it is, and reads any other again as usual.
 *
 * The watch decides at the character it depends on, so where the text was
 * split never matters; each character is held once and read again at most once.
 */
import type { CodeSpanDecision } from './code-spans.ts'
import type { FenceTracker } from './fence-tracker.ts'
import { TextBuilder } from '../text-builder.ts'

export class CodeSpanGate {
  #cap: number
  /** The clone of the fence tracker reading ahead; undefined when not holding. */
  #tracker: FenceTracker | undefined
  #held = new TextBuilder()
  #decision: CodeSpanDecision = 'none'

  constructor(cap: number) {
    this.#cap = cap
  }

  get holding(): boolean {
    return this.#tracker !== undefined
  }

  get heldChars(): number {
    return this.#held.length
  }

  /** Decided: `code` (the held text is in a code span) or `text` (read it as usual); `none` while it holds on. */
  get decision(): CodeSpanDecision {
    return this.#decision
  }

  /** Begins holding where a tag starts, with the emitted text's tracker as it stands there. */
  begin(fences: FenceTracker): void {
    this.#tracker = fences.clone()
    this.#tracker.watchCodeSpan()
    this.#decision = 'none'
  }

  /** Holds `text` from `from` until the watch decides or the cap is reached. Returns where it stopped. */
  read(text: string, from: number): number {
    const tracker = this.#tracker!
    const end = Math.min(text.length, from + this.#cap - this.#held.length)
    const stop = tracker.track(text, from, end)
    this.#held.append(text.slice(from, stop))
    this.#decision = tracker.codeSpanDecision
    // At the cap, no closing run came: read as not in a span.
    if (this.#decision === 'none' && this.#held.length >= this.#cap) this.#decision = 'text'
    return stop
  }

  /** The text ends: a run at its end may still close the span. */
  finish(): void {
    const tracker = this.#tracker!
    if (this.#decision === 'none') {
      tracker.endOfText()
      this.#decision = tracker.codeSpanDecision === 'code' ? 'code' : 'text'
    }
  }

  /** The held text, once decided; the gate holds nothing after. */
  take(): string {
    this.#tracker = undefined
    return this.#held.take()
  }
}
