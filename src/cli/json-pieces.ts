/**
 * `jsonPieces`: the text of `JSON.stringify(value, null, indent)` as a series
 * of pieces, so that a value holding a long string (a message of a hundred
 * megabytes) is written without ever being one string of its whole text.
 *
 * `JSON.stringify` still lays everything out: the value is stringified with
 * each string longer than `PIECE_CHARS` stood in for by a marker, and each
 * such string is escaped by `JSON.stringify` too, a slice of `PIECE_CHARS` at
 * a time (never between the halves of a surrogate pair, which it would escape
 * one by one). JSON escapes each character on its own, so the pieces join to
 * exactly the whole text.
 */

/** Longest string written whole, and the size of the slices of a longer one. */
const PIECE_CHARS = 65_536

/** `JSON.stringify(value, null, indent)` in pieces, joined exactly that text. `value` must have a JSON text (not undefined, a function or a symbol). */
export function* jsonPieces(value: unknown, indent?: number): Generator<string> {
  // A marker whose JSON text also occurs in the outline (inside some string of the value) shows too often: try the next.
  for (let attempt = 0; ; attempt++) {
    const marker = `\u0000long string ${attempt}\u0000`
    const long: string[] = []
    const outline: string | undefined = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' && item.length > PIECE_CHARS ? (long.push(item), marker) : item), indent)
    if (outline === undefined) throw new TypeError(`Cannot write ${typeof value} as JSON`)
    const between = outline.split(JSON.stringify(marker))
    if (between.length !== long.length + 1) continue
    for (let index = 0; index < long.length; index++) {
      yield `${between[index]!}"`
      yield* escapedSlices(long[index]!)
      yield '"'
    }
    yield between[long.length]!
    return
  }
}

/** A string's JSON escaping, without the quotes, a slice at a time. */
function* escapedSlices(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + PIECE_CHARS, text.length)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++
    yield JSON.stringify(text.slice(start, end)).slice(1, -1)
    start = end
  }
}
