/**
 * A tag the lexer (`tag-lexer.ts`) completed: `LexedTag` as the lexer fills
 * it (offsets into the tag's text), and `Tag` as the structure layer reads it
 * (the text, with its strings sliced when first asked for).
 */
import { GREATER_THAN, NAME_ATTRIBUTE, SPACE, type SpecialToken, STRING_ATTRIBUTE, type TagKind, VALUE_ATTRIBUTE } from './grammar.ts'

export type MarkerKind = 'none' | 'bars' | 'dsml'

// What reading one more character of a tag gives (the lexer's and the attribute reader's steps).
/** The character was consumed; the tag goes on. */
export const STEP_CONTINUE = 0
/** The character was not consumed; what was read is not markup. */
export const STEP_REJECT = 1
/** The character was consumed and completed the tag. */
export const STEP_COMPLETE = 2
/** The character was not consumed; the tag ended before it (no `>`, or too long). */
export const STEP_COMPLETE_BEFORE = 3

export type StepResult = typeof STEP_CONTINUE | typeof STEP_REJECT | typeof STEP_COMPLETE | typeof STEP_COMPLETE_BEFORE

/** A completed tag as offsets into its text (see `Tag`). One per lexer, filled again by each tag. */
export interface LexedTag {
  closing: boolean
  marker: MarkerKind
  /** Began with a bar: a marker that lost its `<`. */
  fragment: boolean
  /** A DeepSeek special token such as end-of-sentence. */
  special: boolean
  /** What the special token means (`other` for any tag that is none). */
  specialToken: SpecialToken
  nameStart: number
  nameEnd: number
  /** What the name means (`nameKind`). */
  kind: TagKind
  /** `[start, end]` of the `name`, `string` and `value` attribute values; -1 when absent. */
  attributes: number[]
  /** The marker's bars and word, `[markerStart, markerEnd)` (empty for markerless tags). */
  markerStart: number
  markerEnd: number
  /** The marker's word, `[wordStart, wordEnd)`: `DSML`, or a drifted word (empty for markers without one). */
  wordStart: number
  wordEnd: number
  /** Its marker's word drifted (`<|EPSE|parameter>`, read only inside an open block, before a known name). */
  driftedWord: boolean
  /** Its name is a compact one (`r`, `m`: `<‹‹DSML››r=bash>`), whose meaning `kind` gives. */
  compact: boolean
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

/** A `LexedTag` to fill: one per lexer, filled by each tag it completes. */
export function newLexedTag(): LexedTag {
  return {
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
}

/**
 * A completed tag with its text: a view of the lexer's `LexedTag`, read by the
 * structure layer before the lexer reads another tag. Its strings are sliced
 * when first asked for (most tags turn out to be text).
 */
export class Tag {
  #lexed: LexedTag
  #text: string
  #input: string | undefined
  #inputStart: number

  /** `text` starts where the tag starts; `input` holds it at `inputStart`, when it was read from one input. */
  constructor(lexed: LexedTag, text: string, input?: string, inputStart = 0) {
    this.#lexed = lexed
    this.#text = text
    this.#input = input
    this.#inputStart = inputStart
  }

  /** Points the view at the next completed tag. */
  read(lexed: LexedTag, text: string, input: string | undefined, inputStart: number): this {
    this.#lexed = lexed
    this.#text = text
    this.#input = input
    this.#inputStart = inputStart
    return this
  }

  get text(): string {
    return this.#text
  }

  /** The input the whole tag was read from, if it was read from one (then a tag that is text can come out as a range of it). */
  get input(): string | undefined {
    return this.#input
  }

  get inputStart(): number {
    return this.#inputStart
  }

  get closing(): boolean {
    return this.#lexed.closing
  }

  get marker(): MarkerKind {
    return this.#lexed.marker
  }

  get fragment(): boolean {
    return this.#lexed.fragment
  }

  get special(): boolean {
    return this.#lexed.special
  }

  /** What the special token means, for a special tag. */
  get specialToken(): SpecialToken {
    return this.#lexed.specialToken
  }

  /** What its name means (`nameKind`). */
  get kind(): TagKind {
    return this.#lexed.kind
  }

  get selfClosing(): boolean {
    return this.#lexed.selfClosing
  }

  /** Its marker's word drifted from `DSML` (`<|EPSE|parameter>`). */
  get driftedWord(): boolean {
    return this.#lexed.driftedWord
  }

  /** The marker's word as written: `DSML`, or the drifted word. */
  get word(): string {
    return this.#text.slice(this.#lexed.wordStart, this.#lexed.wordEnd)
  }

  /** Its name is a compact one (`<‹‹DSML››r=bash>`, `<‹‹DSML››m>`; see `COMPACT_NAMES`). */
  get compact(): boolean {
    return this.#lexed.compact
  }

  get terminated(): boolean {
    return this.#lexed.terminated
  }

  get broken(): boolean {
    return this.#lexed.broken
  }

  get length(): number {
    return this.#lexed.length
  }

  get markerStart(): number {
    return this.#lexed.markerStart
  }

  get markerEnd(): number {
    return this.#lexed.markerEnd
  }

  get name(): string {
    return this.#text.slice(this.#lexed.nameStart, this.#lexed.nameEnd)
  }

  /**
   * A closer with something other than spaces after its name
   * (`</‹DSML›parameter |`): closers take no attributes, so inside a value
   * this is literal text, not the value's end.
   */
  get closerWithJunk(): boolean {
    if (!this.#lexed.closing) return false
    for (let index = Math.max(this.#lexed.nameEnd, this.#lexed.markerEnd); index < this.#lexed.length; index++) {
      const code = this.#text.charCodeAt(index)
      if (code !== SPACE && code !== GREATER_THAN) return true
    }
    return false
  }

  get nameAttribute(): string | undefined {
    return this.#attribute(NAME_ATTRIBUTE)
  }

  get stringAttribute(): string | undefined {
    return this.#attribute(STRING_ATTRIBUTE)
  }

  get valueAttribute(): string | undefined {
    return this.#attribute(VALUE_ATTRIBUTE)
  }

  #attribute(id: number): string | undefined {
    const attributes = this.#lexed.attributes
    const start = attributes[id * 2]!
    return start === -1 ? undefined : this.#text.slice(start, attributes[id * 2 + 1])
  }
}
