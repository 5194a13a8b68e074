/**
 * The marker of a tag, a character at a time: from its `<` (or a fragment's
 * first bar) through slashes, spaces, bars, the word `DSML` (in drift, a
 * drifted word) and the closing bars, up to where a name, the attribute list
 * or the tag's end begins. The tag lexer (`tag-lexer.ts`) hands it each
 * character until it says what comes next (`MarkerStep`); what it read stays
 * on its fields, the handoff record the name reader and the lexer go on with
 * (and add to: a commitment, a special token's bars, a drifted word).
 *
 * Each character's result is a tag step (`tag.ts`) or a handoff: `NEXT_NAME`
 * (the character begins a name), `NEXT_WORDLESS_NAME` (it began one after
 * bars, and was read), `NEXT_ATTRIBUTES` (it begins the attribute list),
 * `NEXT_ATTRIBUTES_AFTER_SLASH` (the list the `/` before it began),
 * `NEXT_FRAGMENT_END` (a fragment ends after its marker, at `fragmentEnd`).
 * STEP_COMPLETE and STEP_COMPLETE_BEFORE end the tag where it stands (a bare
 * marker, a special token).
 *
 * The shapes of the tags whose marker it reads (bars are the grammar's
 * `BARS`; "slash" is `/`, up to two with spaces between them:
 * `</ / | DSML | parameter>`):
 * - `<` spaces? slash? spaces? bars(1–2) spaces? `DSML` spaces? bars(0–2) spaces? `/`? name attributes `/`? `>`
 *   (the bars of a doubled run may have spaces between them: `< | | DSML | | calls>`;
 *   a `/` after the marker makes a closer too: `<‹DSML›/invoke>`; `=` right after the name
 *   is its name attribute: `<‹DSML›r=bash>`, `<‹DSML›parameter=command>`)
 * - `<` slash? spaces? bars(1–4) name …     an inner tag with bars but no word
 * - `<` slash? spaces? bars spaces? special-token spaces? bars spaces? `>`   `<‹end▁of▁sentence›>`, `< | tool▁sep | >`
 * - `<` `/`? name …                      markerless, only for names the context allows
 *   (`<` spaces name for the spaced ones: `< calls>`)
 * - bars(1–2) `DSML` bars(1–2) name? …   a fragment that lost its `<`; in bars that never
 *   stand next to the word in prose (`isMarkupOnlyBar`), or in drift, with spaces anywhere
 *   in its marker and its second bar lost: `‹DSML ›invoke`, `‹DSMLtool_use>`, `‹DSML›/invoke>`
 * - in drift (inside markup a real marker opened, `TagContext.drift`), a marker
 *   whose word drifted: `<` slash? spaces? bars(1–2) spaces? WORD spaces? bars(1–2)
 *   KNOWN-NAME …, WORD any 1–`MAX_DRIFTED_WORD_LENGTH` letters (`</|EPSE|parameter>`),
 *   or the word `DSML` with no bars (`<DSMLinvoke …>`)
 *
 * A markered tag may lose its `>`: it then ends at a line break or at the next `<`.
 */
import { canFollowClosingSlash, canFollowFragmentBar, canFollowLessThan, canFollowSpaceAfterLessThan, NO_NAMES, type TagContext } from './markup-starts.ts'
import {
  GREATER_THAN,
  isAsciiLetter,
  isBar,
  isMarkerSpace,
  isMarkupOnlyBar,
  isNameStart,
  KNOWN_NAME_SET,
  LATIN_CAPITAL_D,
  LESS_THAN,
  MARKER_WORD,
  MARKERLESS_CLOSER_SET,
  MARKERLESS_OPENER_SET,
  MAX_CLOSER_SLASHES,
  MAX_DRIFTED_WORD_LENGTH,
  MAX_MARKER_BARS,
  MAX_MARKER_SPACES,
  MAX_WORDLESS_BARS,
  SLASH,
  SPACED_OPENER_MASK,
  SPECIAL_TOKEN_SET,
} from './grammar.ts'
import type { WordSet } from './word-set.ts'
import { type LexedTag, type MarkerKind, STEP_COMPLETE, STEP_COMPLETE_BEFORE, STEP_CONTINUE, STEP_REJECT, type StepResult } from './tag.ts'

// What comes after the marker (besides the tag steps).
/** The character begins a name (a markerless one when `kind` is 'none'; only a spaced opener's when `spacedOpener`). */
export const NEXT_NAME = 4
/** The character began a name after bars without the word (read): `knownMask`, `specialMask`, `lettersOnly` say which. */
export const NEXT_WORDLESS_NAME = 5
/** The character begins the attribute list. */
export const NEXT_ATTRIBUTES = 6
/** The `/` before the character began the attribute list (`<‹DSML›/ x>`). */
export const NEXT_ATTRIBUTES_AFTER_SLASH = 7
/** A fragment ends after its marker, at `fragmentEnd`, before the character. */
export const NEXT_FRAGMENT_END = 8

export type MarkerStep =
  | StepResult
  | typeof NEXT_NAME
  | typeof NEXT_WORDLESS_NAME
  | typeof NEXT_ATTRIBUTES
  | typeof NEXT_ATTRIBUTES_AFTER_SLASH
  | typeof NEXT_FRAGMENT_END

// The reader's states, named.
const AFTER_LESS_THAN = 0
const AFTER_SLASH = 1
const SPACE_BEFORE_BARS = 2
const OPENING_BARS = 3
const SPACE_BEFORE_WORD = 4
const WORD = 5
const DRIFTED_WORD = 6
const AFTER_WORD = 7
const CLOSING_BARS = 8
const SPACE_BEFORE_NAME = 9
const SLASH_AFTER_MARKER = 10
const SPACE_AFTER_TOKEN = 11
const SPECIAL_BARS = 12

type ReaderState =
  | typeof AFTER_LESS_THAN
  | typeof AFTER_SLASH
  | typeof SPACE_BEFORE_BARS
  | typeof OPENING_BARS
  | typeof SPACE_BEFORE_WORD
  | typeof WORD
  | typeof DRIFTED_WORD
  | typeof AFTER_WORD
  | typeof CLOSING_BARS
  | typeof SPACE_BEFORE_NAME
  | typeof SLASH_AFTER_MARKER
  | typeof SPACE_AFTER_TOKEN
  | typeof SPECIAL_BARS

/** A class: one per lexer, its fields numbers and booleans (the handoff record). */
export class MarkerReader {
  context: TagContext = NO_NAMES
  closing = false
  fragment = false
  /** A fragment's first bar. */
  firstBar = 0
  /** A fragment whose marker may have spaces and lose its second bar (markup-only bars, or drift). */
  looseFragment = false
  kind: MarkerKind = 'none'
  /** Nothing can make the tag text any more (see `tag-lexer.ts`). */
  committed = false
  bars = 0
  spaces = 0
  wordStart = 0
  wordEnd = 0
  /** A drifted marker word (drift): the tag commits only at a known name. */
  driftedWord = false
  markerStart = 0
  markerEnd = 0
  /** For fragments: the length after the marker's closing bars. */
  fragmentEnd = 0
  terminated = false
  /** A special token (`<‹end▁of▁sentence›>`, `< | tool▁sep | >`): its name was read by the name reader, its closing bars here. */
  special = false
  /** After NEXT_NAME: the name must be a spaced markerless opener's (`< calls>`). */
  spacedOpener = false
  /** After NEXT_WORDLESS_NAME: the known names and special tokens its first character may begin, and whether it is a letter. */
  knownMask = 0
  specialMask = 0
  lettersOnly = true
  #state: ReaderState = AFTER_LESS_THAN
  /** Slashes read before the marker (`</ /`). */
  #slashes = 0
  #wordIndex = 0
  #driftedLength = 0
  /** The opening bars had a space between them (`< | |`): the run is complete. */
  #spacedBars = false

  /** Starts a marker at `first`: a `<`, or a bar (a fragment that lost its `<`). */
  begin(first: number, context: TagContext): void {
    const fragment = first !== LESS_THAN
    this.context = context
    this.fragment = fragment
    this.firstBar = first
    this.looseFragment = fragment && (isMarkupOnlyBar(first) || context.drift)
    this.closing = false
    this.#slashes = 0
    this.driftedWord = false
    this.#driftedLength = 0
    this.wordStart = 0
    this.wordEnd = 0
    this.kind = 'none'
    this.committed = false
    this.spaces = 0
    this.#spacedBars = false
    this.terminated = false
    this.special = false
    this.spacedOpener = false
    this.markerStart = 0
    if (fragment) {
      this.bars = 1
      this.markerEnd = 1
      this.#state = OPENING_BARS
    } else {
      this.bars = 0
      this.markerEnd = 0
      this.#state = AFTER_LESS_THAN
    }
  }

  /**
   * Does `code`, read next at `at`, reject the tag at its start: after `<`,
   * after `</`, or after a fragment's first bar?
   */
  rejectsStart(code: number, at: number): boolean {
    switch (this.#state) {
      case AFTER_LESS_THAN:
        return !canFollowLessThan(code, this.context)
      case AFTER_SLASH:
        return !canFollowClosingSlash(code, this.context)
      case OPENING_BARS:
        return this.fragment && at === 1 && !canFollowFragmentBar(this.firstBar, code, this.context)
      default:
        return false
    }
  }

  /** The character `code`, at `at` (the characters before it); STEP_CONTINUE when it was read and the marker goes on. */
  step(code: number, at: number): MarkerStep {
    switch (this.#state) {
      case AFTER_LESS_THAN:
        return this.#afterLessThan(code, at)
      case AFTER_SLASH:
        if (!canFollowClosingSlash(code, this.context)) return STEP_REJECT
        return this.#afterOpening(code, at)
      case SPACE_BEFORE_BARS:
        return this.#spaceBeforeBars(code, at)
      case OPENING_BARS:
        return this.#openingBars(code, at)
      case SPACE_BEFORE_WORD:
        return this.#spaceBeforeWord(code, at)
      case WORD:
        return this.#word(code, at)
      case DRIFTED_WORD:
        return this.#driftedWordStep(code, at)
      case AFTER_WORD:
        return this.#afterWord(code, at)
      case CLOSING_BARS:
        return this.#closingBars(code, at)
      case SPACE_BEFORE_NAME:
        return this.#spaceBeforeName(code, at)
      case SLASH_AFTER_MARKER:
        return this.#slashAfterMarker(code)
      case SPACE_AFTER_TOKEN:
        return this.#spaceAfterToken(code, at)
      case SPECIAL_BARS:
        return this.#specialBars(code, at)
    }
  }

  /**
   * The input ended inside the marker: STEP_REJECT when nothing committed
   * the tag (its `<`, slashes and bars are text), else STEP_COMPLETE_BEFORE:
   * a tag that ends with the input (a fragment, at `fragmentEnd`).
   */
  finish(): typeof STEP_REJECT | typeof STEP_COMPLETE_BEFORE {
    return this.committed ? STEP_COMPLETE_BEFORE : STEP_REJECT
  }

  /** The name reader read a whole special token's name: spaces and its closing bars follow, read here. */
  afterSpecialToken(): void {
    this.spaces = 0
    this.#state = SPACE_AFTER_TOKEN
  }

  /**
   * A name the name reader read after bars, neither a known name nor a special
   * token, from `start` for `length` letters: in drift, the marker's word
   * drifted (`<|EPSE|invoke`). Reading goes on here, at `DRIFTED_WORD`.
   */
  resumeDriftedWord(start: number, length: number): void {
    this.kind = 'none'
    this.wordStart = start
    this.#driftedLength = length
    this.spaces = 0
    this.#state = DRIFTED_WORD
  }

  /** Writes what the marker says of the tag into `tag` (the lexer's result). */
  describe(tag: LexedTag): void {
    tag.closing = this.closing
    tag.marker = this.kind
    tag.fragment = this.fragment
    tag.special = this.special
    tag.driftedWord = this.driftedWord
    tag.wordStart = this.wordStart
    tag.wordEnd = this.wordEnd
    tag.markerStart = this.markerStart
    tag.markerEnd = this.markerEnd
    tag.terminated = this.terminated
  }

  /** The markerless names of this tag's direction, allowed or not. */
  markerlessSet(): WordSet {
    return this.closing ? MARKERLESS_CLOSER_SET : MARKERLESS_OPENER_SET
  }

  /** Are markerless names of this tag's direction allowed where it stands? */
  markerlessAllowed(): boolean {
    return this.closing ? this.context.closers : this.context.openers
  }

  /** May the name reader's wordless name, no known name nor special token, be a drifted word? Letters only, after one or two bars, in drift. */
  mayDrift(lettersOnly: boolean, length: number): boolean {
    return this.context.drift && lettersOnly && this.bars <= MAX_MARKER_BARS && length <= MAX_DRIFTED_WORD_LENGTH
  }

  // ── AFTER_LESS_THAN, AFTER_SLASH, SPACE_BEFORE_BARS ────────────────────

  #afterLessThan(code: number, at: number): MarkerStep {
    if (!canFollowLessThan(code, this.context)) return STEP_REJECT
    if (code === SLASH) {
      this.closing = true
      this.#slashes = 1
      this.#state = AFTER_SLASH
      return STEP_CONTINUE
    }
    return this.#afterOpening(code, at)
  }

  /** After `<` or `</`: spaces before bars, the first bar, a markerless name, or (drift) the word with its bars lost. */
  #afterOpening(code: number, at: number): MarkerStep {
    if (isMarkerSpace(code)) {
      this.spaces = 1
      this.#state = SPACE_BEFORE_BARS
      return STEP_CONTINUE
    }
    if (isBar(code)) return this.#startBars(at)
    if (code === LATIN_CAPITAL_D && this.context.drift) {
      this.bars = 0
      this.markerStart = at
      return this.#startWord(at)
    }
    if (!this.markerlessAllowed() || !isAsciiLetter(code)) return STEP_REJECT
    return NEXT_NAME
  }

  /**
   * After `<` or `</` and spaces: more spaces, the first bar, a `/` (a closer
   * written `< /`, or with its slash doubled: `</ /`), or a spaced markerless
   * opener's name (`< calls>`).
   */
  #spaceBeforeBars(code: number, at: number): MarkerStep {
    if (!this.closing && !canFollowSpaceAfterLessThan(code, this.context)) return STEP_REJECT
    if (isMarkerSpace(code) && this.spaces < MAX_MARKER_SPACES) {
      this.spaces++
      return STEP_CONTINUE
    }
    if (isBar(code)) return this.#startBars(at)
    if (code === SLASH && this.#slashes < MAX_CLOSER_SLASHES) {
      this.closing = true
      this.#slashes++
      this.spaces = 0
      return STEP_CONTINUE
    }
    if (!this.closing && this.context.openers && MARKERLESS_OPENER_SET.step(SPACED_OPENER_MASK, 0, code) !== 0) {
      this.spacedOpener = true
      return NEXT_NAME
    }
    return STEP_REJECT
  }

  // ── OPENING_BARS, SPACE_BEFORE_WORD ───────────────────────────────────

  #startBars(at: number): MarkerStep {
    this.bars = 1
    this.markerStart = at
    this.markerEnd = at + 1
    this.#state = OPENING_BARS
    return STEP_CONTINUE
  }

  #openingBars(code: number, at: number): MarkerStep {
    if (isBar(code)) {
      // After a spaced pair (`< | |`) a third bar rejects here, where it may start a tag of its own.
      // A loose fragment's bars may run on, spaced (`‹ ‹| DSML`), up to the wordless limit.
      const limit = this.looseFragment ? MAX_WORDLESS_BARS : this.#spacedBars ? 0 : this.fragment ? MAX_MARKER_BARS : MAX_WORDLESS_BARS
      if (this.bars >= limit) return STEP_REJECT
      this.bars++
      this.markerEnd = at + 1
      return STEP_CONTINUE
    }
    if (code === LATIN_CAPITAL_D && this.bars <= this.#wordBars()) return this.#startWord(at)
    if (isMarkerSpace(code) && this.bars <= this.#wordBars() && (!this.fragment || this.looseFragment)) {
      this.spaces = 1
      this.#state = SPACE_BEFORE_WORD
      return STEP_CONTINUE
    }
    if (this.fragment || !isAsciiLetter(code)) return STEP_REJECT
    // Bars without the word: an inner tag name or a special token (or, in drift, a drifted word).
    this.knownMask = KNOWN_NAME_SET.step(KNOWN_NAME_SET.all, 0, code)
    this.specialMask = SPECIAL_TOKEN_SET.step(SPECIAL_TOKEN_SET.all, 0, code)
    if (this.knownMask === 0 && this.specialMask === 0) return this.#startDriftedWord(code, at)
    this.kind = 'bars'
    this.lettersOnly = true
    return NEXT_WORDLESS_NAME
  }

  /** After the opening bars and spaces: more spaces, another bar (`| |`), or the word. */
  #spaceBeforeWord(code: number, at: number): MarkerStep {
    if (isMarkerSpace(code) && this.spaces < MAX_MARKER_SPACES) {
      this.spaces++
      return STEP_CONTINUE
    }
    if (isBar(code) && this.bars < this.#wordBars()) {
      this.bars++
      this.#spacedBars = true
      this.markerEnd = at + 1
      this.#state = OPENING_BARS
      return STEP_CONTINUE
    }
    if (code === LATIN_CAPITAL_D) return this.#startWord(at)
    if (this.fragment) return STEP_REJECT
    // A special token in the spaced spelling (`< | tool▁sep | >`), or (drift) a drifted word.
    this.specialMask = SPECIAL_TOKEN_SET.step(SPECIAL_TOKEN_SET.all, 0, code)
    if (this.specialMask === 0) return this.#startDriftedWord(code, at)
    this.knownMask = 0
    this.kind = 'bars'
    this.lettersOnly = isAsciiLetter(code)
    return NEXT_WORDLESS_NAME
  }

  /** Bars the word may follow: one or two; a loose fragment's run up to the wordless limit. */
  #wordBars(): number {
    return this.looseFragment ? MAX_WORDLESS_BARS : MAX_MARKER_BARS
  }

  // ── WORD, DRIFTED_WORD ────────────────────────────────────────────────

  #startWord(at: number): MarkerStep {
    this.#wordIndex = 1
    this.wordStart = at
    this.#state = WORD
    return STEP_CONTINUE
  }

  #word(code: number, at: number): MarkerStep {
    if (code !== MARKER_WORD.charCodeAt(this.#wordIndex)) {
      // In drift, another word between bars is the marker's word drifted (`|DSMP|`, `|D|`).
      if (this.bars === 0 || this.fragment || !this.context.drift) return STEP_REJECT
      this.#driftedLength = this.#wordIndex
      this.spaces = 0
      this.#state = DRIFTED_WORD
      return this.#driftedWordStep(code, at)
    }
    this.#wordIndex++
    if (this.#wordIndex === MARKER_WORD.length) {
      this.kind = 'dsml'
      this.wordEnd = at + 1
      if (!this.fragment || this.looseFragment) this.committed = true
      if (this.looseFragment) this.fragmentEnd = at + 1
      this.markerEnd = at + 1
      this.spaces = 0
      this.bars = 0
      this.#state = AFTER_WORD
    }
    return STEP_CONTINUE
  }

  /** A drifted word's first letter, right after the opening bars (and spaces): only in drift, and only between one or two bars. */
  #startDriftedWord(code: number, at: number): MarkerStep {
    if (!this.context.drift || this.fragment || !isAsciiLetter(code) || this.bars > MAX_MARKER_BARS) return STEP_REJECT
    this.wordStart = at
    this.#driftedLength = 1
    this.spaces = 0
    this.#state = DRIFTED_WORD
    return STEP_CONTINUE
  }

  /**
   * A drifted marker word: more letters (up to `MAX_DRIFTED_WORD_LENGTH`),
   * spaces, then its closing bar. It stays uncommitted until a known tag name
   * follows (`NameReader`, where the name ends).
   */
  #driftedWordStep(code: number, at: number): MarkerStep {
    if (isAsciiLetter(code) && this.spaces === 0) {
      if (this.#driftedLength >= MAX_DRIFTED_WORD_LENGTH) return STEP_REJECT
      this.#driftedLength++
      return STEP_CONTINUE
    }
    if (isMarkerSpace(code) && this.spaces < MAX_MARKER_SPACES) {
      this.spaces++
      return STEP_CONTINUE
    }
    if (!isBar(code)) return STEP_REJECT
    this.kind = 'dsml'
    this.driftedWord = true
    this.wordEnd = this.wordStart + this.#driftedLength
    this.bars = 1
    this.markerEnd = at + 1
    this.#state = CLOSING_BARS
    return STEP_CONTINUE
  }

  // ── AFTER_WORD, CLOSING_BARS, SPACE_BEFORE_NAME, SLASH_AFTER_MARKER ─────

  #afterWord(code: number, at: number): MarkerStep {
    if (isBar(code)) {
      this.bars = 1
      this.#state = CLOSING_BARS
      this.markerEnd = at + 1
      if (this.fragment) {
        this.committed = true
        this.fragmentEnd = at + 1
      }
      return STEP_CONTINUE
    }
    if (this.fragment && !this.looseFragment) return STEP_REJECT
    if (isMarkerSpace(code) && this.spaces < MAX_MARKER_SPACES) {
      this.spaces++
      return STEP_CONTINUE
    }
    return this.#spaceBeforeName(code, at)
  }

  #closingBars(code: number, at: number): MarkerStep {
    if (isBar(code) && this.bars < MAX_MARKER_BARS) {
      this.bars++
      this.markerEnd = at + 1
      if (this.fragment) this.fragmentEnd = at + 1
      return STEP_CONTINUE
    }
    this.spaces = 0
    this.#state = SPACE_BEFORE_NAME
    return this.#spaceBeforeName(code, at)
  }

  /** After the marker (and its closing bars), spaces and then: a name, `>`, `/`, or the end of a bare marker. */
  #spaceBeforeName(code: number, at: number): MarkerStep {
    if (isMarkerSpace(code) && this.spaces < MAX_MARKER_SPACES) {
      this.spaces++
      this.#state = SPACE_BEFORE_NAME
      return STEP_CONTINUE
    }
    if (isNameStart(code)) return NEXT_NAME
    if (isBar(code) && this.bars > 0 && this.bars < MAX_MARKER_BARS && (!this.fragment || this.looseFragment)) {
      // A closing bar after a space (`DSML | | calls`): the marker goes on.
      this.bars++
      this.markerEnd = at + 1
      if (this.fragment) this.fragmentEnd = at + 1
      this.#state = CLOSING_BARS
      return STEP_CONTINUE
    }
    if (code === SLASH && !this.closing) {
      // `<‹DSML›/invoke>`: the closer's slash drifted past the marker (or a self-closing bare marker).
      this.#state = SLASH_AFTER_MARKER
      return STEP_CONTINUE
    }
    // A drifted marker word is markup only before a known name.
    if (this.driftedWord) return STEP_REJECT
    if (this.fragment) {
      if (code === GREATER_THAN && at === this.fragmentEnd) {
        this.terminated = true
        return STEP_COMPLETE
      }
      return NEXT_FRAGMENT_END
    }
    if (code === GREATER_THAN) {
      this.terminated = true
      return STEP_COMPLETE
    }
    if (code === SLASH) return NEXT_ATTRIBUTES
    return STEP_COMPLETE_BEFORE
  }

  /** After `<‹DSML›/`: a name makes the tag a closer; anything else is the attribute list its `/` began (a fragment ends before the `/`). */
  #slashAfterMarker(code: number): MarkerStep {
    if (isNameStart(code)) {
      this.closing = true
      return NEXT_NAME
    }
    if (this.driftedWord) return STEP_REJECT
    if (this.fragment) return NEXT_FRAGMENT_END
    return NEXT_ATTRIBUTES_AFTER_SLASH
  }

  // ── SPACE_AFTER_TOKEN, SPECIAL_BARS ───────────────────────────────────

  /** After a whole special token: spaces (`< | tool▁sep | >`), then its first closing bar. */
  #spaceAfterToken(code: number, at: number): MarkerStep {
    if (isMarkerSpace(code) && this.spaces < MAX_MARKER_SPACES) {
      this.spaces++
      return STEP_CONTINUE
    }
    if (!isBar(code)) return STEP_REJECT
    // A whole special token and its first closing bar: a special token, even if its `>` is lost. Committed here, so
    // the closing bars may have spaces between them (`| |`) with no later rejection that could hide a tag start.
    this.bars = 1
    this.spaces = 0
    this.special = true
    this.committed = true
    this.markerEnd = at + 1
    this.#state = SPECIAL_BARS
    return STEP_CONTINUE
  }

  /** A special token's closing bars, spaces after them, then `>`. */
  #specialBars(code: number, at: number): MarkerStep {
    if (isBar(code) && this.bars < MAX_MARKER_BARS) {
      this.bars++
      this.spaces = 0
      this.markerEnd = at + 1
      return STEP_CONTINUE
    }
    if (isMarkerSpace(code) && this.spaces < MAX_MARKER_SPACES) {
      this.spaces++
      return STEP_CONTINUE
    }
    if (code !== GREATER_THAN) return STEP_COMPLETE_BEFORE // its `>` was lost
    this.terminated = true
    return STEP_COMPLETE
  }
}
