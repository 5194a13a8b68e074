/**
 * `CodeSpans`: CommonMark inline code spans in the paragraph being read.
 * Markup in a code span is documentation, as in a fenced block (DESIGN.md
 * §5.4): `` Example: `<‹DSML›tool_calls>…` `` runs nothing and stays readable.
 *
 * A backtick run opens a code span only if a run of the same length closes it
 * later in the same paragraph; until then it is *unmatched*. Read left to
 * right, a run of a length some unmatched run has closes the first such run
 * (every run after it was inside that span); any other run is unmatched in
 * turn. Inside a span a backslash is literal, so only an opening run can be
 * escaped: `` \` `` leaves one backtick fewer to open. So whether a place is
 * in a code span is known only ahead of it: it is, exactly when a run
 * unmatched there is closed before the paragraph ends. `FenceTracker` feeds
 * this the inline text of paragraphs (and headings) and says where a
 * paragraph ends; a *watch* reports which of the two comes first from a
 * place on (the scanner's `CodeSpanGate`).
 * @see https://spec.commonmark.org/0.31.2/#code-spans
 */

import { Positions, SHORT_SEARCH } from './positions.ts'

const BACKTICK = 0x60
const BACKSLASH = 0x5c

/** What a watch found: nothing yet, a run unmatched at the watched place closed (`code`), or the paragraph ended first (`text`). */
export type CodeSpanDecision = 'none' | 'code' | 'text'

export class CodeSpans {
  /** Lengths of the unmatched runs, in order. */
  #unmatched: number[] = []
  /** Backticks of the run being read (0: none). */
  #run = 0
  /** The run being read began right after an odd number of backslashes. */
  #runEscaped = false
  /** Backslashes right before the next character. */
  #backslashes = 0
  /** Unmatched runs are read as literal backticks until the paragraph ends (`markLiteral`). */
  #literal = false
  #watch: 'off' | 'pending' | 'on' = 'off'
  /** Unmatched runs at the watched place. */
  #baseline = 0
  decision: CodeSpanDecision = 'none'
  /** Where the next backticks are in the texts read (lines of one long text come in order). */
  #backticks: Positions | undefined

  /**
   * Would a place right after what was read be in a code span, if a run
   * unmatched there is closed later? The run being read ends there (or, at
   * the start of a line, the `run` backticks the fence tracker read first).
   */
  openAfter(run = 0): boolean {
    if (this.#literal) return false
    const length = run > 0 ? run : this.#run
    const escaped = run > 0 ? this.#backslashes % 2 === 1 : this.#runEscaped
    let unmatched = this.#unmatched.length
    if (length > 0) {
      const closes = this.#unmatched.indexOf(length)
      unmatched = closes !== -1 ? closes : escaped && length === 1 ? unmatched : unmatched + 1
    }
    return unmatched > 0
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

  /** `length` backticks read as one run at the start of a line's content (the fence tracker read them first). */
  run(length: number): void {
    for (let count = 0; count < length; count++) this.step(BACKTICK)
  }

  /**
   * Inline characters of one line, `text` from `start` to `end` (no line
   * break among them), backticks found by search. Returns `end`, or where a
   * watch decided: the character that ended the closing run, not read.
   */
  scan(text: string, start: number, end: number): number {
    let index = start
    while (index < end) {
      if (this.#run > 0) {
        while (index < end && text.charCodeAt(index) === BACKTICK) {
          this.#run++
          index++
        }
        if (index === end) return end
        this.#endRun()
        if (this.decision !== 'none') return index
      }
      const next = this.#nextBacktick(text, index, end)
      const stop = next === -1 || next >= end ? end : next
      this.#countBackslashes(text, index, stop)
      if (stop === end) return end
      this.#runEscaped = this.#backslashes % 2 === 1
      this.#backslashes = 0
      this.#run = 1
      index = stop + 1
    }
    return end
  }

  /** A line break: it ends a run, and no backslash escapes across it (the paragraph may go on). */
  endLine(): void {
    if (this.#run > 0) this.#endRun()
    this.#backslashes = 0
  }

  /** The paragraph ended (or a block began): its unmatched runs are literal backticks. */
  reset(): void {
    this.#clear()
    if (this.#watch !== 'off' && this.decision === 'none') this.decision = 'text'
  }

  /**
   * A paragraph (or heading) begins. A watch waiting for the run that begins
   * it (the watched place is in its first run's line) goes on; any other
   * watch saw its paragraph end.
   */
  startParagraph(): void {
    this.#clear()
    if (this.#watch === 'on' && this.decision === 'none') this.decision = 'text'
  }

  #clear(): void {
    this.#run = 0
    this.#backslashes = 0
    if (this.#unmatched.length !== 0) this.#unmatched.length = 0
    this.#literal = false
  }

  /** The runs unmatched so far are literal (the gate decided without their closer): none opens a span until the paragraph ends. */
  markLiteral(): void {
    this.#literal = true
    this.#unmatched.length = 0
  }

  /**
   * Watch from here: once the run being read ends, which runs are unmatched
   * is the baseline. `runAhead`: the run that ends here has not been read yet
   * (the fence tracker holds it at the start of a line).
   */
  watch(runAhead = false): void {
    this.decision = 'none'
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
    copy.#literal = this.#literal
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
    if (!this.#literal) {
      const closes = this.#unmatched.indexOf(length)
      if (closes !== -1) {
        this.#unmatched.length = closes
        if (this.#watch === 'on' && closes < this.#baseline) this.decision = 'code'
      } else {
        const opener = this.#runEscaped ? length - 1 : length
        if (opener > 0) this.#unmatched.push(opener)
      }
    }
    if (this.#watch === 'pending') {
      this.#watch = 'on'
      this.#baseline = this.#unmatched.length
    }
  }
}
