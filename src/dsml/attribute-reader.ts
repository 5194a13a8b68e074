/**
 * The attribute list of a tag, after its name: `name="x" string='true' value=y`,
 * up to `>`, `/>`, or (markered tags only) a line break or the next `<`. The
 * tag lexer (`tag-lexer.ts`) hands each character here once the name ends.
 *
 * Each character's result is a tag step (`tag.ts`): STEP_COMPLETE at the
 * tag's `>`, STEP_COMPLETE_BEFORE where a markered tag ends without one.
 * Values are kept as offsets into the tag; only the attributes the grammar
 * names (`ATTRIBUTE_NAMES`) are kept, the first of each name. A markerless
 * tag must be well formed (letters for names, no bar, `<` or line break in a
 * value, a `>` at the end); a markered one is read past anything.
 */
import {
  ATTRIBUTE_NAME_SET,
  ATTRIBUTE_NAMES,
  closingQuoteOf,
  EQUALS,
  GREATER_THAN,
  isAsciiLetter,
  isBar,
  isLineBreak,
  isMarkerSpace,
  isNameStart,
  isTagNameCharacter,
  LESS_THAN,
  MAX_ATTRIBUTE_NAME_LENGTH,
  SLASH,
} from './grammar.ts'
import { STEP_COMPLETE, STEP_COMPLETE_BEFORE, STEP_CONTINUE, STEP_REJECT, type StepResult } from './tag.ts'

// The reader's states, named.
const BETWEEN = 0
const ATTRIBUTE_NAME = 1
const AFTER_ATTRIBUTE_NAME = 2
const BEFORE_VALUE = 3
const QUOTED_VALUE = 4
const BARE_VALUE = 5
const SELF_CLOSING = 6

type ReaderState =
  | typeof BETWEEN
  | typeof ATTRIBUTE_NAME
  | typeof AFTER_ATTRIBUTE_NAME
  | typeof BEFORE_VALUE
  | typeof QUOTED_VALUE
  | typeof BARE_VALUE
  | typeof SELF_CLOSING

export class AttributeReader {
  /** `[start, end]` of the `name`, `string` and `value` attribute values; -1 when absent. */
  readonly attributes = [-1, -1, -1, -1, -1, -1]
  selfClosing = false
  #state: ReaderState = BETWEEN
  #markerless = false
  #closing = false
  #nameMask = 0
  #nameLength = 0
  #valueStart = 0
  #closingQuote = 0

  /** A tag's list begins (its name just ended, or its marker if it has none). */
  begin(markerless: boolean, closing: boolean): void {
    this.#state = BETWEEN
    this.#markerless = markerless
    this.#closing = closing
    this.selfClosing = false
    const attributes = this.attributes
    if (attributes[0] !== -1 || attributes[2] !== -1 || attributes[4] !== -1) attributes.fill(-1)
  }

  /**
   * The tag's name was followed by `=` (`<‹DSML›r=bash>`): the value after it
   * is read as attribute number `id` of `ATTRIBUTE_NAMES`, as if its name had been written.
   */
  assumeName(id: number): void {
    this.#nameMask = 1 << id
    this.#nameLength = ATTRIBUTE_NAMES[id]!.length
    this.#state = AFTER_ATTRIBUTE_NAME
  }

  /** Reads the character at `position` in the tag. */
  step(code: number, position: number): StepResult {
    switch (this.#state) {
      case BETWEEN:
        return this.#between(code)
      case ATTRIBUTE_NAME:
        if (isTagNameCharacter(code) && this.#nameLength < MAX_ATTRIBUTE_NAME_LENGTH) {
          this.#nameMask = ATTRIBUTE_NAME_SET.step(this.#nameMask, this.#nameLength, code)
          this.#nameLength++
          return STEP_CONTINUE
        }
        if (isMarkerSpace(code)) {
          this.#state = AFTER_ATTRIBUTE_NAME
          return STEP_CONTINUE
        }
        return this.#afterName(code, position)
      case AFTER_ATTRIBUTE_NAME:
        return this.#afterName(code, position)
      case BEFORE_VALUE:
        return this.#beforeValue(code, position)
      case QUOTED_VALUE:
        if (code === this.#closingQuote) {
          this.#finishAttribute(this.#valueStart, position)
          this.#state = BETWEEN
          return STEP_CONTINUE
        }
        return this.#markerless && (code === LESS_THAN || isLineBreak(code) || isBar(code)) ? STEP_REJECT : STEP_CONTINUE
      case BARE_VALUE:
        if (isMarkerSpace(code) || code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
          this.#finishAttribute(this.#valueStart, position)
          return this.#between(code)
        }
        return this.#markerless && isBar(code) ? STEP_REJECT : STEP_CONTINUE
      case SELF_CLOSING:
        if (code === GREATER_THAN) {
          this.selfClosing = true
          return STEP_COMPLETE
        }
        if (this.#markerless) return STEP_REJECT
        return this.#between(code)
    }
  }

  /**
   * Reads `text` from `index` (at `position` in the tag) until a character's
   * result is not STEP_CONTINUE, or up to `limit`. Returns where it
   * stopped: at that character (its result in `lastStep`), or at `limit`
   * (`lastStep` is STEP_CONTINUE). The same as `step` on each
   * character, with a quoted value's characters, and the rest of a name no
   * attribute of the grammar has, taken as runs.
   */
  run(text: string, index: number, limit: number, position: number): number {
    const start = index
    while (index < limit) {
      if (this.#state === QUOTED_VALUE) {
        const quote = this.#closingQuote
        const markerless = this.#markerless
        while (index < limit) {
          const code = text.charCodeAt(index)
          if (code === quote || (markerless && (code === LESS_THAN || isLineBreak(code) || isBar(code)))) break
          index++
        }
        if (index === limit) break
      } else if (this.#state === ATTRIBUTE_NAME && this.#nameMask === 0) {
        const nameStart = index
        const nameLimit = Math.min(limit, index + MAX_ATTRIBUTE_NAME_LENGTH - this.#nameLength)
        while (index < nameLimit && isTagNameCharacter(text.charCodeAt(index))) index++
        this.#nameLength += index - nameStart
        if (index === limit) break
      }
      const result = this.step(text.charCodeAt(index), position + index - start)
      if (result !== STEP_CONTINUE) {
        this.lastStep = result
        return index
      }
      index++
    }
    this.lastStep = STEP_CONTINUE
    return index
  }

  /** The result of the character `run` stopped at. */
  lastStep: StepResult = STEP_CONTINUE

  /** End of input at `position`: an attribute being read ends there. Returns whether a quote was left open. */
  finish(position: number): boolean {
    switch (this.#state) {
      case QUOTED_VALUE:
        this.#finishAttribute(this.#valueStart, position)
        return true
      case BARE_VALUE:
        this.#finishAttribute(this.#valueStart, position)
        return false
      case ATTRIBUTE_NAME:
      case AFTER_ATTRIBUTE_NAME:
      case BEFORE_VALUE:
        this.#finishAttribute(position, position)
        return false
      case BETWEEN:
      case SELF_CLOSING:
        return false
    }
  }

  #between(code: number): StepResult {
    this.#state = BETWEEN
    if (isMarkerSpace(code)) return STEP_CONTINUE
    if (code === GREATER_THAN) return STEP_COMPLETE
    if (code === SLASH) {
      this.#state = SELF_CLOSING
      return STEP_CONTINUE
    }
    // A markered tag may end without `>`; a markerless one may not.
    if (code === LESS_THAN || isLineBreak(code)) return this.#markerless ? STEP_REJECT : STEP_COMPLETE_BEFORE
    // Markerless: only well-formed attributes on openers; closers take none.
    if (this.#markerless && (this.#closing || !isAsciiLetter(code))) return STEP_REJECT
    if (isNameStart(code)) {
      this.#nameMask = ATTRIBUTE_NAME_SET.step(ATTRIBUTE_NAME_SET.all, 0, code)
      this.#nameLength = 1
      this.#state = ATTRIBUTE_NAME
      return STEP_CONTINUE
    }
    // Junk inside a markered tag (`<‹DSML›tool name="x"...>`): read past it.
    return STEP_CONTINUE
  }

  #afterName(code: number, position: number): StepResult {
    if (isMarkerSpace(code)) return STEP_CONTINUE
    if (code === EQUALS) {
      this.#state = BEFORE_VALUE
      return STEP_CONTINUE
    }
    this.#finishAttribute(position, position)
    return this.#between(code)
  }

  #beforeValue(code: number, position: number): StepResult {
    if (isMarkerSpace(code)) return STEP_CONTINUE
    const closingQuote = closingQuoteOf(code)
    if (closingQuote !== -1) {
      this.#closingQuote = closingQuote
      this.#valueStart = position + 1
      this.#state = QUOTED_VALUE
      return STEP_CONTINUE
    }
    if (code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
      this.#finishAttribute(position, position)
      return this.#between(code)
    }
    if (this.#markerless && isBar(code)) return STEP_REJECT
    this.#valueStart = position
    this.#state = BARE_VALUE
    return STEP_CONTINUE
  }

  /** Records an attribute's value `[start, end)`, if the grammar names it and it is the first of its name. */
  #finishAttribute(start: number, end: number): void {
    const id = ATTRIBUTE_NAME_SET.matched(this.#nameMask, this.#nameLength)
    this.#nameMask = 0
    this.#nameLength = 0
    if (id === -1 || this.attributes[id * 2] !== -1) return
    this.attributes[id * 2] = start
    this.attributes[id * 2 + 1] = end
  }
}
