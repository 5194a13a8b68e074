/**
 * A tag's name, the part the tag lexer reads between the marker
 * (`MarkerReader`) and the attribute list (`AttributeReader`): a known name
 * after the word `DSML` (or a compact one: `<‹DSML›r=bash>`), a markerless
 * word (`<invoke`), or, after bars without the word, a known name, a special
 * token (`<‹end▁of▁sentence›>`) or, in drift, letters that turn out to be a
 * drifted marker word. Like the other readers it sees character codes and
 * keeps the name as an offset and a length, its meaning as word-set masks.
 *
 * `step` says what each character means for the name: read (STEP_CONTINUE),
 * text (STEP_REJECT), too long a name in a committed tag (STEP_COMPLETE_BEFORE),
 * or a handoff: `NAME_ENDED` (the character is the first after the name;
 * a tag that is markup only past a whole known name has committed there),
 * `NAME_FRAGMENT_END` (a fragment's unknown name: the tag is its marker),
 * `NAME_BACK_TO_MARKER` (the marker reads the character: a special token's
 * closing bars, or a drifted marker word going on).
 */
import type { MarkerReader } from './marker-reader.ts'
import { canEndMarkerlessOpenerName, COMPACT_NAME_SET, compactKind, isAsciiLetter, isBar, isSpecialTokenSeparator, isTagNameCharacter, KNOWN_NAME_SET, knownMaskOfMarkerless, MAX_TAG_NAME_LENGTH, nameKind, SPACE, SPACED_OPENER_MASK, SPECIAL_TOKEN_SET, specialTokenOf } from './grammar.ts'
import { type LexedTag, STEP_COMPLETE_BEFORE, STEP_CONTINUE, STEP_REJECT } from './tag.ts'

/** The character is the first after the name: the tag lexer decides what it begins. */
export const NAME_ENDED = 4
/** A fragment's name that is no known name: the tag ends after its marker (`MarkerReader.fragmentEnd`). */
export const NAME_FRAGMENT_END = 5
/** The marker reads the character: a whole special token's closing bars, or a drifted marker word read on. */
export const NAME_BACK_TO_MARKER = 6
export type NameStep = typeof STEP_CONTINUE | typeof STEP_REJECT | typeof STEP_COMPLETE_BEFORE | typeof NAME_ENDED | typeof NAME_FRAGMENT_END | typeof NAME_BACK_TO_MARKER

// The reader's states, named.
/** After the word `DSML`, or with no marker at all. */
const NAME = 0
/** After bars without the word. */
const WORDLESS_NAME = 1
type NameState = typeof NAME | typeof WORDLESS_NAME

/**
 * One tag's name at a time, after its marker: `begin` (or `beginWordless`),
 * then `step` each character until it hands on, or `finish` at the end of
 * input. What it read is written into the completed tag by `describe`.
 */
export class NameReader {
  #marker: MarkerReader
  #state: NameState = NAME
  /** Where the name starts in the tag, and its length so far. */
  #start = 0
  #length = 0
  /** The markerless names (of the tag's direction) the name still matches. */
  #markerlessMask = 0
  #knownMask = 0
  #compactMask = 0
  #specialMask = 0
  /** A wordless name read so far is letters only (it may turn out a drifted marker word). */
  #lettersOnly = true

  /** `marker`: the tag's marker, which says what came before the name. */
  constructor(marker: MarkerReader) {
    this.#marker = marker
  }

  /** No name read yet (a new tag). */
  reset(): void {
    this.#state = NAME
    this.#markerlessMask = 0
    this.#start = 0
    this.#length = 0
    this.#knownMask = 0
    this.#compactMask = 0
    this.#specialMask = 0
    this.#lettersOnly = true
  }

  /** The name begins at `code`, the tag's character `at` (the marker said NEXT_NAME): false when it is text at once. */
  begin(code: number, at: number): boolean {
    const marker = this.#marker
    this.#state = NAME
    this.#start = at
    this.#length = 1
    this.#knownMask = KNOWN_NAME_SET.step(KNOWN_NAME_SET.all, 0, code)
    this.#compactMask = COMPACT_NAME_SET.step(COMPACT_NAME_SET.all, 0, code)
    if (marker.kind !== 'none') return true
    const set = marker.markerlessSet()
    this.#markerlessMask = set.step(set.all, 0, code)
    if (this.#markerlessMask === 0) return false
    // A spaced markerless opener (`< calls>`): only those names.
    if (marker.spacedOpener) this.#markerlessMask &= SPACED_OPENER_MASK
    return true
  }

  /** The name began at the tag's character `at`, read by the marker after bars without the word (it said NEXT_WORDLESS_NAME). */
  beginWordless(at: number): void {
    const marker = this.#marker
    this.#state = WORDLESS_NAME
    this.#start = at
    this.#length = 1
    this.#knownMask = marker.knownMask
    this.#specialMask = marker.specialMask
    this.#lettersOnly = marker.lettersOnly
  }

  /** Is the name read so far a whole known name (ignoring case)? */
  get known(): boolean {
    return KNOWN_NAME_SET.ends(this.#knownMask, this.#length)
  }

  step(code: number): NameStep {
    switch (this.#state) {
      case NAME:
        return this.#name(code)
      case WORDLESS_NAME:
        return this.#wordlessName(code)
    }
  }

  /**
   * Reads on from `from` (up to `end`) the characters a markerless name goes
   * on with, as a run: the same as `step` on each of them. Returns where it
   * stopped: at `end`, at the longest name, or at a character no markerless
   * word of the tag's direction has there, which `step` then decides (`from`
   * when the name is not markerless, or no longer allowed). The words hold
   * tag-name characters only (`MARKERLESS_OPENER_NAMES`), so a character no
   * word has is the one `step` would not read.
   */
  run(text: string, from: number, end: number): number {
    const marker = this.#marker
    if (this.#state !== NAME || marker.kind !== 'none' || !marker.markerlessAllowed()) return from
    const set = marker.markerlessSet()
    const stop = Math.min(end, from + MAX_TAG_NAME_LENGTH - this.#length)
    let mask = this.#markerlessMask
    let index = from
    for (; index < stop; index++) {
      const next = set.step(mask, this.#length + index - from, text.charCodeAt(index))
      if (next === 0) break
      mask = next
    }
    this.#markerlessMask = mask
    this.#length += index - from
    return index
  }

  /**
   * End of input in the name: an uncommitted tag is text unless it is one
   * that is markup past a whole known name and its name is one
   * (`#markupPastKnownName`); a committed one ends where the input ends, a
   * fragment after its marker unless its name is known.
   */
  finish(): typeof STEP_REJECT | typeof STEP_COMPLETE_BEFORE | typeof NAME_FRAGMENT_END {
    const marker = this.#marker
    if (!marker.committed) return this.#markupPastKnownName() && this.known ? STEP_COMPLETE_BEFORE : STEP_REJECT
    return marker.fragment && !this.known ? NAME_FRAGMENT_END : STEP_COMPLETE_BEFORE
  }

  /**
   * Is the tag one that is markup only once a whole known name ends? After
   * bars without the word (a wordless name: `<‹invoke`), or after a drifted
   * marker word (`<|EPSE|invoke`): until then it may be text.
   */
  #markupPastKnownName(): boolean {
    return this.#marker.kind === 'bars' || this.#marker.driftedWord
  }

  /** The name ends before the character: a tag that is markup only past a whole known name commits here, or is text. */
  #ended(): NameStep {
    if (this.#markupPastKnownName()) {
      if (!this.known) return STEP_REJECT
      this.#marker.committed = true
    }
    return NAME_ENDED
  }

  /** Writes what the name says into a completed tag: where it is, its kind, the special token it is. */
  describe(result: LexedTag): void {
    const marker = this.#marker
    result.specialToken = marker.special ? specialTokenOf(this.#specialMask, this.#length) : 'other'
    result.nameStart = this.#start
    result.nameEnd = this.#start + this.#length
    const kind = nameKind(this.#knownMask, this.#length, marker.closing)
    // The compact names mean something only after the word itself (`<‹‹DSML››r=bash>`, `<‹‹DSML››m>`).
    const compact = kind === 'unknown' && marker.kind === 'dsml' && !marker.driftedWord && !marker.fragment ? compactKind(this.#compactMask, this.#length) : undefined
    result.kind = compact ?? kind
    result.compact = compact !== undefined
  }

  // ── NAME ──────────────────────────────────────────────────────────────

  #name(code: number): NameStep {
    const marker = this.#marker
    const markerless = marker.kind === 'none'
    if (isTagNameCharacter(code)) {
      if (this.#length >= MAX_TAG_NAME_LENGTH) return marker.committed ? STEP_COMPLETE_BEFORE : STEP_REJECT
      if (markerless) {
        // Only the markerless names are followed (the known ones are its word's, taken where the name ends).
        const next = marker.markerlessAllowed() ? marker.markerlessSet().step(this.#markerlessMask, this.#length, code) : 0
        if (next === 0) return STEP_REJECT
        this.#markerlessMask = next
      } else {
        this.#knownMask = KNOWN_NAME_SET.step(this.#knownMask, this.#length, code)
        this.#compactMask = COMPACT_NAME_SET.step(this.#compactMask, this.#length, code)
      }
      this.#length++
      return STEP_CONTINUE
    }
    if (markerless) {
      const word = marker.markerlessAllowed() ? marker.markerlessSet().matched(this.#markerlessMask, this.#length) : -1
      if (word === -1 || (!marker.closing && !canEndMarkerlessOpenerName(this.#markerlessMask, this.#length, code))) return STEP_REJECT
      this.#knownMask = knownMaskOfMarkerless(marker.markerlessSet(), word) // compact names need the word `DSML`: not read
    }
    if (marker.fragment && !this.known) return NAME_FRAGMENT_END
    return this.#ended()
  }

  // ── WORDLESS_NAME ─────────────────────────────────────────────────────

  /**
   * Bars without the word: a known tag name (`<‹‹›invoke name="x">`), or a special token whose words are separated by
   * `▁`, `_` or spaces; in drift, letters that are neither are a drifted marker word (`<|EPSE|invoke`).
   */
  #wordlessName(code: number): NameStep {
    const separator = isSpecialTokenSeparator(code)
    // A space after a whole known name ends the name (`<‹tool_calls name…`), even where a special token could go on.
    const nameEnds = code === SPACE && this.known
    if ((isTagNameCharacter(code) || separator) && !nameEnds) {
      const special = SPECIAL_TOKEN_SET.step(this.#specialMask, this.#length, code)
      const known = isTagNameCharacter(code) ? KNOWN_NAME_SET.step(this.#knownMask, this.#length, code) : 0
      if ((special !== 0 || known !== 0) && this.#length < MAX_TAG_NAME_LENGTH) {
        this.#specialMask = special
        this.#knownMask = known
        if (!isAsciiLetter(code)) this.#lettersOnly = false
        this.#length++
        return STEP_CONTINUE
      }
      if (code !== SPACE) return this.#asDriftedWord()
    }
    if ((isBar(code) || code === SPACE) && SPECIAL_TOKEN_SET.ends(this.#specialMask, this.#length)) {
      // A whole special token: its closing bars (spaces before them) are the marker's.
      this.#marker.afterSpecialToken()
      return NAME_BACK_TO_MARKER
    }
    if (isBar(code) || !this.known) return this.#asDriftedWord()
    return this.#ended()
  }

  /** A wordless name that is no known name nor special token: in drift, letters between bars are a drifted marker word, read on by the marker. */
  #asDriftedWord(): NameStep {
    if (!this.#marker.mayDrift(this.#lettersOnly, this.#length)) return STEP_REJECT
    this.#marker.resumeDriftedWord(this.#start, this.#length)
    return NAME_BACK_TO_MARKER
  }
}
