/**
 * The DSML tag lexer: reads one tag, a character at a time, and says as early
 * as it can whether the characters seen so far can still be markup.
 *
 * It knows spellings, not structure: which tags nest where is the structure
 * layer's business (`structure.ts`); the attribute list after a name is read
 * by `AttributeReader`. It sees character codes, not strings: names and
 * attribute values are kept as offsets into the tag, and `Tag` slices them
 * when asked. So a tag that is rejected
 * after a character or two costs no allocation.
 *
 * Shapes read (bars are the grammar's `BARS`; "slash" is `/`, up to two with
 * spaces between them: `</ / | DSML | parameter>`):
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
 *
 * **Commitment.** A tag is *committed* once nothing can make it text any more:
 * at the word `DSML` (a fragment: at its closing bar, or at the word in
 * markup-only bars or in drift), when a wordless tag's known name ends, or
 * when a drifted marker's known name ends. A committed tag that grows past the
 * tag limit is completed as `broken`, never released. An uncommitted tag can
 * only grow that long if it is markerless, and a markerless tag holds no `<`
 * and no bar, so nothing inside it could start another tag: releasing it as
 * text is safe.
 */
import type { WordSet } from './word-set.ts'
import { AttributeReader } from './attribute-reader.ts'
import {
  type LexedTag,
  type MarkerKind,
  STEP_COMPLETE,
  STEP_COMPLETE_BEFORE,
  STEP_CONTINUE,
  STEP_REJECT,
  type StepResult,
} from './tag.ts'
import { canEndMarkerlessOpenerName, COMPACT_NAME_SET, NAME_ATTRIBUTE, compactKind, EQUALS, GREATER_THAN, isAsciiLetter, isBar, isLineBreak, isMarkerSpace, isMarkupOnlyBar, isNameStart, isSpecialTokenSeparator, isTagNameCharacter, KNOWN_NAME_SET, LATIN_CAPITAL_D, LESS_THAN, MARKER_WORD, MARKERLESS_CLOSER_SET, MARKERLESS_OPENER_SET, MAX_CLOSER_SLASHES, MAX_DRIFTED_WORD_LENGTH, MAX_MARKER_BARS, MAX_MARKER_SPACES, MAX_TAG_NAME_LENGTH, MAX_WORDLESS_BARS, nameKind, SLASH, SPACE, SPACED_OPENER_MASK, SPECIAL_TOKEN_SET, specialTokenOf } from './grammar.ts'
import { canFollowClosingSlash, canFollowFragmentBar, canFollowLessThan, canFollowSpaceAfterLessThan, NO_NAMES, type TagContext } from './markup-starts.ts'

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
const ATTRIBUTE_LIST = 12
const SPACE_AFTER_TOKEN = 13
const DRIFTED_WORD = 14
const SLASH_AFTER_MARKER = 15

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
  | typeof ATTRIBUTE_LIST
  | typeof SPACE_AFTER_TOKEN
  | typeof DRIFTED_WORD
  | typeof SLASH_AFTER_MARKER

/**
 * One tag at a time: `begin`, then `step` each character until it returns
 * anything but STEP_CONTINUE, or `finish` at the end of input. A class: one
 * per engine, its fields numbers and booleans.
 */
export class TagLexer {
  #maxTagChars: number
  #context: TagContext = NO_NAMES
  #state: LexerState = AFTER_LESS_THAN
  /** Characters read so far, the first included. */
  #length = 0
  #closing = false
  /** Slashes read before the marker (`</ /`). */
  #slashes = 0
  #fragment = false
  /** A fragment's first bar. */
  #firstBar = 0
  /** A fragment whose marker may have spaces and lose its second bar (markup-only bars, or drift). */
  #looseFragment = false
  #marker: MarkerKind = 'none'
  #committed = false
  #bars = 0
  #spaces = 0
  #wordIndex = 0
  #wordStart = 0
  #wordEnd = 0
  /** A drifted marker word (drift): its letters so far; the tag commits only at a known name. */
  #driftedWord = false
  #driftedLength = 0
  /** The wordless name read so far is letters only (it may turn out a drifted marker word). */
  #lettersOnly = true
  #nameStart = 0
  #nameLength = 0
  /** The markerless names (of this tag's direction) the name still matches. */
  #nameMask = 0
  #knownMask = 0
  #compactMask = 0
  #specialMask = 0
  #special = false
  /** The opening bars had a space between them (`< | |`): the run is complete. */
  #spacedBars = false
  #markerStart = 0
  #markerEnd = 0
  /** For fragments: the length after the marker's closing bars. */
  #fragmentEnd = 0
  #terminated = false
  #broken = false
  #attributes = new AttributeReader()
  /** Filled by each completed tag. */
  #result: LexedTag = {
    closing: false,
    marker: 'none',
    fragment: false,
    special: false,
    specialToken: 'other',
    nameStart: 0,
    nameEnd: 0,
    kind: 'empty',
    attributes: [-1, -1, -1, -1, -1, -1],
    markerStart: 0,
    markerEnd: 0,
    wordStart: 0,
    wordEnd: 0,
    driftedWord: false,
    compact: false,
    selfClosing: false,
    terminated: false,
    broken: false,
    length: 0,
  }
  #completed = false

  constructor(maxTagChars: number) {
    this.#maxTagChars = maxTagChars
  }

  /** Starts a tag at `first`: a `<`, or a bar (a fragment that lost its `<`). */
  begin(first: number, context: TagContext): void {
    const fragment = first !== LESS_THAN
    this.#context = context
    this.#fragment = fragment
    this.#firstBar = first
    this.#looseFragment = fragment && (isMarkupOnlyBar(first) || context.drift)
    this.#closing = false
    this.#slashes = 0
    this.#driftedWord = false
    this.#driftedLength = 0
    this.#lettersOnly = true
    this.#wordStart = 0
    this.#wordEnd = 0
    this.#marker = 'none'
    this.#committed = false
    this.#spaces = 0
    this.#nameLength = 0
    this.#nameStart = 0
    this.#special = false
    this.#spacedBars = false
    this.#terminated = false
    this.#broken = false
    this.#completed = false
    this.#length = 1
    this.#attributes.begin(false, false)
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

  /**
   * Could the text that follows still make this tag marked? Yes until it
   * commits, unless it is a markerless tag whose name has begun (it can only
   * stay markerless): `<`, `</`, `< ‹`, `<‹DS`, `‹‹DSM` (‹ a bar).
   */
  get markerUndecided(): boolean {
    return !this.#committed && !(this.#marker === 'none' && (this.#state === NAME || this.#state === ATTRIBUTE_LIST))
  }

  /** The result, after a completing step; valid until the next `begin`. */
  tag(): LexedTag {
    if (!this.#completed) throw new Error('Cannot read tag: the lexer has not completed one')
    return this.#result
  }

  /** Changes the context the tag goes on in (when the region around it was resolved). */
  setContext(context: TagContext): void {
    this.#context = context
  }

  /**
   * Steps through `text` from `from` until the tag is decided, the text
   * ends (`end`), or the tag, uncommitted, reaches `budget` characters.
   * Returns the index it stopped at: the deciding character (its result in
   * `lastStep`), or where it stopped with the tag going on (`lastStep` is
   * STEP_CONTINUE). The same as `step` on each character, with the
   * attribute list read as a run (`AttributeReader.run`).
   */
  run(text: string, from: number, end: number, budget: number): number {
    let index = from
    while (index < end) {
      if (this.#length >= budget && !this.#committed && !this.#rejectsStart(text.charCodeAt(index))) break
      if (this.#state === ATTRIBUTE_LIST) {
        // The attribute list, read by the reader as a run (up to the tag limit and the budget).
        const room = Math.min(this.#maxTagChars, this.#committed ? Number.MAX_SAFE_INTEGER : budget) - this.#length
        const stop = this.#attributes.run(text, index, Math.min(end, index + Math.max(room, 0)), this.#length)
        this.#length += stop - index
        index = stop
        const result = this.#attributes.lastStep
        if (result !== STEP_CONTINUE) {
          this.lastStep = this.#attributesEnded(result)
          return index
        }
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

  /**
   * Does `code`, read next, reject the tag at its start: after `<`, after
   * `</`, or after a fragment's first bar? The scanner decides such a start
   * ahead when it can see the character (`isTextTagStart`), so `run` reads
   * it whatever the budget: where the text was split must not matter.
   */
  #rejectsStart(code: number): boolean {
    switch (this.#state) {
      case AFTER_LESS_THAN:
        return !canFollowLessThan(code, this.#context)
      case AFTER_SLASH:
        return !canFollowClosingSlash(code, this.#context)
      case OPENING_BARS:
        return this.#fragment && this.#length === 1 && !canFollowFragmentBar(this.#firstBar, code, this.#context)
      default:
        return false
    }
  }

  step(code: number): StepResult {
    if (this.#length >= this.#maxTagChars) {
      if (!this.#committed) return STEP_REJECT
      this.#broken = true
      return this.#complete(false)
    }
    switch (this.#state) {
      case AFTER_LESS_THAN:
        return this.#afterLessThan(code)
      case AFTER_SLASH:
        if (!canFollowClosingSlash(code, this.#context)) return STEP_REJECT
        return this.#afterOpening(code)
      case SPACE_BEFORE_BARS:
        return this.#spaceBeforeBars(code)
      case OPENING_BARS:
        return this.#openingBars(code)
      case SPACE_BEFORE_WORD:
        return this.#spaceBeforeWord(code)
      case WORD:
        return this.#word(code)
      case AFTER_WORD:
        return this.#afterWord(code)
      case CLOSING_BARS:
        return this.#closingBars(code)
      case SPACE_BEFORE_NAME:
        return this.#spaceBeforeName(code)
      case NAME:
        return this.#name(code)
      case WORDLESS_NAME:
        return this.#wordlessName(code)
      case SPACE_AFTER_TOKEN:
        return this.#spaceAfterToken(code)
      case SPECIAL_BARS:
        return this.#specialBars(code)
      case ATTRIBUTE_LIST:
        return this.#attributeStep(code)
      case DRIFTED_WORD:
        return this.#driftedWordStep(code)
      case SLASH_AFTER_MARKER:
        return this.#slashAfterMarker(code)
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
      const knownName = KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)
      if ((this.#marker === 'bars' && this.#state === WORDLESS_NAME && knownName) || (this.#driftedWord && this.#state === NAME && knownName)) {
        this.#complete(false)
        return STEP_COMPLETE_BEFORE
      }
      return STEP_REJECT
    }
    if (this.#fragment) {
      // A known name, or the attributes after one (as a line break would end them), goes with the marker.
      const knownName = this.#state === ATTRIBUTE_LIST || (this.#state === NAME && KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength))
      this.#complete(false, knownName ? this.#length : this.#fragmentEnd)
      return STEP_COMPLETE_BEFORE
    }
    if (this.#state === ATTRIBUTE_LIST && this.#attributes.finish(this.#length)) this.#broken = true
    this.#complete(false)
    return STEP_COMPLETE_BEFORE
  }

  // ── steps ─────────────────────────────────────────────────────────────

  #accept(): StepResult {
    this.#length++
    return STEP_CONTINUE
  }

  // ── the marker ────────────────────────────────────────────────────────

  #afterLessThan(code: number): StepResult {
    if (!canFollowLessThan(code, this.#context)) return STEP_REJECT
    if (code === SLASH) {
      this.#closing = true
      this.#slashes = 1
      this.#state = AFTER_SLASH
      return this.#accept()
    }
    return this.#afterOpening(code)
  }

  /**
   * After `<` or `</` and spaces: more spaces, the first bar, a `/` (a closer
   * written `< /`, or with its slash doubled: `</ /`), or a spaced markerless
   * opener's name (`< calls>`).
   */
  #spaceBeforeBars(code: number): StepResult {
    if (!this.#closing && !canFollowSpaceAfterLessThan(code, this.#context)) return STEP_REJECT
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      return this.#accept()
    }
    if (isBar(code)) return this.#startBars()
    if (code === SLASH && this.#slashes < MAX_CLOSER_SLASHES) {
      this.#closing = true
      this.#slashes++
      this.#spaces = 0
      return this.#accept()
    }
    if (!this.#closing && this.#context.openers && (MARKERLESS_OPENER_SET.step(SPACED_OPENER_MASK, 0, code) !== 0)) {
      this.#startName(code)
      this.#nameMask &= SPACED_OPENER_MASK
      return STEP_CONTINUE
    }
    return STEP_REJECT
  }

  /** A special token's closing bars, spaces after them, then `>`. */
  #specialBars(code: number): StepResult {
    if (isBar(code) && this.#bars < MAX_MARKER_BARS) {
      this.#bars++
      this.#spaces = 0
      this.#markerEnd = this.#length + 1
      return this.#accept()
    }
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      return this.#accept()
    }
    if (code !== GREATER_THAN) return this.#complete(false) // its `>` was lost
    this.#terminated = true
    return this.#complete(true)
  }

  #complete(consumed: boolean, tagLength?: number): StepResult {
    if (consumed) this.#length++
    const result = this.#result
    result.closing = this.#closing
    result.marker = this.#marker
    result.fragment = this.#fragment
    result.special = this.#special
    result.specialToken = this.#special ? specialTokenOf(this.#specialMask, this.#nameLength) : 'other'
    result.nameStart = this.#nameStart
    result.nameEnd = this.#nameStart + this.#nameLength
    const kind = nameKind(this.#knownMask, this.#nameLength, this.#closing)
    // The compact names mean something only after the word itself (`<‹‹DSML››r=bash>`, `<‹‹DSML››m>`).
    const compact = kind === 'unknown' && this.#marker === 'dsml' && !this.#driftedWord && !this.#fragment ? compactKind(this.#compactMask, this.#nameLength) : undefined
    result.kind = compact ?? kind
    result.compact = compact !== undefined
    result.driftedWord = this.#driftedWord
    result.wordStart = this.#wordStart
    result.wordEnd = this.#wordEnd
    const attributes = this.#attributes.attributes
    for (let index = 0; index < 6; index++) result.attributes[index] = attributes[index]!
    result.markerStart = this.#markerStart
    result.markerEnd = this.#markerEnd
    result.selfClosing = this.#attributes.selfClosing
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
    return this.#closing ? this.#context.closers : this.#context.openers
  }

  /** After `<` or `</`: spaces before bars, the first bar, a markerless name, or (drift) the word with its bars lost. */
  #afterOpening(code: number): StepResult {
    if (isMarkerSpace(code)) {
      this.#spaces = 1
      this.#state = SPACE_BEFORE_BARS
      return this.#accept()
    }
    if (isBar(code)) return this.#startBars()
    if (code === LATIN_CAPITAL_D && this.#context.drift) {
      this.#bars = 0
      this.#markerStart = this.#length
      return this.#startWord()
    }
    if (!this.#markerlessAllowed() || !isAsciiLetter(code)) return STEP_REJECT
    return this.#startName(code)
  }

  #startBars(): StepResult {
    this.#bars = 1
    this.#markerStart = this.#length
    this.#markerEnd = this.#length + 1
    this.#state = OPENING_BARS
    return this.#accept()
  }

  #openingBars(code: number): StepResult {
    if (isBar(code)) {
      // After a spaced pair (`< | |`) a third bar rejects here, where it may start a tag of its own.
      // A loose fragment's bars may run on, spaced (`‹ ‹| DSML`), up to the wordless limit.
      const limit = this.#looseFragment ? MAX_WORDLESS_BARS : this.#spacedBars ? 0 : this.#fragment ? MAX_MARKER_BARS : MAX_WORDLESS_BARS
      if (this.#bars >= limit) return STEP_REJECT
      this.#bars++
      this.#markerEnd = this.#length + 1
      return this.#accept()
    }
    if (code === LATIN_CAPITAL_D && this.#bars <= this.#wordBars()) return this.#startWord()
    if (isMarkerSpace(code) && this.#bars <= this.#wordBars() && (!this.#fragment || this.#looseFragment)) {
      this.#spaces = 1
      this.#state = SPACE_BEFORE_WORD
      return this.#accept()
    }
    if (this.#fragment || !isAsciiLetter(code)) return STEP_REJECT
    // Bars without the word: an inner tag name or a special token (or, in drift, a drifted word).
    this.#knownMask = KNOWN_NAME_SET.step(KNOWN_NAME_SET.all, 0, code)
    this.#specialMask = SPECIAL_TOKEN_SET.step(SPECIAL_TOKEN_SET.all, 0, code)
    if (this.#knownMask === 0 && this.#specialMask === 0) return this.#startDriftedWord(code)
    this.#marker = 'bars'
    this.#nameStart = this.#length
    this.#nameLength = 1
    this.#lettersOnly = true
    this.#state = WORDLESS_NAME
    return this.#accept()
  }

  /** After the opening bars and spaces: more spaces, another bar (`| |`), or the word. */
  #spaceBeforeWord(code: number): StepResult {
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      return this.#accept()
    }
    if (isBar(code) && this.#bars < this.#wordBars()) {
      this.#bars++
      this.#spacedBars = true
      this.#markerEnd = this.#length + 1
      this.#state = OPENING_BARS
      return this.#accept()
    }
    if (code === LATIN_CAPITAL_D) return this.#startWord()
    if (this.#fragment) return STEP_REJECT
    // A special token in the spaced spelling (`< | tool▁sep | >`), or (drift) a drifted word.
    this.#specialMask = SPECIAL_TOKEN_SET.step(SPECIAL_TOKEN_SET.all, 0, code)
    if (this.#specialMask === 0) return this.#startDriftedWord(code)
    this.#knownMask = 0
    this.#marker = 'bars'
    this.#nameStart = this.#length
    this.#nameLength = 1
    this.#lettersOnly = isAsciiLetter(code)
    this.#state = WORDLESS_NAME
    return this.#accept()
  }

  /** Bars the word may follow: one or two; a loose fragment's run up to the wordless limit. */
  #wordBars(): number {
    return this.#looseFragment ? MAX_WORDLESS_BARS : MAX_MARKER_BARS
  }

  #startWord(): StepResult {
    this.#wordIndex = 1
    this.#wordStart = this.#length
    this.#state = WORD
    return this.#accept()
  }

  #word(code: number): StepResult {
    if (code !== MARKER_WORD.charCodeAt(this.#wordIndex)) {
      // In drift, another word between bars is the marker's word drifted (`|DSMP|`, `|D|`).
      if (this.#bars === 0 || this.#fragment || !this.#context.drift) return STEP_REJECT
      this.#driftedLength = this.#wordIndex
      this.#spaces = 0
      this.#state = DRIFTED_WORD
      return this.#driftedWordStep(code)
    }
    this.#wordIndex++
    if (this.#wordIndex === MARKER_WORD.length) {
      this.#marker = 'dsml'
      this.#wordEnd = this.#length + 1
      if (!this.#fragment || this.#looseFragment) this.#committed = true
      if (this.#looseFragment) this.#fragmentEnd = this.#length + 1
      this.#markerEnd = this.#length + 1
      this.#spaces = 0
      this.#bars = 0
      this.#state = AFTER_WORD
    }
    return this.#accept()
  }

  /** A drifted word's first letter, right after the opening bars (and spaces): only in drift, and only between one or two bars. */
  #startDriftedWord(code: number): StepResult {
    if (!this.#context.drift || this.#fragment || !isAsciiLetter(code) || this.#bars > MAX_MARKER_BARS) return STEP_REJECT
    this.#wordStart = this.#length
    this.#driftedLength = 1
    this.#spaces = 0
    this.#state = DRIFTED_WORD
    return this.#accept()
  }

  /**
   * A drifted marker word: more letters (up to `MAX_DRIFTED_WORD_LENGTH`),
   * spaces, then its closing bar. It stays uncommitted until a known tag name
   * follows (`#nameEnded`).
   */
  #driftedWordStep(code: number): StepResult {
    if (isAsciiLetter(code) && this.#spaces === 0) {
      if (this.#driftedLength >= MAX_DRIFTED_WORD_LENGTH) return STEP_REJECT
      this.#driftedLength++
      return this.#accept()
    }
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      return this.#accept()
    }
    if (!isBar(code)) return STEP_REJECT
    this.#marker = 'dsml'
    this.#driftedWord = true
    this.#wordEnd = this.#wordStart + this.#driftedLength
    this.#bars = 1
    this.#markerEnd = this.#length + 1
    this.#state = CLOSING_BARS
    return this.#accept()
  }

  #afterWord(code: number): StepResult {
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
    if (this.#fragment && !this.#looseFragment) return STEP_REJECT
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      return this.#accept()
    }
    return this.#spaceBeforeName(code)
  }

  #closingBars(code: number): StepResult {
    if (isBar(code) && this.#bars < MAX_MARKER_BARS) {
      this.#bars++
      this.#markerEnd = this.#length + 1
      if (this.#fragment) this.#fragmentEnd = this.#length + 1
      return this.#accept()
    }
    this.#spaces = 0
    this.#state = SPACE_BEFORE_NAME
    return this.#spaceBeforeName(code)
  }

  /** After the marker (and its closing bars), spaces and then: a name, `>`, `/`, or the end of a bare marker. */
  #spaceBeforeName(code: number): StepResult {
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      this.#state = SPACE_BEFORE_NAME
      return this.#accept()
    }
    if (isNameStart(code)) return this.#startName(code)
    if (isBar(code) && this.#bars > 0 && this.#bars < MAX_MARKER_BARS && (!this.#fragment || this.#looseFragment)) {
      // A closing bar after a space (`DSML | | calls`): the marker goes on.
      this.#bars++
      this.#markerEnd = this.#length + 1
      if (this.#fragment) this.#fragmentEnd = this.#length + 1
      this.#state = CLOSING_BARS
      return this.#accept()
    }
    if (code === SLASH && !this.#closing) {
      // `<‹DSML›/invoke>`: the closer's slash drifted past the marker (or a self-closing bare marker).
      this.#state = SLASH_AFTER_MARKER
      return this.#accept()
    }
    // A drifted marker word is markup only before a known name.
    if (this.#driftedWord) return STEP_REJECT
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
    if (code === SLASH) return this.#startAttributes(code)
    return this.#complete(false)
  }

  /** After `<‹DSML›/`: a name makes the tag a closer; anything else is the attribute list its `/` began (a fragment ends before the `/`). */
  #slashAfterMarker(code: number): StepResult {
    if (isNameStart(code)) {
      this.#closing = true
      return this.#startName(code)
    }
    if (this.#driftedWord) return STEP_REJECT
    if (this.#fragment) return this.#complete(false, this.#fragmentEnd)
    this.#state = ATTRIBUTE_LIST
    this.#attributes.begin(false, this.#closing)
    this.#attributes.step(SLASH, this.#length - 1)
    return this.#attributeStep(code)
  }

  #startName(code: number): StepResult {
    this.#nameStart = this.#length
    this.#nameLength = 1
    this.#knownMask = KNOWN_NAME_SET.step(KNOWN_NAME_SET.all, 0, code)
    this.#compactMask = COMPACT_NAME_SET.step(COMPACT_NAME_SET.all, 0, code)
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
      if (this.#nameLength >= MAX_TAG_NAME_LENGTH) return this.#committed ? this.#complete(false) : STEP_REJECT
      if (markerless) {
        this.#nameMask = this.#markerlessAllowed() ? this.#markerlessSet().step(this.#nameMask, this.#nameLength, code) : 0
        if (this.#nameMask === 0) return STEP_REJECT
      }
      this.#knownMask = KNOWN_NAME_SET.step(this.#knownMask, this.#nameLength, code)
      this.#compactMask = COMPACT_NAME_SET.step(this.#compactMask, this.#nameLength, code)
      this.#nameLength++
      return this.#accept()
    }
    if (markerless && !(this.#markerlessAllowed() && this.#markerlessSet().ends(this.#nameMask, this.#nameLength))) return STEP_REJECT
    if (markerless && !this.#closing && !canEndMarkerlessOpenerName(this.#nameMask, this.#nameLength, code)) return STEP_REJECT
    if (this.#fragment && !KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) return this.#complete(false, this.#fragmentEnd)
    return this.#nameEnded(code)
  }

  /**
   * Bars without the word: a known tag name (`<‹‹›invoke name="x">`), or a
   * special token whose words are separated by `▁`, `_` or spaces; in drift,
   * letters that are neither are a drifted marker word (`<|EPSE|invoke`).
   */
  #wordlessName(code: number): StepResult {
    const separator = isSpecialTokenSeparator(code)
    // A space after a whole known name ends the name (`<‹tool_calls name…`), even where a special token could go on.
    const nameEnds = code === SPACE && KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)
    if ((isTagNameCharacter(code) || separator) && !nameEnds) {
      const special = SPECIAL_TOKEN_SET.step(this.#specialMask, this.#nameLength, code)
      const known = isTagNameCharacter(code) ? KNOWN_NAME_SET.step(this.#knownMask, this.#nameLength, code) : 0
      if ((special !== 0 || known !== 0) && this.#nameLength < MAX_TAG_NAME_LENGTH) {
        this.#specialMask = special
        this.#knownMask = known
        if (!isAsciiLetter(code)) this.#lettersOnly = false
        this.#nameLength++
        return this.#accept()
      }
      if (code !== SPACE) return this.#wordlessAsDrifted(code)
    }
    if (isBar(code)) {
      if (!SPECIAL_TOKEN_SET.ends(this.#specialMask, this.#nameLength)) return this.#wordlessAsDrifted(code)
      this.#bars = 1
      this.#spaces = 0
      this.#commitSpecial()
      return this.#accept()
    }
    if (code === SPACE && SPECIAL_TOKEN_SET.ends(this.#specialMask, this.#nameLength)) {
      this.#spaces = 1
      this.#state = SPACE_AFTER_TOKEN
      return this.#accept()
    }
    if (!KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) return this.#wordlessAsDrifted(code)
    return this.#nameEnded(code)
  }

  /** A wordless name that is no known name nor special token: in drift, letters between bars are a drifted marker word. */
  #wordlessAsDrifted(code: number): StepResult {
    if (!this.#context.drift || !this.#lettersOnly || this.#bars > MAX_MARKER_BARS || this.#nameLength > MAX_DRIFTED_WORD_LENGTH) return STEP_REJECT
    this.#marker = 'none'
    this.#wordStart = this.#nameStart
    this.#driftedLength = this.#nameLength
    this.#spaces = 0
    this.#state = DRIFTED_WORD
    return this.#driftedWordStep(code)
  }

  /** Spaces after a whole special token (`< | tool▁sep | >`): more of them, or its closing bars. */
  #spaceAfterToken(code: number): StepResult {
    if (isMarkerSpace(code) && this.#spaces < MAX_MARKER_SPACES) {
      this.#spaces++
      return this.#accept()
    }
    if (!isBar(code)) return STEP_REJECT
    this.#bars = 1
    this.#spaces = 0
    this.#commitSpecial()
    return this.#accept()
  }

  /**
   * A whole special token and its first closing bar: a special token, even if
   * its `>` is lost. Committed here, so the closing bars may have spaces
   * between them (`| |`) with no later rejection that could hide a tag start.
   */
  #commitSpecial(): void {
    this.#special = true
    this.#committed = true
    this.#markerEnd = this.#length + 1
    this.#state = SPECIAL_BARS
  }

  #nameEnded(code: number): StepResult {
    // Past a known name, a wordless tag can no longer be text (its attributes never reject it).
    if (this.#marker === 'bars') this.#committed = true
    if (this.#driftedWord) {
      // A drifted marker word is markup only before a known name.
      if (!KNOWN_NAME_SET.ends(this.#knownMask, this.#nameLength)) return STEP_REJECT
      this.#committed = true
    }
    if (code === EQUALS && this.#marker !== 'none') return this.#startNameValue()
    if (code === GREATER_THAN || code === SLASH || code === LESS_THAN || isMarkerSpace(code) || isLineBreak(code)) return this.#startAttributes(code)
    if (this.#marker === 'none') return STEP_REJECT
    return this.#complete(false)
  }

  // ── attributes ────────────────────────────────────────────────────────

  #startAttributes(code: number): StepResult {
    this.#state = ATTRIBUTE_LIST
    this.#attributes.begin(this.#marker === 'none', this.#closing)
    return this.#attributeStep(code)
  }

  /** `=` right after a markered tag's name: the value after it is the tag's name attribute (`<‹DSML›r=bash>`, `<‹DSML›parameter=command>`). */
  #startNameValue(): StepResult {
    this.#state = ATTRIBUTE_LIST
    this.#attributes.begin(false, this.#closing)
    this.#attributes.assumeName(NAME_ATTRIBUTE)
    return this.#attributeStep(EQUALS)
  }

  #attributeStep(code: number): StepResult {
    return this.#attributesEnded(this.#attributes.step(code, this.#length))
  }

  /** What the attribute list's result means for the tag: the same step, with the tag completed. */
  #attributesEnded(result: StepResult): StepResult {
    switch (result) {
      case STEP_CONTINUE:
        return this.#accept()
      case STEP_REJECT:
        return STEP_REJECT
      case STEP_COMPLETE:
        this.#terminated = true
        return this.#complete(true)
      case STEP_COMPLETE_BEFORE:
        return this.#complete(false)
    }
  }
}
