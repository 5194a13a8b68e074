/**
 * `LongTexts`: long strings that stay the pieces they were made of. A server
 * that reads a request of tens of megabytes must not hold its event loop for
 * any one step, and making one flat string of 25 MB (a join, or the first
 * read of a rope) is one step of 60–90 ms. A long text read in pieces (a
 * request body's string, a repaired history text) is given to whoever holds
 * it as a real string, the rope of its pieces, which the engine joins only if
 * someone reads its characters; whoever works through it piece by piece (the
 * history repair, the body's writer) asks `piecesOf` for the pieces and never
 * reads the rope.
 *
 * The pieces are filed under the text's length, one text per length, and
 * found when the text asked about is that very string: comparing a string
 * with itself reads nothing. A text of a length already taken is not kept
 * (its pieces are not known: read, it is joined once); and a different
 * string of a taken length is compared with the one kept, once, which reads
 * both. So a lookup costs at most the text's length, never a search among
 * many texts of one length, and whatever the runtime, `piecesOf` answers
 * pieces that join to exactly `text`.
 */
import { TextBuilder } from './text-builder.ts'

/** Shortest text kept as its pieces: shorter ones are joined at once (about a tenth of a millisecond). */
export const LONG_TEXT_CHARS = 65_536

/** Long texts made of pieces (`take`, `join`), each given back with its pieces (`piecesOf`). */
export class LongTexts {
  readonly #byLength = new Map<number, { text: string; pieces: readonly string[] }>()

  /** `builder`'s text, taken: a long one as the rope of its pieces, which `piecesOf` gives back; a short one joined. */
  take(builder: TextBuilder): string {
    if (builder.length < LONG_TEXT_CHARS) return builder.take()
    const pieces = builder.takePieces()
    if (pieces.length === 1) return pieces[0]!
    let rope = ''
    for (const piece of pieces) rope += piece
    if (!this.#byLength.has(rope.length)) this.#byLength.set(rope.length, { text: rope, pieces })
    return rope
  }

  /** The text `pieces` make, as `take` gives it (small pieces joined into blocks as `TextBuilder` joins them). */
  join(pieces: Iterable<string>): string {
    const builder = new TextBuilder()
    for (const piece of pieces) builder.append(piece)
    return this.take(builder)
  }

  /** Pieces that join to `text`: the ones it was made of (`take`, `join`), else `text` alone. */
  piecesOf(text: string): readonly string[] {
    const kept = text.length < LONG_TEXT_CHARS ? undefined : this.#byLength.get(text.length)
    return kept !== undefined && kept.text === text ? kept.pieces : [text]
  }
}
