/**
 * `Positions`: where a few needles next occur in one text, searched with
 * `indexOf` and remembered while still ahead, so a scan over a long text
 * reads it about once per needle. The scanner's `indexOf` loop uses it for
 * `<` and the bars.
 */
/** The next position of each of a few needles in one text, found lazily and reused while still ahead. */
export class Positions {
  #needles: readonly string[]
  #text: string | undefined
  /** Per needle: its first position at or after `#from[needle]`; -2 when there is none. */
  #at: number[]
  #from: number[]
  /** The last answer (for `#firstCount` needles, from `#firstFrom`), kept while still ahead. */
  #first = -1
  #firstFrom = 0
  #firstCount = 0

  constructor(needles: readonly string[]) {
    this.#needles = needles
    this.#at = needles.map(() => -2)
    this.#from = needles.map(() => Number.MAX_SAFE_INTEGER)
  }

  /** Forgets what was found: the next text may be the same string read again from its start. */
  reset(): void {
    this.#text = undefined
    this.#first = -1
  }

  /** The first position at or after `from` where any of the first `count` needles starts, or `text.length`. */
  first(text: string, from: number, count = this.#needles.length): number {
    if (text !== this.#text) {
      this.#text = text
      this.#from.fill(Number.MAX_SAFE_INTEGER)
      this.#first = -1
    }
    const kept = this.#first
    if (kept >= from && count === this.#firstCount && from >= this.#firstFrom) return kept
    let first = text.length
    for (let needle = 0; needle < count; needle++) {
      let at = this.#at[needle]!
      // A search from `#from` answers for any later `from` it has not passed.
      if (from < this.#from[needle]! || (at !== -2 && at < from)) {
        at = text.indexOf(this.#needles[needle]!, from)
        if (at === -1) at = -2
        this.#at[needle] = at
        this.#from[needle] = from
      }
      if (at !== -2 && at < first) first = at
    }
    this.#first = first
    this.#firstFrom = from
    this.#firstCount = count
    return first
  }
}
