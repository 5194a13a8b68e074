/**
 * `jsonPieces`: the text of `JSON.stringify(value, null, indent)` as a series
 * of pieces, so that a value holding a long string (a message of a hundred
 * megabytes) is written without ever being one string of its whole text.
 *
 * `JSON.stringify` still lays everything out: the value is stringified with
 * each string longer than `PIECE_CHARS`, and each `TextPieces` (a string
 * given as the pieces it was made of, never joined), stood in for by a
 * marker; each such text is escaped by `JSON.stringify` too, a slice of
 * `PIECE_CHARS` at a time (never between the halves of a surrogate pair,
 * which it would escape one by one). JSON escapes each character on its own,
 * so the pieces join to exactly the text of the value with its pieces joined.
 */

/** Longest string written whole, and the size of the slices of a longer one. */
const PIECE_CHARS = 65_536

/** A string given as its pieces, written by `jsonPieces` as the one string they join to, without joining them. */
export class TextPieces {
  readonly pieces: readonly string[]

  constructor(pieces: readonly string[]) {
    this.pieces = pieces
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/** `JSON.stringify(value, null, indent)` (each `TextPieces` as its joined text) in pieces, joined exactly that text. `value` must have a JSON text (not undefined, a function or a symbol). */
export function* jsonPieces(value: unknown, indent?: number): Generator<string> {
  // A marker whose JSON text also occurs in the outline (inside some string of the value) shows too often: try the next.
  for (let attempt = 0; ; attempt++) {
    const marker = `\u0000long string ${attempt}\u0000`
    const long: Array<string | TextPieces> = []
    const outline: string | undefined = JSON.stringify(
      value,
      (_key, item: unknown) => ((typeof item === 'string' && item.length > PIECE_CHARS) || item instanceof TextPieces ? (long.push(item), marker) : item),
      indent,
    )
    if (outline === undefined) throw new TypeError(`Cannot write ${typeof value} as JSON`)
    const between = outline.split(JSON.stringify(marker))
    if (between.length !== long.length + 1) continue
    for (let index = 0; index < long.length; index++) {
      yield `${between[index]!}"`
      const text = long[index]!
      yield* typeof text === 'string' ? escapedSlices(text, 0, text.length) : escapedPieces(text.pieces)
      yield '"'
    }
    yield between[long.length]!
    return
  }
}

/** The JSON escaping of `text` from `start` to `end`, without quotes, a slice at a time (a pair never cut). */
function* escapedSlices(text: string, start: number, end: number): Generator<string> {
  while (start < end) {
    let stop = Math.min(start + PIECE_CHARS, end)
    if (stop < end && isHighSurrogate(text.charCodeAt(stop - 1)) && isLowSurrogate(text.charCodeAt(stop))) stop++
    yield JSON.stringify(text.slice(start, stop)).slice(1, -1)
    start = stop
  }
}

/**
 * The JSON escaping of the pieces' joined text, without quotes. A pair cut
 * between two pieces is escaped as the pair it is, from its two halves alone:
 * no piece is joined to another.
 */
function* escapedPieces(pieces: readonly string[]): Generator<string> {
  let carried = '' // a high surrogate that ended the piece before
  for (const piece of pieces) {
    if (piece.length === 0) continue
    let start = 0
    if (carried !== '') {
      const paired = isLowSurrogate(piece.charCodeAt(0))
      yield JSON.stringify(paired ? carried + piece[0]! : carried).slice(1, -1)
      if (paired) start = 1
      carried = ''
    }
    let end = piece.length
    if (end > start && isHighSurrogate(piece.charCodeAt(end - 1))) {
      carried = piece[end - 1]!
      end--
    }
    yield* escapedSlices(piece, start, end)
  }
  if (carried !== '') yield JSON.stringify(carried).slice(1, -1)
}
