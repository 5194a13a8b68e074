/**
 * `jsonPieces`: the text of `JSON.stringify(value, null, indent)` as a series
 * of pieces of about `PIECE_CHARS` characters, so that a value of tens of
 * megabytes (a long history, a message of a hundred megabytes) is written a
 * piece at a time, whoever writes it may give the event loop a turn between
 * pieces, and no step makes one string of its whole text.
 *
 * The value is walked here, in `JSON.stringify`'s order and layout (objects,
 * arrays, strings, finite and other numbers, booleans, null, `toJSON`, boxed
 * primitives; what it skips or writes as null is skipped or null here); each
 * string is escaped by `JSON.stringify` itself, a long one a slice at a time
 * (never between the halves of a surrogate pair, which it would escape one by
 * one). A long string kept as its pieces (`LongTexts`) is escaped piece by
 * piece from those pieces, never read as one string. JSON escapes each
 * character on its own, so the pieces join to exactly `JSON.stringify`'s text.
 */
import { LONG_TEXT_CHARS, type LongTexts } from './long-texts.ts'

/** Characters gathered before a piece is given out, and the slice a long string is escaped in. */
export const PIECE_CHARS = 65_536

/** Options of `jsonPieces`. */
export interface JsonPiecesOptions {
  /** Spaces per level, as `JSON.stringify`'s `space` (at most 10). @default none: one line */
  indent?: number
  /** Where long strings of the value keep their pieces: each is escaped from them. @default none */
  longTexts?: LongTexts
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/** `JSON.stringify(value, null, indent)` in pieces that join to exactly that text. `value` must have a JSON text (not undefined, a function or a symbol). */
export function* jsonPieces(value: unknown, options: JsonPiecesOptions = {}): Generator<string> {
  const writer = new JsonWriter(options)
  const root = writer.prepared(value, '')
  if (root === undefined) throw new TypeError(`Cannot write ${typeof value} as JSON`)
  yield* writer.value(root, '')
  if (writer.gathered !== '') yield writer.gathered
}

/** A value `JSON.stringify` writes nothing for, where a key or an array item would be. */
const SKIPPED = undefined

class JsonWriter {
  gathered = ''
  readonly #indent: string
  readonly #longTexts: LongTexts | undefined
  readonly #open = new Set<object>()

  constructor(options: JsonPiecesOptions) {
    this.#indent = ' '.repeat(Math.max(0, Math.min(10, Math.floor(options.indent ?? 0))))
    this.#longTexts = options.longTexts
  }

  /** `value` as `JSON.stringify` sees it under `key`: after `toJSON`, a boxed primitive unboxed, `SKIPPED` for what it does not write. */
  prepared(value: unknown, key: string): unknown {
    if ((typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'bigint') {
      const toJSON = (value as { toJSON?: unknown }).toJSON
      if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, key)
    }
    if (value instanceof Number) value = Number(value)
    else if (value instanceof String) value = String(value)
    else if (value instanceof Boolean) value = value.valueOf()
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return SKIPPED
    if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt')
    return value
  }

  /** Adds `text` to the piece being gathered; true when the piece is full and should be given out. */
  #add(text: string): boolean {
    this.gathered += text
    return this.gathered.length >= PIECE_CHARS
  }

  #take(): string {
    const piece = this.gathered
    this.gathered = ''
    return piece
  }

  /** Writes a prepared value; `depth` is the indentation of its line. */
  *value(value: unknown, depth: string): Generator<string> {
    if (value === null) {
      if (this.#add('null')) yield this.#take()
    } else if (typeof value === 'string') {
      yield* this.#string(value)
    } else if (typeof value === 'number') {
      if (this.#add(Number.isFinite(value) ? String(value) : 'null')) yield this.#take()
    } else if (typeof value === 'boolean') {
      if (this.#add(value ? 'true' : 'false')) yield this.#take()
    } else if (typeof value === 'object') {
      if (this.#open.has(value)) throw new TypeError('Converting circular structure to JSON')
      this.#open.add(value)
      yield* Array.isArray(value) ? this.#array(value, depth) : this.#object(value as Record<string, unknown>, depth)
      this.#open.delete(value)
    }
  }

  *#array(items: readonly unknown[], depth: string): Generator<string> {
    if (items.length === 0) {
      if (this.#add('[]')) yield this.#take()
      return
    }
    const inner = depth + this.#indent
    const between = this.#indent === '' ? ',' : `,\n${inner}`
    this.#add(this.#indent === '' ? '[' : `[\n${inner}`)
    for (let index = 0; index < items.length; index++) {
      if (index > 0) this.#add(between)
      const item = this.prepared(items[index], String(index))
      yield* this.value(item === SKIPPED ? null : item, inner)
    }
    if (this.#add(this.#indent === '' ? ']' : `\n${depth}]`)) yield this.#take()
  }

  *#object(record: Record<string, unknown>, depth: string): Generator<string> {
    const inner = depth + this.#indent
    const between = this.#indent === '' ? ',' : `,\n${inner}`
    const colon = this.#indent === '' ? ':' : ': '
    let written = 0
    for (const key of Object.keys(record)) {
      const item = this.prepared(record[key], key)
      if (item === SKIPPED) continue
      this.#add(written++ === 0 ? (this.#indent === '' ? '{' : `{\n${inner}`) : between)
      yield* this.#string(key)
      this.#add(colon)
      yield* this.value(item, inner)
    }
    if (this.#add(written === 0 ? '{}' : this.#indent === '' ? '}' : `\n${depth}}`)) yield this.#take()
  }

  *#string(text: string): Generator<string> {
    if (text.length < LONG_TEXT_CHARS) {
      if (this.#add(JSON.stringify(text))) yield this.#take()
      return
    }
    this.#add('"')
    let carried = '' // a high surrogate that ended the piece before
    for (const piece of this.#longTexts?.piecesOf(text) ?? [text]) {
      if (piece.length === 0) continue
      let start = 0
      if (carried !== '') {
        const paired = isLowSurrogate(piece.charCodeAt(0))
        this.#add(escaped(paired ? carried + piece[0]! : carried))
        if (paired) start = 1
        carried = ''
      }
      let end = piece.length
      if (end > start && isHighSurrogate(piece.charCodeAt(end - 1))) {
        carried = piece[end - 1]!
        end--
      }
      while (start < end) {
        let stop = Math.min(start + PIECE_CHARS, end)
        if (stop < end && isHighSurrogate(piece.charCodeAt(stop - 1)) && isLowSurrogate(piece.charCodeAt(stop))) stop++
        if (this.#add(escaped(piece.slice(start, stop)))) yield this.#take()
        start = stop
      }
    }
    if (carried !== '') this.#add(escaped(carried))
    if (this.#add('"')) yield this.#take()
  }
}

/** `text`'s JSON escaping, without the quotes. */
const escaped = (text: string): string => JSON.stringify(text).slice(1, -1)
