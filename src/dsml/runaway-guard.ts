/**
 * The runaway guard (`runawayRepeat`): a degenerate model can repeat one tag
 * (`</‹DSML›parameter>` again and again), or one character after a tag
 * (`MMMM…`), for minutes. The hold cap bounds the memory that costs, not the
 * tokens. Inside markup, `limit` identical tags in a row, or `limit ×
 * CHARACTERS_PER_TAG` of one character in a row, is a runaway: the engine
 * then stops (`Structure`), and a stream ends the message there. Where it
 * stops depends on the text only, never on how it was cut into pieces.
 *
 * Runs are measured as they arrive, across pieces, in time linear in the
 * text: a run of one character is measured a block at a time (`endOfRun`),
 * and a long piece is sampled every half limit, since a run that long covers
 * a sample.
 */
import { endOfRun, startOfRun } from './positions.ts'

/** Characters of one run that count as one repeated tag: 64 tags ↔ 16 KiB of one character. */
export const CHARACTERS_PER_TAG = 256

export class RunawayGuard {
  #tagLimit: number
  #characterLimit: number
  /** The last tag read inside markup, and how many times in a row it came. */
  #lastTag: string | undefined = undefined
  #tagRun = 0
  /** The character the text inside markup last ended with, and how long its run is. */
  #lastCharacter = ''
  #characterRun = 0

  /** `limit`: identical tags in a row that are a runaway (at least 2). */
  constructor(limit: number) {
    this.#tagLimit = limit
    this.#characterLimit = limit * CHARACTERS_PER_TAG
  }

  /** A tag read inside markup. True: a runaway. */
  tag(text: string): boolean {
    this.#lastCharacter = ''
    this.#characterRun = 0
    if (text === this.#lastTag) return ++this.#tagRun >= this.#tagLimit
    this.#lastTag = text
    this.#tagRun = 1
    return false
  }

  /**
   * Text inside markup (between tags). Where in it the engine stops: right
   * after the character that makes a run `limit × CHARACTERS_PER_TAG` long
   * (the same place whatever the pieces), or -1. Blank text between tags
   * does not end a run of tags.
   */
  text(text: string): number {
    if (text.length === 0) return -1
    if (this.#tagRun > 0 && text.trim() !== '') {
      this.#lastTag = undefined
      this.#tagRun = 0
    }
    return this.#characters(text)
  }

  /** Outside markup: every run ends. */
  reset(): void {
    this.#lastTag = undefined
    this.#tagRun = 0
    this.#lastCharacter = ''
    this.#characterRun = 0
  }

  #characters(text: string): number {
    const limit = this.#characterLimit
    const first = text[0]!
    const carried = first === this.#lastCharacter ? this.#characterRun : 0
    // The run this text begins with, which may go on from the last text.
    const leadEnd = endOfRun(text, 0, first)
    if (carried + leadEnd >= limit) return limit - carried
    if (leadEnd === text.length) {
      this.#lastCharacter = first
      this.#characterRun = carried + leadEnd
      return -1
    }
    // A run of `limit` after it covers a sample, samples being at most half a limit apart after each run measured.
    const step = Math.max(1, limit >> 1)
    for (let sample = leadEnd + step - 1; sample < text.length; ) {
      const character = text[sample]!
      const end = endOfRun(text, sample, character)
      const start = startOfRun(text, leadEnd, sample + 1, character)
      if (end - start >= limit) return start + limit
      sample = end + step - 1
    }
    const last = text[text.length - 1]!
    this.#lastCharacter = last
    this.#characterRun = text.length - startOfRun(text, leadEnd, text.length, last)
    return -1
  }
}
