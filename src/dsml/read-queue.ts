/**
 * `ReadQueue`: the texts the scanner still has to read, in order — a piece
 * read again (a tag's text from a bar inside it, the text a code-span gate
 * held), then the rest of the text it came from — each with how it is read.
 * Re-reads go through it, never through a nested call. It also knows how
 * the text being read now is read, so that what comes after it is queued
 * the same way (`rest`).
 */
import type { HeldRuns } from './code-span-gate.ts'

export interface QueuedText {
  text: string
  start: number
  /**
   * Read as documentation: its markup removed, no call made from it
   * (`CodeSpanGate`'s `documentation`); what it opened ends with it
   * (`Scanner`'s `#endDocumentation`).
   */
  documentation: boolean
  /** The runs of the text a code-span gate held, when this is that text (`HeldRuns`): they answer for the tags in it. */
  runs: HeldRuns | undefined
}

export class ReadQueue {
  #texts: QueuedText[] = []
  /** The text being read now is read as documentation (see `QueuedText`). */
  documentation = false
  /** The runs of the text being read now, when it is text a code-span gate held (see `QueuedText`). */
  runs: HeldRuns | undefined = undefined

  /** The next text to read, left queued. */
  get next(): QueuedText | undefined {
    return this.#texts[0]
  }

  /** The next text to read, taken off the queue. */
  take(): QueuedText | undefined {
    return this.#texts.shift()
  }

  /** `texts` are read before everything queued, in their order. */
  first(...texts: QueuedText[]): void {
    this.#texts.unshift(...texts)
  }

  /** The text being read, from `start`, to be read as it is now (as documentation or not, with its runs). */
  rest(text: string, start: number): QueuedText {
    return { text, start, documentation: this.documentation, runs: this.runs }
  }

  /** A piece of the text being read (a tag's text, read again), to be read as it is now: its own text, so no runs answer for it. */
  piece(text: string): QueuedText {
    return { text, start: 0, documentation: this.documentation, runs: undefined }
  }
}
