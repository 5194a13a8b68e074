/**
 * A tag the lexer (`tag-lexer.ts`) completed: `LexedTag` as the lexer fills
 * it (offsets into the tag's text), and `Tag` as the structure layer reads it
 * (the text, with its strings sliced when first asked for).
 */
import { NAME_ATTRIBUTE, STRING_ATTRIBUTE, type TagKind, VALUE_ATTRIBUTE } from './grammar.ts'

export type MarkerKind = 'none' | 'bars' | 'dsml'

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
