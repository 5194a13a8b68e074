/**
 * `PendingTags`: the partial tags the scanner holds. A partial tag cut short
 * by the start of another tag (`<‹` then `<‹DSML›…`) is held; its fate follows
 * that next tag: removed with it if it is markup (the scanner `take`s the
 * chain and hands it over with the tag), released as text if it is text. So
 * removing markup can never join the text on its two sides into a marker.
 * The chain is capped (`maxPendingChars`); past the cap it is removed and
 * reported, never released, for the same reason.
 *
 * A chain of `<` is one piece per tag, so it is kept flat in a `TextBuilder`
 * (a `+=` chain would keep one string per tag alive in every diagnostic it
 * ends in).
 */
import type { Output } from './output.ts'
import type { Structure } from './structure.ts'
import { TextBuilder } from '../text-builder.ts'

export class PendingTags {
  #chain = new TextBuilder()
  #structure: Structure
  #output: Output
  #maxPendingChars: number

  constructor(structure: Structure, output: Output, maxPendingChars: number) {
    this.#structure = structure
    this.#output = output
    this.#maxPendingChars = maxPendingChars
  }

  /** Characters held. */
  get length(): number {
    return this.#chain.length
  }

  /** Holds one more partial tag; past the cap the whole chain is removed and reported (or consumed inside markup). */
  add(tagText: string): void {
    const chain = this.#chain
    chain.append(tagText)
    if (chain.length <= this.#maxPendingChars) return
    // Past the cap the chain is removed, never released: released, its tail
    // could join the text after the next tag into a marker.
    const structure = this.#structure
    const removed = chain.take()
    structure.giveUp()
    if (structure.producesText()) {
      this.#output.diagnose('hold-limit', removed, `Partial DSML tags passed maxHoldChars (${this.#maxPendingChars} for this chain); removed and reported`)
    } else {
      structure.consumeText(removed)
    }
  }

  /**
   * `text` from `start` to `end`, every character a `<`, as that many
   * one-character partial tags added in turn (`add`): the chain passes the
   * cap exactly where one added at a time would.
   */
  addLessThans(text: string, start: number, end: number): void {
    for (let at = start; at < end; ) {
      const next = Math.min(end, at + this.#maxPendingChars + 1 - this.#chain.length)
      this.add(text.slice(at, next))
      at = next
    }
  }

  /** The chain, taken to go with the tag that decided it (empty when none is held). */
  take(): string {
    return this.#chain.take()
  }

  /** The chain released as text: the tag after it was not markup. */
  release(): void {
    if (this.#chain.length === 0) return
    this.#structure.consumeText(this.#chain.take())
  }
}
