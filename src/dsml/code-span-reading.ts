/**
 * `CodeSpanReading`: what the scanner does where a tag stands where an
 * inline code span may be open (`Structure.handleTag` says `code-span`).
 * Whether the tag is in a span is known from the runs of the text a gate
 * held, when that is the text being read and they answer there; otherwise a
 * `CodeSpanGate` holds the text from the tag's start until it is known.
 * Then a span comes out as it is (`code`), or its content is read again as
 * documentation (`documentation`); text in no span is read again as usual,
 * the runs before it now literal backticks. What is read again is queued
 * (`ReadQueue`); reading a text goes on where this says, or (-1) from the
 * queue.
 *
 * Only a tag is asked, never text: where tags start does not depend on how
 * the text was split, so neither does what a gate holds, up to its cap.
 */
import { CodeSpanGate, type HeldRuns } from './code-span-gate.ts'
import { BACKTICK } from './code-spans.ts'
import type { Output } from './output.ts'
import type { QueuedText, ReadQueue } from './read-queue.ts'
import type { Structure } from './structure.ts'

export class CodeSpanReading {
  #gate: CodeSpanGate
  #structure: Structure
  #output: Output
  #queue: ReadQueue

  constructor(structure: Structure, output: Output, queue: ReadQueue, maxGateChars: number) {
    this.#gate = new CodeSpanGate(maxGateChars)
    this.#structure = structure
    this.#output = output
    this.#queue = queue
  }

  /** A gate holds text until it knows whether a tag is in a span. */
  get holding(): boolean {
    return this.#gate.holding
  }

  /** Characters the gate holds. */
  get heldChars(): number {
    return this.#gate.heldChars
  }

  /**
   * A tag read from `text[start]` (-1: begun in an earlier text) up to
   * `index`, after the pending partial tags `prefix`, stands where a code
   * span may be open: is it in one? Undefined when it is not in a span (the
   * tag is read as usual); else where reading `text` goes on (the tag's
   * start, where a gate now holds it), or -1 when a re-read was queued.
   */
  atTag(prefix: string, tagText: string, start: number, text: string, index: number): number | undefined {
    const fences = this.#output.fences
    const context = this.#structure.context()
    const runs = this.#queue.runs
    if (runs !== undefined && start !== -1 && prefix.length === 0 && start < runs.answersBefore) {
      const spanEnd = runs.closerAfter(start, fences.codeSpanLengthsAt(tagText.charCodeAt(0)))
      if (spanEnd !== -1) return this.#spanFound(runs.judge(spanEnd, context), text, start, spanEnd, runs, undefined)
      fences.clearCodeSpans()
      return undefined
    }
    this.#gate.begin(fences, context)
    // Read again from the tag's start (its partial tags before it first), through the gate.
    if (prefix.length === 0 && start !== -1) return start
    this.#queue.first({ text: prefix + tagText, start: 0, documentation: false, runs: undefined }, this.#queue.rest(text, index))
    return -1
  }

  /** Text held at the gate, from `index`. Returns where reading goes on, or -1 when a re-read was queued. */
  read(text: string, index: number): number {
    const stop = this.#gate.read(text, index)
    return this.#gate.decision === 'none' ? stop : this.#decided(text, stop)
  }

  /** The text ends (or is interrupted) while the gate holds: it decides, and what it held is queued (then nothing: an empty text). */
  finish(): void {
    this.#gate.finish()
    this.#decided('', 0)
  }

  /**
   * The gate decided: a code span comes out as it is, or is read as
   * documentation; text not in one is read again as usual, the runs before
   * it now literal backticks; then `text` from `stop`. Returns where reading
   * `text` goes on, or -1 when the re-read was queued.
   */
  #decided(text: string, stop: number): number {
    const gate = this.#gate
    const decision = gate.decision
    const spanEnd = gate.spanEnd
    const { held, runs } = gate.take()
    const then = this.#queue.rest(text, stop)
    if (decision === 'code' || decision === 'documentation') return this.#spanFound(decision, held, 0, spanEnd, runs, then)
    this.#output.fences.clearCodeSpans()
    this.#queue.first({ text: held, start: 0, documentation: false, runs }, then)
    return -1
  }

  /**
   * A code span in `spanText` from `start` to `spanEnd` (its closing run's
   * end): emitted as it is (`code`); or (`documentation`) its content read as
   * documentation, then its closing run as usual text. Reading then goes on
   * in `spanText` after it, with `runs` for its places, then at `then` when
   * `spanText` is a gate's held text (undefined: it is the text being read).
   * Returns where reading the text being read goes on, or -1 when what
   * remains was queued.
   */
  #spanFound(decision: 'code' | 'documentation', spanText: string, start: number, spanEnd: number, runs: HeldRuns | undefined, then: QueuedText | undefined): number {
    let resume = spanEnd
    const queued: QueuedText[] = []
    if (decision === 'code') {
      // The span, as it is (a range of its text).
      this.#output.emitRange(spanText, start, spanEnd)
      if (then === undefined) return spanEnd
    } else {
      resume = closingRunStart(spanText, start, spanEnd)
      queued.push({ text: spanText.slice(start, resume), start: 0, documentation: true, runs: undefined })
    }
    if (resume < spanText.length) queued.push({ text: spanText, start: resume, documentation: false, runs })
    if (then !== undefined) queued.push(then)
    this.#queue.first(...queued)
    return -1
  }
}

/** Where the backtick run ending at `end` in `text` (not before `start`) begins. */
function closingRunStart(text: string, start: number, end: number): number {
  let at = end
  while (at > start && text.charCodeAt(at - 1) === BACKTICK) at--
  return at
}
