/**
 * `Positions`: where a few needles next occur in a text, searched with
 * `indexOf` and remembered while still ahead, so a scan over a long text
 * reads it about once per needle. The scanner uses it for `<` and the bars,
 * the fence tracker for line breaks, the code spans for backticks.
 *
 * Two texts are remembered, the most recent ones: text held and read again
 * (a code-span gate's) comes between two reads of the input it came from,
 * and the input's searches must not start over each time, or a needle that
 * does not occur again would be searched for to the end of it again and again.
 */

/** Texts this short are searched a character at a time (cheaper than a call and its bookkeeping); longer ones with `Positions`. */
export const SHORT_SEARCH = 256

/** What is known of one text: per needle, its first position at or after `from[needle]` (-2: none to the end). */
interface Searched {
  text: string | undefined
  at: number[]
  from: number[]
  /** The last answer (for `firstCount` needles, from `firstFrom`), kept while still ahead. */
  first: number
  firstFrom: number
  firstCount: number
}

export class Positions {
  #needles: readonly string[]
  /** The text searched last, and the one before. */
  #recent: Searched
  #older: Searched

  constructor(needles: readonly string[]) {
    this.#needles = needles
    this.#recent = this.#empty()
    this.#older = this.#empty()
  }

  #empty(): Searched {
    return { text: undefined, at: this.#needles.map(() => -2), from: this.#needles.map(() => Number.MAX_SAFE_INTEGER), first: -1, firstFrom: 0, firstCount: 0 }
  }

  /** A copy knowing what this knows, searching on its own from here. */
  clone(): Positions {
    const copy = new Positions(this.#needles)
    copy.#recent = copySearched(this.#recent)
    copy.#older = copySearched(this.#older)
    return copy
  }

  /** Forgets what was found: the next text may be the same string read again from its start. */
  reset(): void {
    this.#recent.text = undefined
    this.#older.text = undefined
  }

  /** What is known of `text`, as the most recent text. */
  #of(text: string): Searched {
    const recent = this.#recent
    if (recent.text === text) return recent
    const older = this.#older
    this.#older = recent
    this.#recent = older
    if (older.text !== text) {
      older.text = text
      older.from.fill(Number.MAX_SAFE_INTEGER)
      older.first = -1
    }
    return older
  }

  /** The first position at or after `from` where any of the first `count` needles starts, or `text.length`. */
  first(text: string, from: number, count = this.#needles.length): number {
    const searched = this.#of(text)
    const kept = searched.first
    if (kept >= from && count === searched.firstCount && from >= searched.firstFrom) return kept
    let first = text.length
    for (let needle = 0; needle < count; needle++) {
      let at = searched.at[needle]!
      // A search from `from[needle]` answers for any later `from` it has not passed.
      if (from < searched.from[needle]! || (at !== -2 && at < from)) {
        at = text.indexOf(this.#needles[needle]!, from)
        if (at === -1) at = -2
        searched.at[needle] = at
        searched.from[needle] = from
      }
      if (at !== -2 && at < first) first = at
    }
    searched.first = first
    searched.firstFrom = from
    searched.firstCount = count
    return first
  }
}

function copySearched(searched: Searched): Searched {
  return { ...searched, at: [...searched.at], from: [...searched.from] }
}
