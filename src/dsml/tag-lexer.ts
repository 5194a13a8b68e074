/**
 * The DSML tag lexer: reads one tag, a character at a time, and says as early
 * as it can whether the characters seen so far can still be markup.
 *
 * It knows spellings, not structure: which tags nest where is the structure
 * layer's business (`structure.ts`). It never sees the text, only character
 * codes: names and attribute values are kept as offsets into the tag, and
 * `readTag` slices them once the tag is complete. So a tag that is rejected
 * after a character or two costs no allocation.
 *
 * Shapes read (bars are the grammar's `BARS`):
 * - `<` `/`? spaces? bars(1–2) spaces? `DSML` spaces? bars(0–2) spaces? name attributes `/`? `>`
 * - `<` `/`? spaces? bars(1–4) name …     an inner tag with bars but no word
 * - `<` `/`? spaces? bars special-token bars `>`   `<｜end▁of▁sentence｜>` and its spellings
 * - `<` `/`? name …                      markerless, only for names the context allows
 * - bars(1–2) `DSML` bars(1–2) name? …   a fragment that lost its `<`
 *
 * A markered tag may lose its `>`: it then ends at a line break or at the next `<`.
 *
 * **Commitment.** A tag is *committed* once nothing can make it text any more:
 * at the word `DSML`, at a fragment's closing bar, or when a wordless tag's
 * known name ends. A committed tag that grows past the tag limit is completed
 * as `broken`, never released. An uncommitted tag can only grow that long if
 * it is markerless, and a markerless tag holds no `<` and no bar, so nothing
 * inside it could start another tag: releasing it as text is safe.
 */
import {
  ATTRIBUTE_NAME_SET,
  canFollowClosingSlash,
  canFollowLessThan,
  closingQuoteOf,
  EQUALS,
  GREATER_THAN,
  isAsciiLetter,
  isBar,
  isLineBreak,
  isMarkerSpace,
  isNameStart,
  isSpecialTokenSeparator,
  isTagNameCharacter,
  KNOWN_NAME_SET,
  LATIN_CAPITAL_D,
  LESS_THAN,
  MARKER_WORD,
  type MarkerlessNames,
  MARKERLESS_CLOSER_SET,
  MARKERLESS_OPENER_SET,
  MAX_ATTRIBUTE_NAME_LENGTH,
  MAX_MARKER_BARS,
  MAX_MARKER_SPACES,
  MAX_TAG_NAME_LENGTH,
  MAX_WORDLESS_BARS,
  NAME_ATTRIBUTE,
  SLASH,
  SPACE,
  SPECIAL_TOKEN_SET,
  STRING_ATTRIBUTE,
  VALUE_ATTRIBUTE,
  type WordSet,
} from './grammar.ts'

/** The character was consumed; the tag goes on. */
export const STEP_CONTINUE = 0
/** The character was not consumed; what was read is not markup. */
export const STEP_REJECT = 1
/** The character was consumed and completed the tag. */
export const STEP_COMPLETE = 2
/** The character was not consumed; the tag ended before it (no `>`, or too long). */
export const STEP_COMPLETE_BEFORE = 3

export type StepResult = typeof STEP_CONTINUE | typeof STEP_REJECT | typeof STEP_COMPLETE | typeof STEP_COMPLETE_BEFORE

export type MarkerKind = 'none' | 'bars' | 'dsml'

type LexerState =
  | 'after-less-than'
  | 'after-slash'
  | 'space-before-bars'
  | 'opening-bars'
  | 'space-before-word'
  | 'word'
  | 'after-word'
  | 'closing-bars'
  | 'space-before-name'
  | 'name'
  | 'wordless-name'
  | 'special-bars'
  | 'attributes'
  | 'attribute-name'
  | 'after-attribute-name'
  | 'before-attribute-value'
  | 'quoted-attribute-value'
  | 'bare-attribute-value'
  | 'self-closing'

/** A completed tag as offsets into its text (see `readTag`). */
export interface LexedTag {
  closing: boolean
  marker: MarkerKind
  /** Began with a bar: a marker that lost its `<`. */
  fragment: boolean
  /** A DeepSeek special token such as end-of-sentence. */
  special: boolean
  nameStart: number
  nameEnd: number
  /** `[start, end]` of the `name`, `string` and `value` attribute values; -1 when absent. */
  attributes: readonly number[]
  /** The marker's bars and word, `[markerStart, markerEnd)` (empty for markerless tags). */
  markerStart: number
  markerEnd: number
  selfClosing: boolean
  /** Saw its `>`. */
  terminated: boolean
  /** An unterminated quote at end of input, or longer than the tag limit. */
  broken: boolean
  /**
   * How many of the characters read belong to the tag. Less than all of them
   * only for a fragment followed by a word that is not a tag name: the
   * scanner reads the rest again as text.
   */
  length: number
}

/** A completed tag, its strings sliced out. */
export interface Tag {
  closing: boolean
  marker: MarkerKind
  fragment: boolean
  special: boolean
  name: string
  nameAttribute: string | undefined
  stringAttribute: string | undefined
  valueAttribute: string | undefined
  selfClosing: boolean
  terminated: boolean
  broken: boolean
  length: number
  markerStart: number
  markerEnd: number
}

/** The strings of a lexed tag, sliced from its text (`text` starts where the tag starts). */
export function readTag(lexed: LexedTag, text: string): Tag {
  const attribute = (id: number): string | undefined => {
    const start = lexed.attributes[id * 2]!
    return start === -1 ? undefined : text.slice(start, lexed.attributes[id * 2 + 1])
  }
  return {
    closing: lexed.closing,
    marker: lexed.marker,
    fragment: lexed.fragment,
    special: lexed.special,
    name: text.slice(lexed.nameStart, lexed.nameEnd),
    nameAttribute: attribute(NAME_ATTRIBUTE),
    stringAttribute: attribute(STRING_ATTRIBUTE),
    valueAttribute: attribute(VALUE_ATTRIBUTE),
    selfClosing: lexed.selfClosing,
    terminated: lexed.terminated,
    broken: lexed.broken,
    length: lexed.length,
    markerStart: lexed.markerStart,
    markerEnd: lexed.markerEnd,
  }
}

const NO_NAMES: MarkerlessNames = { openers: false, closers: false }

/**
 * One tag at a time: `begin`, then `step` each character until it returns
 * anything but STEP_CONTINUE, or `finish` at the end of input. A class: one
 * per engine, its fields numbers and booleans.
 */
export class TagLexer {
  #maxTagChars: number
  #names: MarkerlessNames = NO_NAMES
  #state: LexerState = 'after-less-than'
  /** Characters read so far, the first included. */
  #length = 0
  #closing = false
  #fragment = false
  #marker: MarkerKind = 'none'
  #committed = false
  #bars = 0
  #spaces = 0
  #wordIndex = 0
  #nameStart = 0
  #nameLength = 0
  /** The markerless names (of this tag's direction) the name still matches. */
  #nameMask = 0
  #knownMask = 0
  #specialMask = 0
  #special = false
  #attributeMask = 0
  #attributeNameLength = 0
  #valueStart = 0
  #closingQuote = 0
  #attributes = [-1, -1, -1, -1, -1, -1]
  #markerStart = 0
  #markerEnd = 0
  /** For fragments: the length after the marker's closing bars. */
  #fragmentEnd = 0
  #selfClosing = false
  #terminated = false
  #broken = false
  #result: LexedTag | undefined

  constructor(maxTagChars: number) {
    this.#maxTagChars = maxTagChars
  }

  /** Starts a tag at `<` (`fragment` false) or at a bar (`fragment` true). */
  begin(fragment: boolean, names: MarkerlessNames): void {
    this.#names = names
    this.#fragment = fragment
    this.#closing = false
    this.#marker = 'none'
    this.#committed = false
    this.#spaces = 0
    this.#nameLength = 0
    this.#nameStart = 0
    this.#special = false
    this.#selfClosing = false
    this.#terminated = false
    this.#broken = false
    this.#result = undefined
    this.#length = 1
    if (this.#attributes[0] !== -1 || this.#attributes[2] !== -1 || this.#attributes[4] !== -1) this.#attributes.fill(-1)
    if (fragment) {
      this.#bars = 1
      this.#markerStart = 0
      this.#markerEnd = 1
      this.#state = 'opening-bars'
    } else {
      this.#bars = 0
      this.#markerStart = 0
      this.#markerEnd = 0
      this.#state = 'after-less-than'
    }
  }

  /** Characters read so far. */
  get length(): number {
    return this.#length
  }

  /** Nothing can make this tag text any more (see the file's doc). */
  get committed(): boolean {
    return this.#committed
  }

  /** The result, after a completing step. */
  tag(): LexedTag {
    if (this.#result === undefined) throw new Error('Cannot read tag: the lexer has not completed one')
    return this.#result
  }

  /** Changes which markerless names are allowed (when the surrounding candidate is released). */
  setNames(names: MarkerlessNames): void {
    this.#names = names
  }

  step(code: number): StepResult {
    if (this.#length >= this.#maxTagChars) {
      if (!this.#committed) return STEP_REJECT
      this.#broken = true
      return this.#complete(false)
    }
    switch (this.#state) {
      case 'after-less-than':
        if (!canFollowLessThan(code, this.#names)) return STEP_REJECT
        if (code === SLASH) {
          this.#closing = true
          this.#state = 'after-slash'
          return this.#accept()
        }
        return this.#afterOpening(code)
      case 'after-slash':
        if (!canFollowClosingSlash(code, this.#names)) return STEP_REJECT
        return this.#afterOpening(code)
      case 'space-before-bars':
        if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
          this.#spaces++
          return this.#accept()
        }
        if (isBar(code)) return this.#firstBar()
        return STEP_REJECT
      case 'opening-bars':
        return this.#openingBars(code)
      case 'space-before-word':
        if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
          this.#spaces++
          return this.#accept()
        }
        if (code === LATIN_CAPITAL_D) {
          this.#wordIndex = 1
          this.#state = 'word'
          return this.#accept()
        }
        return STEP_REJECT
      case 'word':
        return this.#word(code)
      case 'after-word':
        if (isBar(code)) {
          this.#bars = 1
          this.#state = 'closing-bars'
          this.#markerEnd = this.#length + 1
          if (this.#fragment) {
            this.#committed = true
            this.#fragmentEnd = this.#length + 1
          }
          return this.#accept()
        }
        if (this.#fragment) return STEP_REJECT
        if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
          this.#spaces++
          return this.#accept()
        }
        return this.#afterMarker(code)
      case 'closing-bars':
        if (isBar(code) && this.#bars < MAX_MARKER_BARS) {
          this.#bars++
          this.#markerEnd = this.#length + 1
          if (this.#fragment) this.#fragmentEnd = this.#length + 1
          return this.#accept()
        }
        this.#spaces = 0
        this.#state = 'space-before-name'
        return this.#afterMarker(code)
      case 'space-before-name':
        return this.#afterMarker(code)
      case 'name':
        return this.#name(code)
      case 'wordless-name':
        return this.#wordlessName(code)
      case 'special-bars':
        if (isBar(code) && this.#bars < MAX_MARKER_BARS) {
          this.#bars++
          this.#markerEnd = this.#length + 1
          return this.#accept()
        }
        if (code === GREATER_THAN) {
          this.#special = true
          this.#terminated = true
          return this.#complete(true)
        }
        return STEP_REJECT
      case 'attributes':
        return this.#attributesStep(code)
      case 'attribute-name':
        if (isTagNameCharacter(code) && this.#attributeNameLength < MAX_ATTRIBUTE_NAME_LENGTH) {
          this.#attributeMask = ATTRIBUTE_NAME_SET.step(this.#attributeMask, this.#attributeNameLength, code)
          this.#attributeNameLength++
          return this.#accept()
        }
        if (isMarkerSpace(code)) {
          this.#state = 'after-attribute-name'
          return this.#accept()
        }
        if (code === EQUALS) {
          this.#state = 'before-attribute-value'
          return this.#accept()
        }
        this.#finishAttribute(this.#length, this.#length)
        this.#state = 'attributes'
        return this.#attributesStep(code)
      case 'after-attribute-name':
        if (isMarkerSpace(code)) return this.#accept()
        if (code === EQUALS) {
          this.#state = 'before-attribute-value'
          return this.#accept()
        }
        this.#finishAttribute(this.#length, this.#length)
        this.#state = 'attributes'
        return this.#attributesStep(code)
      case 'before-attribute-value': {
        if (isMarkerSpace(code)) return this.#accept()
        const closingQuote = closingQuoteOf(code)
        if (closingQuote !== -1) {
          this.#closingQuote = closingQuote
          this.#valueStart = this.#length + 1
          this.#state = 'quoted-attribute-value'
          return this.#accept()
        }
        if (code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
          this.#finishAttribute(this.#length, this.#length)
          this.#state = 'attributes'
          return this.#attributesStep(code)
        }
        if (this.#marker === 'none' && isBar(code)) return STEP_REJECT
        this.#valueStart = this.#length
        this.#state = 'bare-attribute-value'
        return this.#accept()
      }
      case 'quoted-attribute-value':
        if (code === this.#closingQuote) {
          this.#finishAttribute(this.#valueStart, this.#length)
          this.#state = 'attributes'
          return this.#accept()
        }
        if (this.#marker === 'none' && (code === LESS_THAN || isLineBreak(code) || isBar(code))) return STEP_REJECT
        return this.#accept()
      case 'bare-attribute-value':
        if (isMarkerSpace(code) || code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
          this.#finishAttribute(this.#valueStart, this.#length)
          this.#state = 'attributes'
          return this.#attributesStep(code)
        }
        if (this.#marker === 'none' && isBar(code)) return STEP_REJECT
        return this.#accept()
      case 'self-closing':
        if (code === GREATER_THAN) {
          this.#selfClosing = true
          this.#terminated = true
          return this.#complete(true)
        }
        if (this.#marker === 'none') return STEP_REJECT
        this.#state = 'attributes'
        return this.#attributesStep(code)
    }
  }

  /**
   * End of input inside the tag. What each state means there: a markerless
   * tag never saw its `>` (text); an uncommitted markered tag is text unless a
   * wordless tag's known name is complete; a fragment ends after its marker
   * (or its known name); any other committed tag ends where the input ends,
   * `broken` if a quote was left open.
   */
  finish(): typeof STEP_REJECT | typeof STEP_COMPLETE_BEFORE {
    if (this.#marker === 'none') return STEP_REJECT
    if (!this.#committed) {
      if (this.#marker === 'bars' && this.#state === 'wordless-name' && KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) {
        this.#complete(false)
        return STEP_COMPLETE_BEFORE
      }
      return STEP_REJECT
    }
    if (this.#fragment) {
      const knownName = this.#state === 'name' && KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)
      this.#complete(false, knownName ? this.#length : this.#fragmentEnd)
      return STEP_COMPLETE_BEFORE
    }
    switch (this.#state) {
      case 'quoted-attribute-value':
        this.#broken = true
        this.#finishAttribute(this.#valueStart, this.#length)
        break
      case 'bare-attribute-value':
        this.#finishAttribute(this.#valueStart, this.#length)
        break
      case 'attribute-name':
      case 'after-attribute-name':
      case 'before-attribute-value':
        this.#finishAttribute(this.#length, this.#length)
        break
      default:
        break
    }
    this.#complete(false)
    return STEP_COMPLETE_BEFORE
  }

  // ── steps ─────────────────────────────────────────────────────────────

  #accept(): StepResult {
    this.#length++
    return STEP_CONTINUE
  }

  #complete(consumed: boolean, tagLength?: number): StepResult {
    if (consumed) this.#length++
    this.#result = {
      closing: this.#closing,
      marker: this.#marker,
      fragment: this.#fragment,
      special: this.#special,
      nameStart: this.#nameStart,
      nameEnd: this.#nameStart + this.#nameLength,
      attributes: this.#attributes.slice(),
      markerStart: this.#markerStart,
      markerEnd: this.#markerEnd,
      selfClosing: this.#selfClosing,
      terminated: this.#terminated,
      broken: this.#broken,
      length: tagLength ?? this.#length,
    }
    return consumed ? STEP_COMPLETE : STEP_COMPLETE_BEFORE
  }

  /** The markerless names of this tag's direction, allowed or not. */
  #markerlessSet(): WordSet {
    return this.#closing ? MARKERLESS_CLOSER_SET : MARKERLESS_OPENER_SET
  }

  /** Are markerless names of this tag's direction allowed where it stands? */
  #markerlessAllowed(): boolean {
    return this.#closing ? this.#names.closers : this.#names.openers
  }

  /** After `<` or `</`: spaces before bars, the first bar, or a markerless name. */
  #afterOpening(code: number): StepResult {
    if (isMarkerSpace(code)) {
      this.#spaces = 1
      this.#state = 'space-before-bars'
      return this.#accept()
    }
    if (isBar(code)) return this.#firstBar()
    if (!this.#markerlessAllowed() || !isAsciiLetter(code)) return STEP_REJECT
    return this.#startName(code)
  }

  #firstBar(): StepResult {
    this.#bars = 1
    this.#markerStart = this.#length
    this.#markerEnd = this.#length + 1
    this.#state = 'opening-bars'
    return this.#accept()
  }

  #openingBars(code: number): StepResult {
    if (isBar(code)) {
      if (this.#bars >= (this.#fragment ? MAX_MARKER_BARS : MAX_WORDLESS_BARS)) return STEP_REJECT
      this.#bars++
      this.#markerEnd = this.#length + 1
      return this.#accept()
    }
    if (code === LATIN_CAPITAL_D && this.#bars <= MAX_MARKER_BARS) {
      this.#wordIndex = 1
      this.#state = 'word'
      return this.#accept()
    }
    if (this.#fragment) return STEP_REJECT
    if (isMarkerSpace(code) && this.#bars <= MAX_MARKER_BARS) {
      this.#spaces = 1
      this.#state = 'space-before-word'
      return this.#accept()
    }
    if (!isAsciiLetter(code)) return STEP_REJECT
    // Bars without the word: an inner tag name or a special token.
    this.#knownMask = KNOWN_NAME_SET.step(KNOWN_NAME_SET.all, 0, code)
    this.#specialMask = SPECIAL_TOKEN_SET.step(SPECIAL_TOKEN_SET.all, 0, code)
    if (this.#knownMask === 0 && this.#specialMask === 0) return STEP_REJECT
    this.#marker = 'bars'
    this.#nameStart = this.#length
    this.#nameLength = 1
    this.#state = 'wordless-name'
    return this.#accept()
  }

  #word(code: number): StepResult {
    if (code !== MARKER_WORD.charCodeAt(this.#wordIndex)) return STEP_REJECT
    this.#wordIndex++
    if (this.#wordIndex === MARKER_WORD.length) {
      this.#marker = 'dsml'
      if (!this.#fragment) this.#committed = true
      this.#markerEnd = this.#length + 1
      this.#spaces = 0
      this.#bars = 0
      this.#state = 'after-word'
    }
    return this.#accept()
  }

  /** After the marker (and its closing bars): a name, `>`, `/`, or the end of a bare marker. */
  #afterMarker(code: number): StepResult {
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      this.#state = 'space-before-name'
      return this.#accept()
    }
    if (isNameStart(code)) return this.#startName(code)
    if (this.#fragment) {
      if (code === GREATER_THAN && this.#length === this.#fragmentEnd) {
        this.#terminated = true
        return this.#complete(true)
      }
      return this.#complete(false, this.#fragmentEnd)
    }
    if (code === GREATER_THAN) {
      this.#terminated = true
      return this.#complete(true)
    }
    if (code === SLASH) {
      this.#state = 'self-closing'
      return this.#accept()
    }
    return this.#complete(false)
  }

  #startName(code: number): StepResult {
    this.#nameStart = this.#length
    this.#nameLength = 1
    this.#knownMask = KNOWN_NAME_SET.step(KNOWN_NAME_SET.all, 0, code)
    if (this.#marker === 'none') {
      const set = this.#markerlessSet()
      this.#nameMask = set.step(set.all, 0, code)
      if (this.#nameMask === 0) return STEP_REJECT
    }
    this.#state = 'name'
    return this.#accept()
  }

  #name(code: number): StepResult {
    const markerless = this.#marker === 'none'
    if (isTagNameCharacter(code)) {
      if (this.#nameLength >= MAX_TAG_NAME_LENGTH) return markerless ? STEP_REJECT : this.#complete(false)
      if (markerless) {
        this.#nameMask = this.#markerlessAllowed() ? this.#markerlessSet().step(this.#nameMask, this.#nameLength, code) : 0
        if (this.#nameMask === 0) return STEP_REJECT
      }
      this.#knownMask = KNOWN_NAME_SET.step(this.#knownMask, this.#nameLength, code)
      this.#nameLength++
      return this.#accept()
    }
    if (markerless && !(this.#markerlessAllowed() && this.#markerlessSet().ends(this.#nameMask, this.#nameLength))) return STEP_REJECT
    if (this.#fragment && !KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) return this.#complete(false, this.#fragmentEnd)
    return this.#nameEnded(code)
  }

  /**
   * Bars without the word: a known tag name (`<‹‹›invoke name="x">`), or a
   * special token whose words are separated by `▁`, `_` or spaces.
   */
  #wordlessName(code: number): StepResult {
    const separator = isSpecialTokenSeparator(code)
    if (isTagNameCharacter(code) || separator) {
      const special = SPECIAL_TOKEN_SET.step(this.#specialMask, this.#nameLength, code)
      const known = isTagNameCharacter(code) ? KNOWN_NAME_SET.step(this.#knownMask, this.#nameLength, code) : 0
      if ((special !== 0 || known !== 0) && this.#nameLength < MAX_TAG_NAME_LENGTH) {
        this.#specialMask = special
        this.#knownMask = known
        this.#nameLength++
        return this.#accept()
      }
      if (code !== SPACE) return STEP_REJECT
    }
    if (isBar(code)) {
      if (!SPECIAL_TOKEN_SET.ends(this.#specialMask, this.#nameLength)) return STEP_REJECT
      this.#bars = 1
      this.#state = 'special-bars'
      return this.#accept()
    }
    if (!KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) return STEP_REJECT
    return this.#nameEnded(code)
  }

  #nameEnded(code: number): StepResult {
    // Past a known name, a wordless tag can no longer be text (see `#attributesStep`).
    if (this.#marker === 'bars') this.#committed = true
    this.#state = 'attributes'
    if (code === GREATER_THAN) {
      this.#terminated = true
      return this.#complete(true)
    }
    if (isMarkerSpace(code) || code === SLASH) return this.#attributesStep(code)
    if (code === LESS_THAN || isLineBreak(code)) return this.#endWithoutGreaterThan()
    if (this.#marker === 'none') return STEP_REJECT
    return this.#complete(false)
  }

  #attributesStep(code: number): StepResult {
    if (isMarkerSpace(code)) return this.#accept()
    if (code === GREATER_THAN) {
      this.#terminated = true
      return this.#complete(true)
    }
    if (code === SLASH) {
      this.#state = 'self-closing'
      return this.#accept()
    }
    if (code === LESS_THAN || isLineBreak(code)) return this.#endWithoutGreaterThan()
    // Markerless: only well-formed attributes on openers; closers take none.
    if (this.#marker === 'none' && (this.#closing || !isAsciiLetter(code))) return STEP_REJECT
    if (isNameStart(code)) {
      this.#attributeMask = ATTRIBUTE_NAME_SET.step(ATTRIBUTE_NAME_SET.all, 0, code)
      this.#attributeNameLength = 1
      this.#state = 'attribute-name'
      return this.#accept()
    }
    // Junk inside a markered tag (`<‹DSML›tool name="x"...>`): read past it.
    return this.#accept()
  }

  /** A markered tag may end without `>`; a markerless one may not. */
  #endWithoutGreaterThan(): StepResult {
    return this.#marker === 'none' ? STEP_REJECT : this.#complete(false)
  }

  /** Records an attribute's value `[start, end)`, if it is one the grammar names and the first of its name. */
  #finishAttribute(start: number, end: number): void {
    const id = ATTRIBUTE_NAME_SET.matched(this.#attributeMask, this.#attributeNameLength)
    this.#attributeMask = 0
    if (id === -1 || this.#attributes[id * 2] !== -1) return
    this.#attributes[id * 2] = start
    this.#attributes[id * 2 + 1] = end
  }
}
