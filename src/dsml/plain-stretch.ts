/**
 * `PlainStretch`: outside markup, with nothing held, how far a text is
 * certainly plain, so the scanner emits it whole without reading it. Up to
 * the first bar or `<` + markerless opener name, or, with none, up to a
 * partial tag that may be held at the end — each moved back to the start of
 * the chain of partial tags that would be pending there; and never past the
 * start of a chain long enough to pass the pending cap. Its searches are
 * remembered while still ahead (ranges of one input arrive in order), so a
 * long text is searched about once.
 */
import { BAR_NEEDLES, lostMarkerOpenerBefore, MarkerlessOpenerFinder, type TagContext } from './markup-starts.ts'
import { PartialTagChains } from './partial-tags.ts'
import { Positions } from './positions.ts'

export class PlainStretch {
  #chains = new PartialTagChains()
  #bars = new Positions(BAR_NEEDLES)
  #openers = new MarkerlessOpenerFinder()
  #maxPendingChars: number
  /** `#tailStartAt` for `#tailText` read from `#tailFrom`: where a partial tag held at its end may begin. */
  #tailText: string | undefined
  #tailFrom = 0
  #tailStartAt = 0

  constructor(maxPendingChars: number) {
    this.#maxPendingChars = maxPendingChars
  }

  /** Forgets what was found: the next text may be the same string read again from its start. */
  reset(): void {
    this.#bars.reset()
    this.#openers.reset()
    this.#tailText = undefined
  }

  /** How far `text` from `from` is certainly plain, read in `context` (see the file's doc). */
  until(text: string, from: number, context: TagContext): number {
    const opener = this.#openers.next(text, from)
    const bar = this.#bars.first(text, from)
    const needle = Math.min(bar, opener === -1 ? text.length : opener)
    let plain: number
    if (needle < text.length) {
      plain = this.#chains.start(text, from, needle, context)
      // Before a bar, a marked tag may begin: V4.1's opener that lost its marker may stand right before it.
      if (needle === bar) plain = this.#beforeLostMarkerOpener(text, from, plain, context)
    } else {
      if (text !== this.#tailText || from < this.#tailFrom || this.#tailStartAt < from) {
        this.#tailFrom = from
        this.#tailStartAt = this.#beforeLostMarkerOpener(text, from, this.#chains.start(text, from, text.length, context), context)
      }
      // This string (an equal one may be another: see `RecentTexts.of`).
      this.#tailText = text
      plain = this.#tailStartAt
    }
    return this.#chains.firstLong(text, from, plain, context, this.#maxPendingChars)
  }

  /**
   * `at`, or where a lost-marker opener with only whitespace after it up to
   * `at` begins (it is then read as a tag), moved back to the start of the
   * chain of partial tags pending before it (their fate is the opener's).
   */
  #beforeLostMarkerOpener(text: string, from: number, at: number, context: TagContext): number {
    const start = lostMarkerOpenerBefore(text, from, at)
    return start === -1 ? at : this.#chains.start(text, from, start, context)
  }
}
