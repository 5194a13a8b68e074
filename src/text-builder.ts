/**
 * `TextBuilder`: a text appended in many small pieces (a stream's deltas,
 * held markup, a chain of partial tags), kept as a few strings. `a + b` per
 * piece keeps one rope node per piece alive until the text is read, and a
 * long-lived rope of tens of thousands of nodes is what the garbage collector
 * walks on every collection of an open stream; here every `PIECES_PER_JOIN`
 * new pieces are joined into one, so a text retains a few hundred objects
 * however it was cut. Linear: every character is copied once when its pieces
 * are joined and once when the text is read.
 */

const PIECES_PER_JOIN = 256
/** A piece this long is a block of its own, never joined with others: a long text read in large pieces is never copied whole before it is read (`takePieces`). */
const PIECE_KEPT_WHOLE = 4096

export class TextBuilder {
  /** Joined blocks first, then pieces not joined yet (from `#joinedUpTo` on). */
  #pieces: string[] = []
  #joinedUpTo = 0
  #length = 0

  append(text: string): void {
    if (text.length === 0) return
    const pieces = this.#pieces
    this.#length += text.length
    if (text.length >= PIECE_KEPT_WHOLE) {
      this.#joinPending()
      pieces.push(text)
      this.#joinedUpTo = pieces.length
      return
    }
    pieces.push(text)
    if (pieces.length - this.#joinedUpTo >= PIECES_PER_JOIN) this.#joinPending()
  }

  /** The pieces appended since the last block, joined into one block. */
  #joinPending(): void {
    const pieces = this.#pieces
    if (pieces.length - this.#joinedUpTo > 1) {
      pieces.push(pieces.splice(this.#joinedUpTo).join(''))
    }
    this.#joinedUpTo = pieces.length
  }

  /** Characters appended so far. */
  get length(): number {
    return this.#length
  }

  /** The whole text, as one flat string, and the builder emptied. */
  take(): string {
    const pieces = this.#pieces
    const text = pieces.length === 1 ? pieces[0]! : pieces.join('')
    if (pieces.length > 0) this.#pieces = []
    this.#joinedUpTo = 0
    this.#length = 0
    return text
  }

  /**
   * The whole text as the blocks it is kept in (a few hundred small pieces
   * joined, a piece of `PIECE_KEPT_WHOLE` characters or more as it came),
   * never joined into one, and the builder emptied.
   */
  takePieces(): string[] {
    this.#joinPending()
    const pieces = this.#pieces
    if (pieces.length > 0) this.#pieces = []
    this.#joinedUpTo = 0
    this.#length = 0
    return pieces
  }

  /** Drops the text. */
  clear(): void {
    if (this.#pieces.length > 0) this.#pieces = []
    this.#joinedUpTo = 0
    this.#length = 0
  }

  /** The whole text (one flat string, kept: reading it again costs nothing). */
  toString(): string {
    const pieces = this.#pieces
    if (pieces.length <= 1) return pieces[0] ?? ''
    const text = pieces.join('')
    this.#pieces = [text]
    this.#joinedUpTo = 1
    return text
  }
}
