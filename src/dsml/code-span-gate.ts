/**
 * `CodeSpanGate`: where a tag starts after a backtick run that may open an
 * inline code span (`FenceTracker.codeSpanOpenAt`), whether it is markup or
 * documentation is known only ahead: it is in a code span exactly when a run
 * closes one of those runs before the paragraph ends, and the span ends
 * where the first of them closes (`code-spans.ts`). The gate holds the text
 * from the tag's start, read by a clone of the fence tracker that watches,
 * until where the span ends is settled (or that there is none: the
 * paragraph ended first), the text ends, or the hold cap is reached.
 *
 * - **In a span** (`code`): the held text up to the span's closing run is
 *   emitted as it is (`CodeSpanReading`). Where the gate began does not
 *   change that run.
 * - **Not in a span** (`text`): the runs unmatched there are literal
 *   backticks, and the held text is read again as usual.
 * - **Documentation** (`documentation`): a closing run right before a tag
 *   that may be markup is trusted only so far: removing that markup could
 *   join the run with backticks after it, and a reader would not see the span
 *   close there. The held text up to the run is read again with its markup
 *   removed and no call made from it (`Structure.documentation`), what it
 *   opened ending with it, and the run is read as usual after: neither a
 *   marker shown outside code nor a call run from an example.
 * - **The cap**: unsettled when only the characters to judge a run would
 *   still fit in `maxHoldChars`, the gate reads its place as in the span of
 *   the last run that closed one unmatched there, if any (a run closing an
 *   earlier one could only make that span longer); else as not in a span. In
 *   both, every run it read that no run closed by then is literal.
 *
 * When the gate read its paragraph to the end (or the text to its end), or to
 * the cap, it keeps where the runs in what it held are (`HeldRuns`): a tag at
 * a later place in it is decided from them, and no gate holds the same text
 * again (but for the few characters read after a closing run to judge it).
 * The watch decides at the characters it depends on, and the gate begins
 * only where a tag was read, so where the text was split never matters, at
 * the cap too.
 */
import { BACKTICK } from './code-spans.ts'
import type { FenceTracker } from './fence-tracker.ts'
import { isBar, isLineBreak, LESS_THAN } from './grammar.ts'
import type { TagContext } from './markup-starts.ts'
import { TAG_START_DECIDED_WITHIN, tagStartAhead } from './partial-tags.ts'
import { TextBuilder } from '../text-builder.ts'

/** What the gate decided (see the file's doc); `none` while it holds on. */
export type GateDecision = 'none' | 'code' | 'text' | 'documentation'

/** Characters after a closing run that decide whether it stands: as many as decide a tag start there. */
const AFTER_RUN = TAG_START_DECIDED_WITHIN

export class CodeSpanGate {
  #cap: number
  /** The clone of the fence tracker reading ahead; undefined when not holding. */
  #tracker: FenceTracker | undefined
  #context: TagContext | undefined
  #held = new TextBuilder()
  /** Where the last run closing the span ended in the held text (-1: none yet); the characters after it are read to judge it. */
  #runEnd = -1
  /** Those characters, once the span's end is settled (up to `AFTER_RUN`). */
  #afterRun = ''
  /** Where the span ends is known: only the characters after its run are read. */
  #settled = false
  /** The held places its runs answer for end here (-1: none; see `take`). */
  #answersBefore = -1
  /** The text ended (or was interrupted) where the held text ends: nothing follows its last run. */
  #textEnded = false
  #decision: GateDecision = 'none'

  constructor(cap: number) {
    this.#cap = cap
  }

  get holding(): boolean {
    return this.#tracker !== undefined
  }

  get heldChars(): number {
    return this.#held.length
  }

  get decision(): GateDecision {
    return this.#decision
  }

  /** Where the code span ends in the held text (a `code` or `documentation` decision): what follows it is read as usual. */
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
    this.#settled = false
    this.#answersBefore = -1
    this.#textEnded = false
  }

  /** Holds `text` from `from` until the watch decides or the cap is reached. Returns where it stopped. */
  read(text: string, from: number): number {
    let index = from
    while (index < text.length && this.#decision === 'none') {
      if (this.#settled) {
        // The span's end is known: only the characters that judge its closing run are read.
        const stop = Math.min(text.length, index + AFTER_RUN - this.#afterRun.length)
        this.#held.append(text.slice(index, stop))
        this.#afterRun += text.slice(index, stop)
        index = stop
        this.#judge(false)
        continue
      }
      const tracker = this.#tracker!
      // Room is kept for the characters that judge a closing run, so the gate never holds more than its cap.
      const room = this.#cap - AFTER_RUN - this.#held.length
      if (room <= 0) {
        // At the cap, unsettled: every run read with no closer by then is literal, and its runs answer for every place held.
        this.#answersBefore = this.#held.length
        this.#settle()
        continue
      }
      const stop = tracker.track(text, index, Math.min(text.length, index + room))
      this.#held.append(text.slice(index, stop))
      index = stop
      const back = tracker.takeCodeSpanClose()
      // The run ended before the last character read (usually right before it).
      if (back !== -1) this.#runEnd = this.#held.length - 1 - back
      if (tracker.codeSpanSettlement === 'paragraph-ended') this.#answersBefore = this.#paragraphEnd()
      if (tracker.codeSpanSettlement !== 'open') this.#settle()
    }
    return index
  }

  /**
   * The text ends, or is interrupted (then what is held is decided as if it
   * ended there): a run at its end may still close the span, and nothing
   * after the run can be markup.
   */
  finish(): void {
    if (this.#decision !== 'none') return
    this.#textEnded = true
    if (!this.#settled) {
      const tracker = this.#tracker!
      tracker.endOfText()
      if (tracker.takeCodeSpanClose() !== -1) this.#runEnd = this.#held.length
      // The text's end ended the paragraph: the runs answer for every place held.
      this.#answersBefore = this.#held.length
      this.#settle()
    }
    this.#judge(true)
  }

  /**
   * Where the span ends is known, or the cap stops the watch: with no
   * closing run, the place is not in a span; with one, it is, and the run
   * is judged once the characters after it are read.
   */
  #settle(): void {
    this.#settled = true
    if (this.#runEnd === -1) {
      this.#decision = 'text'
      return
    }
    this.#afterRun = this.#held.toString().slice(this.#runEnd, this.#runEnd + AFTER_RUN)
    this.#judge(false)
  }

  #judge(textEnded: boolean): void {
    if (this.#decision !== 'none') return
    const verdict = judgeRun(this.#afterRun, this.#context!, textEnded)
    if (verdict !== undefined) this.#decision = verdict
  }

  /**
   * The last character held ended the paragraph: it ended where that
   * character's line began (a line break ends the line it closes; a `\n`
   * after a `\r` decides nothing).
   */
  #paragraphEnd(): number {
    const held = this.#held.toString()
    let lineStart = held.length - 1
    while (lineStart > 0 && !isLineBreak(held.charCodeAt(lineStart - 1))) lineStart--
    return Math.max(lineStart, 0)
  }

  /**
   * The held text, once decided, and where its runs are when they answer
   * for the places it holds (`HeldRuns`): the watch read its paragraph to the
   * end, or stopped at the cap. The gate holds nothing after.
   */
  take(): { held: string; runs: HeldRuns | undefined } {
    const watchedRuns = this.#tracker!.watchedRuns
    this.#tracker = undefined
    const held = this.#held.take()
    const answersBefore = this.#answersBefore
    this.#answersBefore = -1
    // The runs the watch read (inline text all of them): the first that many of the held text.
    return { held, runs: answersBefore === -1 ? undefined : new HeldRuns(held, watchedRuns, answersBefore, this.#textEnded) }
  }
}

/**
 * A closing run stands (`code`) if what follows it stays in the output: a
 * character that starts no tag, or a tag start the grammar reads as text
 * (`tagStartAhead`). Before one that may be markup it is `documentation`
 * (see the file's doc). Undefined while the characters read do not tell yet;
 * where the text ended, a tag cannot complete after the run.
 */
function judgeRun(after: string, context: TagContext, textEnded: boolean): 'code' | 'documentation' | undefined {
  if (after.length === 0) return textEnded ? 'code' : undefined
  const first = after.charCodeAt(0)
  if (first !== LESS_THAN && !isBar(first)) return 'code'
  const ahead = tagStartAhead(after, 0, context)
  if (ahead === 'undecided') return textEnded ? 'code' : undefined
  return ahead === 'text' ? 'code' : 'documentation'
}

/**
 * The backtick runs of the text a gate held, by length, up to where the gate
 * read every run (its paragraph's end, or its cap; every run in it is inline
 * text). A place in it is in a span when a run unmatched there is closed in
 * it: the first such run (`closerAfter`); a run it does not close is literal.
 */
export class HeldRuns {
  readonly text: string
  /** The places the runs answer for are before this one. */
  readonly answersBefore: number
  /** Nothing follows `text`: the text ended (or was interrupted) there. */
  readonly textEnded: boolean
  /** Per run length, where such runs start, in order. */
  #starts = new Map<number, number[]>()

  /** The first `count` runs of `text`, answering for places before `answersBefore`; `textEnded` when nothing follows `text`. */
  constructor(text: string, count: number, answersBefore: number, textEnded: boolean) {
    this.text = text
    this.answersBefore = answersBefore
    this.textEnded = textEnded
    for (let at = text.indexOf('`'), seen = 0; at !== -1 && seen < count; seen++) {
      let end = at + 1
      while (end < text.length && text.charCodeAt(end) === BACKTICK) end++
      const length = end - at
      let starts = this.#starts.get(length)
      if (starts === undefined) this.#starts.set(length, (starts = []))
      starts.push(at)
      at = text.indexOf('`', end)
    }
  }

  /**
   * The end of the span a place after `from` is in, where `lengths` are the
   * runs unmatched there, in order: the first of them a run closes (a later
   * one closing first ends a span inside it), at the first run of its length
   * after `from`. -1 when none closes.
   */
  closerAfter(from: number, lengths: readonly number[]): number {
    for (const length of lengths) {
      const starts = this.#starts.get(length)
      if (starts === undefined) continue
      // The first start after `from` (binary search).
      let low = 0
      let high = starts.length
      while (low < high) {
        const middle = (low + high) >> 1
        if (starts[middle]! <= from) low = middle + 1
        else high = middle
      }
      if (low < starts.length) return starts[low]! + length
    }
    return -1
  }

  /**
   * How a closing run ending at `end` is judged, by the characters after it
   * (see `CodeSpanGate`), as the gate judged its own: where the text ended,
   * a tag cannot complete after the run. Where the text goes on past `text`
   * (e.g. the gate stopped at its cap) and they do not tell, as documentation.
   */
  judge(end: number, context: TagContext): 'code' | 'documentation' {
    return judgeRun(this.text.slice(end, end + AFTER_RUN), context, this.textEnded) ?? 'documentation'
  }
}
