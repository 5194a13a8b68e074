/**
 * `CodeSpans`: CommonMark inline code spans in the paragraph being read.
 * Markup in a code span is documentation, as in a fenced block (the policy,
 * docs/accepts-and-policy.md): `` Example: `<‹DSML›tool_calls>…` `` runs nothing and stays readable.
 *
 * A backtick run opens a code span only if a run of the same length closes it
 * later in the same paragraph; until then it is *unmatched*. Read left to
 * right, a run of a length some unmatched run has closes the first such run
 * (every run after it was inside that span); any other run is unmatched in
 * turn. Inside a span a backslash is literal, so only an opening run can be
 * escaped: `` \` `` leaves one backtick fewer to open. So whether a place is
 * in a code span is known only ahead of it: it is, exactly when a run
 * unmatched there is closed before the paragraph ends. Its span is that of
 * the first such run that closes: a run closing a later one first ends a
 * span inside it, and only the first unmatched run closing, or the
 * paragraph's end, settles where the place's span ends. `FenceTracker` feeds
 * this the inline text of paragraphs (and headings) and says where a
 * paragraph ends; a *watch* reports, from a place on, each run that closes
 * the place's span so far, and whether the paragraph ended first (the
 * `CodeSpanGate` of the scanner's `CodeSpanReading`).
 * @see https://spec.commonmark.org/0.31.2/#code-spans
 */

import { Positions, SHORT_SEARCH } from './positions.ts'

/** A backtick: runs of them open and close code spans (and fences, `fence-tracker.ts`). */
export const BACKTICK = 0x60
/** A backslash: outside code, it escapes the character after it. */
export const BACKSLASH = 0x5c

/** What settled a watch: nothing yet (`open`), the first run unmatched at the place closing, or the paragraph's end (then every run of the paragraph was read). */
export type CodeSpanSettlement = 'open' | 'first-run-closed' | 'paragraph-ended'

export class CodeSpans {
  /**
   * Lengths of the unmatched runs, in order, each once: a run of a length
   * already unmatched is never the one a later run closes (that closes the
   * earlier, and every run after it was inside its span), so it is not kept.
   */
  #unmatched: number[] = []
  /** Backticks of the run being read (0: none). */
  #run = 0
  /** The run being read began right after an odd number of backslashes. */
  #runEscaped = false
  /** Backslashes right before the next character. */
  #backslashes = 0
  /** The run being read is literal backticks: when it ends, it neither closes nor opens a span (`clearUnmatched`). */
  #runLiteral = false
  #watch: 'off' | 'pending' | 'on' = 'off'
  /** Unmatched runs at the watched place. */
  #baseline = 0
  /** Runs read since the watched place, until the watch settled (the one the place stood in not counted). */
  watchedRuns = 0
  /** A run closing the watched place's span (so far) ended at the character just read; the watch's reader clears it. */
  spanClosed = false
  /** Where the watched place's span ends is known: its first unmatched run closed, or the paragraph ended (`open`: not yet). */
  settlement: CodeSpanSettlement = 'open'
  /** Where the next backticks are in the texts read (lines of one long text come in order). */
  #backticks: Positions | undefined

  /**
   * Would a place right after what was read be in a code span, if a run
   * unmatched there is closed later? The run being read ends there (or, at
   * the start of a line, the `run` backticks the fence tracker read first).
   */
  openAfter(run = 0): boolean {
    const length = this.#endingRun(run)
    if (length === 0) return this.#unmatched.length > 0
    const closes = this.#unmatched.indexOf(length)
    return closes !== -1 ? closes > 0 : this.#unmatched.length > 0 || this.#openerLength(run, length) > 0
  }

  /** The lengths of the runs unmatched at such a place (see `openAfter`), in order. */
  unmatchedAfter(run = 0): number[] {
    const length = this.#endingRun(run)
    if (length === 0) return [...this.#unmatched]
    const closes = this.#unmatched.indexOf(length)
    if (closes !== -1) return this.#unmatched.slice(0, closes)
    const opener = this.#openerLength(run, length)
    return opener === 0 || this.#unmatched.includes(opener) ? [...this.#unmatched] : [...this.#unmatched, opener]
  }

  /** The length of the run that ends at the place asked about (`openAfter`): 0 for none, or one made literal. */
  #endingRun(run: number): number {
    if (run > 0) return run
    return this.#runLiteral ? 0 : this.#run
  }

  #escaped(run: number): boolean {
    return run > 0 ? this.#backslashes % 2 === 1 : this.#runEscaped
  }

  /** The length of the span the run ending there opens when it closes nothing: a backtick fewer when escaped (0: none). */
  #openerLength(run: number, length: number): number {
    return this.#escaped(run) ? length - 1 : length
  }

  /** No run being read, no backslash just before: text with no backtick, backslash or line break leaves this as it is. */
  get quiet(): boolean {
    return this.#run === 0 && this.#backslashes === 0
  }

  /** One inline character. */
  step(code: number): void {
    if (code === BACKTICK) {
      if (this.#run === 0) {
        this.#runEscaped = this.#backslashes % 2 === 1
        this.#backslashes = 0
      }
      this.#run++
      return
    }
    if (this.#run > 0) this.#endRun()
    this.#backslashes = code === BACKSLASH ? this.#backslashes + 1 : 0
  }

  /** Inline characters that are neither backticks nor backslashes (the fence tracker read them first). */
  other(): void {
    if (this.#run > 0) this.#endRun()
    this.#backslashes = 0
  }

  /** `length` backticks read as one run at the start of a line's content (the fence tracker read them first); `literal`: made so before. */
  run(length: number, literal = false): void {
    for (let count = 0; count < length; count++) this.step(BACKTICK)
    if (literal && length > 0) this.#runLiteral = true
  }

  /**
   * Inline characters of one line, `text` from `start` to `end` (no line
   * break among them), backticks found by search. Not watching: a watch
   * reads a character at a time (`step`), so that it stops where it decides.
   */
  scan(text: string, start: number, end: number): void {
    let index = start
    while (index < end) {
      if (this.#run > 0) {
        while (index < end && text.charCodeAt(index) === BACKTICK) {
          this.#run++
          index++
        }
        if (index === end) return
        this.#endRun()
      }
      const next = this.#nextBacktick(text, index, end)
      const stop = next === -1 || next >= end ? end : next
      this.#countBackslashes(text, index, stop)
      if (stop === end) return
      this.#runEscaped = this.#backslashes % 2 === 1
      this.#backslashes = 0
      this.#run = 1
      index = stop + 1
    }
  }

  /** A line break: it ends a run, and no backslash escapes across it (the paragraph may go on). */
  endLine(): void {
    if (this.#run > 0) this.#endRun()
    this.#backslashes = 0
  }

  /** `text` was read to its end and is not read again: what was found in it is dropped (`Positions.forget`). */
  forgetText(text: string): void {
    this.#backticks?.forget(text)
  }

  /** The paragraph ended (or a block began): its unmatched runs are literal backticks. */
  reset(): void {
    this.#clear()
    if (this.#watch !== 'off') this.#paragraphEnded()
  }

  /**
   * A paragraph (or heading) begins. A watch waiting for the run that begins
   * it (the watched place is in its first run's line) goes on; any other
   * watch saw its paragraph end.
   */
  startParagraph(): void {
    this.#clear()
    if (this.#watch === 'on') this.#paragraphEnded()
  }

  /** The watched place's paragraph ended: with no run closed, the place was not in a span; else its span ends where the last such run closed. */
  #paragraphEnded(): void {
    if (this.settlement === 'open') this.settlement = 'paragraph-ended'
  }

  #clear(): void {
    this.#run = 0
    this.#backslashes = 0
    if (this.#unmatched.length !== 0) this.#unmatched.length = 0
    this.#runLiteral = false
  }

  /**
   * The runs unmatched so far (the one being read too) are literal backticks:
   * a closer for none of them comes before the paragraph ends (a code-span
   * gate found none). Runs after them open and close spans as usual.
   */
  clearUnmatched(): void {
    if (this.#unmatched.length !== 0) this.#unmatched.length = 0
    if (this.#run > 0) this.#runLiteral = true
  }

  /**
   * Watch from here: once the run being read ends, which runs are unmatched
   * is the baseline. `runAhead`: the run that ends here has not been read yet
   * (the fence tracker holds it at the start of a line).
   */
  watch(runAhead = false): void {
    this.spanClosed = false
    this.settlement = 'open'
    this.watchedRuns = 0
    if (this.#run > 0 || runAhead) this.#watch = 'pending'
    else {
      this.#watch = 'on'
      this.#baseline = this.#unmatched.length
    }
  }

  clone(): CodeSpans {
    const copy = new CodeSpans()
    copy.#unmatched = [...this.#unmatched]
    copy.#run = this.#run
    copy.#runEscaped = this.#runEscaped
    copy.#backslashes = this.#backslashes
    copy.#runLiteral = this.#runLiteral
    return copy
  }

  /** The next backtick at or after `from` (and before `end`, in a short text), or -1. */
  #nextBacktick(text: string, from: number, end: number): number {
    if (text.length <= SHORT_SEARCH) {
      for (let index = from; index < end; index++) if (text.charCodeAt(index) === BACKTICK) return index
      return -1
    }
    const at = (this.#backticks ??= new Positions(['`'])).first(text, from)
    return at === text.length ? -1 : at
  }

  #countBackslashes(text: string, from: number, to: number): void {
    let at = to - 1
    while (at >= from && text.charCodeAt(at) === BACKSLASH) at--
    const trailing = to - 1 - at
    this.#backslashes = at < from ? this.#backslashes + trailing : trailing
  }

  #endRun(): void {
    const length = this.#run
    this.#run = 0
    const literal = this.#runLiteral
    this.#runLiteral = false
    if (this.#watch === 'on' && this.settlement === 'open') this.watchedRuns++
    if (!literal) {
      const closes = this.#unmatched.indexOf(length)
      if (closes !== -1) {
        this.#unmatched.length = closes
        if (this.#watch === 'on' && closes < this.#baseline) {
          // The place is in a span ending here, unless a run unmatched before this one closes later.
          this.spanClosed = true
          this.#baseline = closes
          if (closes === 0) this.settlement = 'first-run-closed'
        }
      } else {
        const opener = this.#runEscaped ? length - 1 : length
        if (opener > 0 && !this.#unmatched.includes(opener)) this.#unmatched.push(opener)
      }
    }
    if (this.#watch === 'pending') {
      this.#watch = 'on'
      this.#baseline = this.#unmatched.length
    }
  }
}
