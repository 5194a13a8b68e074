/**
 * The DSML tag lexer: reads one tag, a character at a time, and says as early
 * as it can whether the characters seen so far can still be markup.
 *
 * It knows spellings, not structure: which tags nest where is the structure
 * layer's business (`structure.ts`). A tag is read in three parts, each by
 * its reader: its marker (`MarkerReader`, which lists the shapes read), its
 * name (`NameReader`), and the attribute list after it (`AttributeReader`).
 * It sees character codes, not strings: names and attribute values are kept
 * as offsets into the tag, and `Tag` slices them when asked. So a tag that
 * is rejected after a character or two costs no allocation.
 *
 * **Commitment.** A tag is *committed* once nothing can make it text any more:
 * at the word `DSML` (a fragment: at its closing bar, or at the word in
 * markup-only bars or in drift), when a wordless tag's known name ends, or
 * when a drifted marker's known name ends (those two: the `NameReader`). A
 * committed tag that grows past the tag limit is completed as `broken`, never
 * released. An uncommitted tag can only grow that long if it is markerless,
 * and a markerless tag holds no `<` and no bar, so nothing inside it could
 * start another tag: releasing it as text is safe.
 */
import { AttributeReader } from './attribute-reader.ts'
import { MarkerReader, NEXT_ATTRIBUTES, NEXT_ATTRIBUTES_AFTER_SLASH, NEXT_FRAGMENT_END, NEXT_NAME, NEXT_WORDLESS_NAME } from './marker-reader.ts'
import { NAME_BACK_TO_MARKER, NAME_ENDED, NAME_FRAGMENT_END, NameReader } from './name-reader.ts'
import { type LexedTag, newLexedTag, STEP_COMPLETE, STEP_COMPLETE_BEFORE, STEP_CONTINUE, STEP_REJECT, type StepResult } from './tag.ts'
import { EQUALS, GREATER_THAN, isLineBreak, isMarkerSpace, LESS_THAN, NAME_ATTRIBUTE, SLASH } from './grammar.ts'
import type { TagContext } from './markup-starts.ts'

// The lexer's states, named (numbers: a jump table): which reader reads the next character.
const MARKER = 0
const NAME = 1
const ATTRIBUTE_LIST = 2
type LexerState = typeof MARKER | typeof NAME | typeof ATTRIBUTE_LIST

/**
 * One tag at a time: `begin`, then `step` each character until it returns anything but STEP_CONTINUE, or `finish` at
 * the end of input. A class: one per engine, its fields numbers and booleans.
 */
export class TagLexer {
  #maxTagChars: number
  #state: LexerState = MARKER
  /** Characters read so far, the first included. */
  #length = 0
  /** The marker, and what it read (the handoff record the name and attributes go on with). */
  #marker = new MarkerReader()
  #name = new NameReader(this.#marker)
  #broken = false
  #attributes = new AttributeReader()
  /** Filled by each completed tag. */
  #result: LexedTag = newLexedTag()
  #completed = false

  constructor(maxTagChars: number) {
    this.#maxTagChars = maxTagChars
  }

  /** Starts a tag at `first`: a `<`, or a bar (a fragment that lost its `<`). */
  begin(first: number, context: TagContext): void {
    this.#marker.begin(first, context)
    this.#state = MARKER
    this.#name.reset()
    this.#broken = false
    this.#completed = false
    this.#length = 1
    this.#attributes.begin(false, false)
  }

  /** Characters read so far. */
  get length(): number {
    return this.#length
  }

  /** Nothing can make this tag text any more (see the file's doc). */
  get committed(): boolean {
    return this.#marker.committed
  }

  /**
   * Could the text that follows still make this tag marked? Yes until it commits, unless it is a markerless tag whose
   * name has begun (it can only stay markerless): `<`, `</`, `< ‹`, `<‹DS`, `‹‹DSM` (‹ a bar).
   */
  get markerUndecided(): boolean {
    return !this.#marker.committed && !(this.#marker.kind === 'none' && (this.#state === NAME || this.#state === ATTRIBUTE_LIST))
  }

  /** The result, after a completing step; valid until the next `begin`. */
  tag(): LexedTag {
    if (!this.#completed) throw new Error('Cannot read tag: the lexer has not completed one')
    return this.#result
  }

  /** Changes the context the tag goes on in (when the region around it was resolved). */
  setContext(context: TagContext): void {
    this.#marker.context = context
  }

  /**
   * Steps through `text` from `from` until the tag is decided, the text ends (`end`), or the tag, uncommitted,
   * reaches `budget` characters. Returns the index it stopped at: the deciding character (its result in `lastStep`),
   * or where it stopped with the tag going on (`lastStep` is STEP_CONTINUE). The same as `step` on each character,
   * with the attribute list read as a run (`AttributeReader.run`), and a markerless name too (`readName`).
   */
  run(text: string, from: number, end: number, budget: number): number {
    const marker = this.#marker
    let index = from
    while (index < end) {
      // A start the lexer rejects at its next character is read whatever the budget: where the text was split must not matter.
      if (this.#length >= budget && !marker.committed && !(this.#state === MARKER && marker.rejectsStart(text.charCodeAt(index), this.#length))) break
      if (this.#state === ATTRIBUTE_LIST) {
        // The attribute list, read by the reader as a run (up to the tag limit and the budget).
        const room = Math.min(this.#maxTagChars, marker.committed ? Number.MAX_SAFE_INTEGER : budget) - this.#length
        const stop = this.#attributes.run(text, index, Math.min(end, index + Math.max(room, 0)), this.#length)
        this.#length += stop - index
        index = stop
        const result = this.#attributes.lastStep
        if (result !== STEP_CONTINUE) {
          this.lastStep = this.#attributesEnded(result)
          return index
        }
        if (index >= end || (this.#length >= budget && !marker.committed)) break
      }
      const step = this.step(text.charCodeAt(index))
      if (step !== STEP_CONTINUE) {
        this.lastStep = step
        return index
      }
      // An uncommitted tag's name is read no further than the budget, as stepping would stop there.
      index = this.readName(text, index + 1, marker.committed ? end : Math.min(end, index + 1 + budget - this.#length))
    }
    this.lastStep = STEP_CONTINUE
    return index
  }

  /** The result of the character `run` stopped at. */
  lastStep: StepResult = STEP_CONTINUE

  step(code: number): StepResult {
    if (this.#length >= this.#maxTagChars) {
      if (!this.#marker.committed) return STEP_REJECT
      this.#broken = true
      return this.#complete(false)
    }
    switch (this.#state) {
      case MARKER:
        return this.#markerStep(code)
      case NAME:
        return this.#nameStep(code)
      case ATTRIBUTE_LIST:
        return this.#attributeStep(code)
    }
  }

  /**
   * End of input inside the tag, per state: a markerless tag never saw its `>` (text); an uncommitted markered tag
   * is text unless a wordless or drifted marker's known name is complete; a fragment ends after its marker (or its
   * known name); any other committed tag ends where the input ends, `broken` if a quote was left open.
   */
  finish(): typeof STEP_REJECT | typeof STEP_COMPLETE_BEFORE {
    const marker = this.#marker
    if (marker.kind === 'none') return STEP_REJECT
    switch (this.#state) {
      case MARKER:
        return marker.finish() === STEP_REJECT ? STEP_REJECT : this.#finishAt(marker.fragment ? marker.fragmentEnd : undefined)
      case NAME: {
        const end = this.#name.finish()
        return end === STEP_REJECT ? STEP_REJECT : this.#finishAt(end === NAME_FRAGMENT_END ? marker.fragmentEnd : undefined)
      }
      case ATTRIBUTE_LIST:
        if (!marker.committed) return STEP_REJECT
        // A fragment's attributes after its known name (as a line break would end them) go with it.
        if (!marker.fragment && this.#attributes.finish(this.#length)) this.#broken = true
        return this.#finishAt(undefined)
    }
  }

  /** The tag ends where the input ends (or, for a fragment, at `length`). */
  #finishAt(length: number | undefined): typeof STEP_COMPLETE_BEFORE {
    this.#complete(false, length)
    return STEP_COMPLETE_BEFORE
  }

  /** The character was read: the tag goes on. */
  #accept(): StepResult {
    this.#length++
    return STEP_CONTINUE
  }

  // ── MARKER ────────────────────────────────────────────────────────────

  /** A character of the marker, read by the `MarkerReader`; what comes after it, when it says. */
  #markerStep(code: number): StepResult {
    const marker = this.#marker
    const step = marker.step(code, this.#length)
    switch (step) {
      case STEP_CONTINUE:
        return this.#accept()
      case STEP_REJECT:
        return STEP_REJECT
      case STEP_COMPLETE:
        return this.#complete(true)
      case STEP_COMPLETE_BEFORE:
        return this.#complete(false)
      case NEXT_NAME:
        if (!this.#name.begin(code, this.#length)) return STEP_REJECT
        this.#state = NAME
        return this.#accept()
      case NEXT_WORDLESS_NAME:
        this.#name.beginWordless(this.#length)
        this.#state = NAME
        return this.#accept()
      case NEXT_ATTRIBUTES:
        return this.#startAttributes(code)
      case NEXT_ATTRIBUTES_AFTER_SLASH:
        return this.#startAttributes(code, true)
      case NEXT_FRAGMENT_END:
        return this.#complete(false, marker.fragmentEnd)
    }
  }

  // ── NAME ──────────────────────────────────────────────────────────────

  /** A character of the name, read by the `NameReader`; what comes after it, when it says. */
  #nameStep(code: number): StepResult {
    switch (this.#name.step(code)) {
      case STEP_CONTINUE:
        return this.#accept()
      case STEP_REJECT:
        return STEP_REJECT
      case STEP_COMPLETE_BEFORE:
        return this.#complete(false)
      case NAME_ENDED:
        return this.#nameEnded(code)
      case NAME_FRAGMENT_END:
        return this.#complete(false, this.#marker.fragmentEnd)
      case NAME_BACK_TO_MARKER:
        this.#state = MARKER
        return this.#markerStep(code)
    }
  }

  /** The character after the name: what the tag goes on with, given its marker (the name reader committed it if it had to). */
  #nameEnded(code: number): StepResult {
    const marker = this.#marker
    if (code === EQUALS && marker.kind !== 'none') return this.#startNameValue()
    if (code === GREATER_THAN || code === SLASH || code === LESS_THAN || isMarkerSpace(code) || isLineBreak(code)) return this.#startAttributes(code)
    if (marker.kind === 'none') return STEP_REJECT
    return this.#complete(false)
  }

  /**
   * Reads on from `from` (up to `end`, and the tag limit) the characters a
   * markerless name goes on with, as a run (`NameReader.run`): the same as
   * `step` on each. Returns where it stopped (`from` when not in such a name).
   */
  readName(text: string, from: number, end: number): number {
    if (this.#state !== NAME) return from
    const stop = this.#name.run(text, from, Math.min(end, from + this.#maxTagChars - this.#length))
    this.#length += stop - from
    return stop
  }

  // ── ATTRIBUTE_LIST ────────────────────────────────────────────────────

  /** The attribute list begins at `code` (or `afterSlash`: the `/` before it began it, `<‹DSML›/ x>`). */
  #startAttributes(code: number, afterSlash = false): StepResult {
    this.#state = ATTRIBUTE_LIST
    this.#attributes.begin(this.#marker.kind === 'none', this.#marker.closing)
    if (afterSlash) this.#attributes.step(SLASH, this.#length - 1)
    return this.#attributeStep(code)
  }

  /** `=` right after a markered tag's name: the value after it is the tag's name attribute (`<‹DSML›r=bash>`, `<‹DSML›parameter=command>`). */
  #startNameValue(): StepResult {
    this.#state = ATTRIBUTE_LIST
    this.#attributes.begin(false, this.#marker.closing)
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
        this.#marker.terminated = true
        return this.#complete(true)
      case STEP_COMPLETE_BEFORE:
        return this.#complete(false)
    }
  }

  // ── the result ────────────────────────────────────────────────────────

  #complete(consumed: boolean, tagLength?: number): StepResult {
    if (consumed) this.#length++
    const marker = this.#marker
    const result = this.#result
    marker.describe(result)
    this.#name.describe(result)
    const attributes = this.#attributes.attributes
    for (let index = 0; index < 6; index++) result.attributes[index] = attributes[index]!
    result.selfClosing = this.#attributes.selfClosing
    result.broken = this.#broken
    result.length = tagLength ?? this.#length
    this.#completed = true
    return consumed ? STEP_COMPLETE : STEP_COMPLETE_BEFORE
  }
}
