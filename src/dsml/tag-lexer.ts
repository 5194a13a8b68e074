/**
 * The DSML tag lexer: reads one tag, a character at a time, and says as early
 * as it can whether the characters seen so far can still be markup.
 *
 * It knows spellings, not structure: which tags nest where is the structure
 * layer's business (`structure.ts`). It never sees the text, only character
 * codes: names and attribute values are kept as offsets into the tag, and
 * `Tag` slices them when asked. So a tag that is rejected
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
  canFollowFragmentBar,
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
  nameKind,
  SLASH,
  SPACE,
  SPECIAL_TOKEN_SET,
  STRING_ATTRIBUTE,
  type TagKind,
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

// The lexer's states. Numbers, not strings, so that `step` compiles to a jump
// table; each is named, and `LexerState` lists them all.
const AFTER_LESS_THAN = 0
const AFTER_SLASH = 1
const SPACE_BEFORE_BARS = 2
const OPENING_BARS = 3
const SPACE_BEFORE_WORD = 4
const WORD = 5
const AFTER_WORD = 6
const CLOSING_BARS = 7
const SPACE_BEFORE_NAME = 8
const NAME = 9
const WORDLESS_NAME = 10
const SPECIAL_BARS = 11
const ATTRIBUTES = 12
const ATTRIBUTE_NAME = 13
const AFTER_ATTRIBUTE_NAME = 14
const BEFORE_ATTRIBUTE_VALUE = 15
const QUOTED_ATTRIBUTE_VALUE = 16
const BARE_ATTRIBUTE_VALUE = 17
const SELF_CLOSING = 18

type LexerState =
  | typeof AFTER_LESS_THAN
  | typeof AFTER_SLASH
  | typeof SPACE_BEFORE_BARS
  | typeof OPENING_BARS
  | typeof SPACE_BEFORE_WORD
  | typeof WORD
  | typeof AFTER_WORD
  | typeof CLOSING_BARS
  | typeof SPACE_BEFORE_NAME
  | typeof NAME
  | typeof WORDLESS_NAME
  | typeof SPECIAL_BARS
  | typeof ATTRIBUTES
  | typeof ATTRIBUTE_NAME
  | typeof AFTER_ATTRIBUTE_NAME
  | typeof BEFORE_ATTRIBUTE_VALUE
  | typeof QUOTED_ATTRIBUTE_VALUE
  | typeof BARE_ATTRIBUTE_VALUE
  | typeof SELF_CLOSING

/** A completed tag as offsets into its text (see `Tag`). One per lexer, filled again by each tag. */
export interface LexedTag {
  closing: boolean
  marker: MarkerKind
  /** Began with a bar: a marker that lost its `<`. */
  fragment: boolean
  /** A DeepSeek special token such as end-of-sentence. */
  special: boolean
  nameStart: number
  nameEnd: number
  /** What the name means (`nameKind`). */
  kind: TagKind
  /** `[start, end]` of the `name`, `string` and `value` attribute values; -1 when absent. */
  attributes: number[]
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

/** A completed tag with its text. Its strings are sliced when first asked for (most tags are text). */
export class Tag {
  readonly text: string
  /** The input the whole tag was read from, and where in it: so a tag that turns out to be text can come out as a range of it. */
  readonly input: string | undefined
  readonly inputStart: number
  readonly closing: boolean
  readonly marker: MarkerKind
  readonly fragment: boolean
  readonly special: boolean
  /** What its name means (`nameKind`). */
  readonly kind: TagKind
  readonly selfClosing: boolean
  readonly terminated: boolean
  readonly broken: boolean
  readonly length: number
  readonly markerStart: number
  readonly markerEnd: number
  #nameStart: number
  #nameEnd: number
  #nameAttributeStart: number
  #nameAttributeEnd: number
  #stringAttributeStart: number
  #stringAttributeEnd: number
  #valueAttributeStart: number
  #valueAttributeEnd: number

  /** `text` starts where the tag starts; `input` holds it at `inputStart`, when it was read from one input. */
  constructor(lexed: LexedTag, text: string, input?: string, inputStart = 0) {
    this.text = text
    this.input = input
    this.inputStart = inputStart
    this.closing = lexed.closing
    this.marker = lexed.marker
    this.fragment = lexed.fragment
    this.special = lexed.special
    this.kind = lexed.kind
    this.selfClosing = lexed.selfClosing
    this.terminated = lexed.terminated
    this.broken = lexed.broken
    this.length = lexed.length
    this.markerStart = lexed.markerStart
    this.markerEnd = lexed.markerEnd
    this.#nameStart = lexed.nameStart
    this.#nameEnd = lexed.nameEnd
    const attributes = lexed.attributes
    this.#nameAttributeStart = attributes[NAME_ATTRIBUTE * 2]!
    this.#nameAttributeEnd = attributes[NAME_ATTRIBUTE * 2 + 1]!
    this.#stringAttributeStart = attributes[STRING_ATTRIBUTE * 2]!
    this.#stringAttributeEnd = attributes[STRING_ATTRIBUTE * 2 + 1]!
    this.#valueAttributeStart = attributes[VALUE_ATTRIBUTE * 2]!
    this.#valueAttributeEnd = attributes[VALUE_ATTRIBUTE * 2 + 1]!
  }

  get name(): string {
    return this.text.slice(this.#nameStart, this.#nameEnd)
  }

  get nameAttribute(): string | undefined {
    return this.#nameAttributeStart === -1 ? undefined : this.text.slice(this.#nameAttributeStart, this.#nameAttributeEnd)
  }

  get stringAttribute(): string | undefined {
    return this.#stringAttributeStart === -1 ? undefined : this.text.slice(this.#stringAttributeStart, this.#stringAttributeEnd)
  }

  get valueAttribute(): string | undefined {
    return this.#valueAttributeStart === -1 ? undefined : this.text.slice(this.#valueAttributeStart, this.#valueAttributeEnd)
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
  #state: LexerState = AFTER_LESS_THAN
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
  /** Filled by each completed tag. */
  #result: LexedTag = {
    closing: false,
    marker: 'none',
    fragment: false,
    special: false,
    nameStart: 0,
    nameEnd: 0,
    kind: 'empty',
    attributes: [-1, -1, -1, -1, -1, -1],
    markerStart: 0,
    markerEnd: 0,
    selfClosing: false,
    terminated: false,
    broken: false,
    length: 0,
  }
  #completed = false

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
    this.#completed = false
    this.#length = 1
    if (this.#attributes[0] !== -1 || this.#attributes[2] !== -1 || this.#attributes[4] !== -1) this.#attributes.fill(-1)
    if (fragment) {
      this.#bars = 1
      this.#markerStart = 0
      this.#markerEnd = 1
      this.#state = OPENING_BARS
    } else {
      this.#bars = 0
      this.#markerStart = 0
      this.#markerEnd = 0
      this.#state = AFTER_LESS_THAN
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

  /** The result, after a completing step; valid until the next `begin`. */
  tag(): LexedTag {
    if (!this.#completed) throw new Error('Cannot read tag: the lexer has not completed one')
    return this.#result
  }

  /** Changes which markerless names are allowed (when the surrounding candidate is released). */
  setNames(names: MarkerlessNames): void {
    this.#names = names
  }

  /**
   * Steps through `text` from `from` until the tag is decided, the text
   * ends (`end`), or the tag, uncommitted, reaches `budget` characters.
   * Returns the index it stopped at: the deciding character (its result in
   * `lastStep`), or where it stopped with the tag going on (`lastStep` is
   * STEP_CONTINUE). The same as `step` on each character, with a quoted
   * value's plain characters taken as one run.
   */
  run(text: string, from: number, end: number, budget: number): number {
    let index = from
    while (index < end) {
      if (this.#length >= budget && !this.#committed) break
      if (this.#state === QUOTED_ATTRIBUTE_VALUE) {
        index = this.#quotedRun(text, index, end, budget)
        if (index >= end || (this.#length >= budget && !this.#committed)) break
      }
      const step = this.step(text.charCodeAt(index))
      if (step !== STEP_CONTINUE) {
        this.lastStep = step
        return index
      }
      index++
    }
    this.lastStep = STEP_CONTINUE
    return index
  }

  /** The result of the character `run` stopped at. */
  lastStep: StepResult = STEP_CONTINUE

  /** Inside a quoted value: takes every character `step` would take plainly, up to the first that needs a decision. */
  #quotedRun(text: string, index: number, end: number, budget: number): number {
    const limit = Math.min(this.#maxTagChars, this.#committed ? Number.MAX_SAFE_INTEGER : budget)
    const markerless = this.#marker === 'none'
    const quote = this.#closingQuote
    let length = this.#length
    while (index < end && length < limit) {
      const code = text.charCodeAt(index)
      if (code === quote || (markerless && (code === LESS_THAN || isLineBreak(code) || isBar(code)))) break
      length++
      index++
    }
    this.#length = length
    return index
  }

  step(code: number): StepResult {
    if (this.#length >= this.#maxTagChars) {
      if (!this.#committed) return STEP_REJECT
      this.#broken = true
      return this.#complete(false)
    }
    switch (this.#state) {
      case AFTER_LESS_THAN:
        if (!canFollowLessThan(code, this.#names)) return STEP_REJECT
        if (code === SLASH) {
          this.#closing = true
          this.#state = AFTER_SLASH
          return this.#accept()
        }
        return this.#afterOpening(code)
      case AFTER_SLASH:
        if (!canFollowClosingSlash(code, this.#names)) return STEP_REJECT
        return this.#afterOpening(code)
      case SPACE_BEFORE_BARS:
        if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
          this.#spaces++
          return this.#accept()
        }
        if (isBar(code)) return this.#firstBar()
        return STEP_REJECT
      case OPENING_BARS:
        return this.#openingBars(code)
      case SPACE_BEFORE_WORD:
        if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
          this.#spaces++
          return this.#accept()
        }
        if (code === LATIN_CAPITAL_D) {
          this.#wordIndex = 1
          this.#state = WORD
          return this.#accept()
        }
        return STEP_REJECT
      case WORD:
        return this.#word(code)
      case AFTER_WORD:
        if (isBar(code)) {
          this.#bars = 1
          this.#state = CLOSING_BARS
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
      case CLOSING_BARS:
        if (isBar(code) && this.#bars < MAX_MARKER_BARS) {
          this.#bars++
          this.#markerEnd = this.#length + 1
          if (this.#fragment) this.#fragmentEnd = this.#length + 1
          return this.#accept()
        }
        this.#spaces = 0
        this.#state = SPACE_BEFORE_NAME
        return this.#afterMarker(code)
      case SPACE_BEFORE_NAME:
        return this.#afterMarker(code)
      case NAME:
        return this.#name(code)
      case WORDLESS_NAME:
        return this.#wordlessName(code)
      case SPECIAL_BARS:
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
      case ATTRIBUTES:
        return this.#attributesStep(code)
      case ATTRIBUTE_NAME:
        if (isTagNameCharacter(code) && this.#attributeNameLength < MAX_ATTRIBUTE_NAME_LENGTH) {
          this.#attributeMask = ATTRIBUTE_NAME_SET.step(this.#attributeMask, this.#attributeNameLength, code)
          this.#attributeNameLength++
          return this.#accept()
        }
        if (isMarkerSpace(code)) {
          this.#state = AFTER_ATTRIBUTE_NAME
          return this.#accept()
        }
        if (code === EQUALS) {
          this.#state = BEFORE_ATTRIBUTE_VALUE
          return this.#accept()
        }
        this.#finishAttribute(this.#length, this.#length)
        this.#state = ATTRIBUTES
        return this.#attributesStep(code)
      case AFTER_ATTRIBUTE_NAME:
        if (isMarkerSpace(code)) return this.#accept()
        if (code === EQUALS) {
          this.#state = BEFORE_ATTRIBUTE_VALUE
          return this.#accept()
        }
        this.#finishAttribute(this.#length, this.#length)
        this.#state = ATTRIBUTES
        return this.#attributesStep(code)
      case BEFORE_ATTRIBUTE_VALUE: {
        if (isMarkerSpace(code)) return this.#accept()
        const closingQuote = closingQuoteOf(code)
        if (closingQuote !== -1) {
          this.#closingQuote = closingQuote
          this.#valueStart = this.#length + 1
          this.#state = QUOTED_ATTRIBUTE_VALUE
          return this.#accept()
        }
        if (code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
          this.#finishAttribute(this.#length, this.#length)
          this.#state = ATTRIBUTES
          return this.#attributesStep(code)
        }
        if (this.#marker === 'none' && isBar(code)) return STEP_REJECT
        this.#valueStart = this.#length
        this.#state = BARE_ATTRIBUTE_VALUE
        return this.#accept()
      }
      case QUOTED_ATTRIBUTE_VALUE:
        if (code === this.#closingQuote) {
          this.#finishAttribute(this.#valueStart, this.#length)
          this.#state = ATTRIBUTES
          return this.#accept()
        }
        if (this.#marker === 'none' && (code === LESS_THAN || isLineBreak(code) || isBar(code))) return STEP_REJECT
        return this.#accept()
      case BARE_ATTRIBUTE_VALUE:
        if (isMarkerSpace(code) || code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
          this.#finishAttribute(this.#valueStart, this.#length)
          this.#state = ATTRIBUTES
          return this.#attributesStep(code)
        }
        if (this.#marker === 'none' && isBar(code)) return STEP_REJECT
        return this.#accept()
      case SELF_CLOSING:
        if (code === GREATER_THAN) {
          this.#selfClosing = true
          this.#terminated = true
          return this.#complete(true)
        }
        if (this.#marker === 'none') return STEP_REJECT
        this.#state = ATTRIBUTES
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
      if (this.#marker === 'bars' && this.#state === WORDLESS_NAME && KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) {
        this.#complete(false)
        return STEP_COMPLETE_BEFORE
      }
      return STEP_REJECT
    }
    if (this.#fragment) {
      const knownName = this.#state === NAME && KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)
      this.#complete(false, knownName ? this.#length : this.#fragmentEnd)
      return STEP_COMPLETE_BEFORE
    }
    switch (this.#state) {
      case QUOTED_ATTRIBUTE_VALUE:
        this.#broken = true
        this.#finishAttribute(this.#valueStart, this.#length)
        break
      case BARE_ATTRIBUTE_VALUE:
        this.#finishAttribute(this.#valueStart, this.#length)
        break
      case ATTRIBUTE_NAME:
      case AFTER_ATTRIBUTE_NAME:
      case BEFORE_ATTRIBUTE_VALUE:
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
    const result = this.#result
    result.closing = this.#closing
    result.marker = this.#marker
    result.fragment = this.#fragment
    result.special = this.#special
    result.nameStart = this.#nameStart
    result.nameEnd = this.#nameStart + this.#nameLength
    result.kind = nameKind(this.#knownMask, this.#nameLength, this.#closing)
    for (let index = 0; index < 6; index++) result.attributes[index] = this.#attributes[index]!
    result.markerStart = this.#markerStart
    result.markerEnd = this.#markerEnd
    result.selfClosing = this.#selfClosing
    result.terminated = this.#terminated
    result.broken = this.#broken
    result.length = tagLength ?? this.#length
    this.#completed = true
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
      this.#state = SPACE_BEFORE_BARS
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
    this.#state = OPENING_BARS
    return this.#accept()
  }

  #openingBars(code: number): StepResult {
    if (this.#fragment && !canFollowFragmentBar(code)) return STEP_REJECT
    if (isBar(code)) {
      if (this.#bars >= (this.#fragment ? MAX_MARKER_BARS : MAX_WORDLESS_BARS)) return STEP_REJECT
      this.#bars++
      this.#markerEnd = this.#length + 1
      return this.#accept()
    }
    if (code === LATIN_CAPITAL_D && this.#bars <= MAX_MARKER_BARS) {
      this.#wordIndex = 1
      this.#state = WORD
      return this.#accept()
    }
    if (this.#fragment) return STEP_REJECT
    if (isMarkerSpace(code) && this.#bars <= MAX_MARKER_BARS) {
      this.#spaces = 1
      this.#state = SPACE_BEFORE_WORD
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
    this.#state = WORDLESS_NAME
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
      this.#state = AFTER_WORD
    }
    return this.#accept()
  }

  /** After the marker (and its closing bars): a name, `>`, `/`, or the end of a bare marker. */
  #afterMarker(code: number): StepResult {
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      this.#state = SPACE_BEFORE_NAME
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
      this.#state = SELF_CLOSING
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
    this.#state = NAME
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
      this.#state = SPECIAL_BARS
      return this.#accept()
    }
    if (!KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) return STEP_REJECT
    return this.#nameEnded(code)
  }

  #nameEnded(code: number): StepResult {
    // Past a known name, a wordless tag can no longer be text (see `#attributesStep`).
    if (this.#marker === 'bars') this.#committed = true
    this.#state = ATTRIBUTES
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
      this.#state = SELF_CLOSING
      return this.#accept()
    }
    if (code === LESS_THAN || isLineBreak(code)) return this.#endWithoutGreaterThan()
    // Markerless: only well-formed attributes on openers; closers take none.
    if (this.#marker === 'none' && (this.#closing || !isAsciiLetter(code))) return STEP_REJECT
    if (isNameStart(code)) {
      this.#attributeMask = ATTRIBUTE_NAME_SET.step(ATTRIBUTE_NAME_SET.all, 0, code)
      this.#attributeNameLength = 1
      this.#state = ATTRIBUTE_NAME
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
