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
 * A closing run is trusted only when what follows it stays in the output: a
 * character that starts no tag, or a tag start the grammar already calls text
 * (`isTextTagStart`). Right before a tag that may be markup, removing that
 * markup could join the run with backticks after it into a longer one, and
 * the span a reader sees would not close there: the held text is then read
 * as not in a span.
 *
 * The watch decides at the characters it depends on, so where the text was
 * split never matters; each character is held once and read again at most once.
 */
import type { CodeSpanDecision } from './code-spans.ts'
import type { FenceTracker } from './fence-tracker.ts'
import { isBar, LESS_THAN } from './grammar.ts'
import type { TagContext } from './markup-starts.ts'
import { isTextTagStart } from './partial-tags.ts'
import { TextBuilder } from '../text-builder.ts'

/** Characters after a closing run that decide whether it stands: a tag start, and up to two more (`</x`). */
const AFTER_RUN = 3

export class CodeSpanGate {
  #cap: number
  /** The clone of the fence tracker reading ahead; undefined when not holding. */
  #tracker: FenceTracker | undefined
  #context: TagContext | undefined
  #held = new TextBuilder()
  /** Where a closing run ended in the held text (-1: none yet); the characters after it are read to judge it. */
  #runEnd = -1
  /** Those characters, as read so far. */
  #afterRun = ''
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

  /** Decided: `code` (the held text up to `spanEnd` is in a code span) or `text` (read it as usual); `none` while it holds on. */
  get decision(): CodeSpanDecision {
    return this.#decision
  }

  /** Where the code span ends in the held text (a `code` decision): what follows it is read as usual. */
  get spanEnd(): number {
    return this.#runEnd
  }

  /** Begins holding where a tag starts (in `context`), with the emitted text's tracker as it stands there. */
  begin(fences: FenceTracker, context: TagContext): void {
    this.#tracker = fences.clone()
    this.#tracker.watchCodeSpan()
    this.#context = context
    this.#decision = 'none'
    this.#runEnd = -1
    this.#afterRun = ''
  }

  /** Holds `text` from `from` until the watch decides or the cap is reached. Returns where it stopped. */
  read(text: string, from: number): number {
    let index = from
    if (this.#runEnd === -1) {
      const tracker = this.#tracker!
      // Room is kept for the characters that judge a closing run, so the gate never holds more than its cap.
      const room = this.#cap - AFTER_RUN - this.#held.length
      index = tracker.track(text, from, Math.min(text.length, from + room))
      this.#held.append(text.slice(from, index))
      const watched = tracker.codeSpanDecision
      if (watched === 'code') this.#runEnd = this.#held.length
      else this.#decision = watched
      // At the cap, no closing run came: read as not in a span.
      if (this.#decision === 'none' && this.#runEnd === -1 && this.#held.length >= this.#cap - AFTER_RUN) this.#decision = 'text'
    }
    if (this.#runEnd !== -1) {
      const take = Math.min(text.length - index, AFTER_RUN - this.#afterRun.length)
      this.#afterRun += text.slice(index, index + take)
      this.#held.append(text.slice(index, index + take))
      index += take
      if (this.#afterRun.length === AFTER_RUN) this.#judgeRun()
    }
    return index
  }

  /** The text ends: a run at its end may still close the span (and nothing after it can be markup). */
  finish(): void {
    if (this.#decision !== 'none') return
    if (this.#runEnd === -1) {
      const tracker = this.#tracker!
      tracker.endOfText()
      if (tracker.codeSpanDecision !== 'code') {
        this.#decision = 'text'
        return
      }
      this.#runEnd = this.#held.length
    }
    this.#judgeRun()
  }

  /** The held text, once decided; the gate holds nothing after. */
  take(): string {
    this.#tracker = undefined
    return this.#held.take()
  }

  /** A closing run stands if what follows it stays in the output (see the file's doc). */
  #judgeRun(): void {
    const after = this.#afterRun
    const first = after.length === 0 ? -1 : after.charCodeAt(0)
    const startsTag = first === LESS_THAN || isBar(first)
    // With fewer characters known (the text ended), a tag cannot complete after the run.
    const stands = !startsTag || after.length < AFTER_RUN || isTextTagStart(after, 0, this.#context!)
    this.#decision = stands ? 'code' : 'text'
  }
}
