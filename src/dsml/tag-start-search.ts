/**
 * `TagStartSearch`: where the next tag may start in a text the scanner
 * reads — the next `<`, or bar where bars matter, passing every one that is
 * text whatever follows (`isTextTagStart`). A long text's searches are
 * remembered while still ahead (`Positions`); in a short one the next few
 * characters are looked at one at a time first.
 */
import { isBar, LESS_THAN } from './grammar.ts'
import { LESS_THAN_NEEDLE_COUNT, TAG_START_NEEDLES, type TagContext } from './markup-starts.ts'
import { isTextTagStart } from './partial-tags.ts'
import { FRESH_SEARCH, Positions, SHORT_SEARCH } from './positions.ts'

export class TagStartSearch {
  /** `<` and the bars: where a tag may start. */
  #candidates = new Positions(TAG_START_NEEDLES)

  /** Forgets what was found: the next text may be the same string read again from its start. */
  reset(): void {
    this.#candidates.reset()
  }

  /** The next character a tag may start at, from `index` (or `text.length`). */
  next(text: string, index: number, withBars: boolean, context: TagContext): number {
    const length = text.length
    for (;;) {
      const next = this.#candidate(text, index, withBars)
      if (next >= length || !isTextTagStart(text, next, context)) return next
      index = next + 1
    }
  }

  /** The next `<`, or bar when bars matter, at or after `index` (or `text.length`). */
  #candidate(text: string, index: number, withBars: boolean): number {
    const length = text.length
    // In a short text (searched afresh each time: `FRESH_SEARCH`), the next few characters one at a time first
    // (candidates are often close: a loop beats several indexOf calls); a long one's searches are remembered.
    const near = length <= FRESH_SEARCH ? Math.min(length, index + SHORT_SEARCH) : index
    while (index < near) {
      const code = text.charCodeAt(index)
      if (code === LESS_THAN || (withBars && isBar(code))) return index
      index++
    }
    return index === length ? length : this.#candidates.first(text, index, withBars ? TAG_START_NEEDLES.length : LESS_THAN_NEEDLE_COUNT)
  }
}
