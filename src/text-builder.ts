/**
 * `TextBuilder`: a text appended in many small pieces (a stream's deltas,
 * held markup, a chain of partial tags), kept as a few strings. `a + b` per
 * piece keeps one rope node per piece alive until the text is read, and a
 * long-lived rope of tens of thousands of nodes is what the garbage collector
 * walks on every collection of an open stream; here every `PIECES_PER_JOIN`
 * new small pieces are joined into one block, and a large piece is a block
 * of its own, so a text retains one object per `PIECES_PER_JOIN` small
 * pieces, or per `PIECE_KEPT_WHOLE` characters or more. Linear: every
 * character of a small piece is copied once when its pieces are joined and
 * once when the text is read; a large one's, only then.
 */

const PIECES_PER_JOIN = 256
/**
 * A piece this long is a block of its own, never joined with others: a long
 * text read in large pieces (a history text's stretches between removed
 * calls, a request body's chunks) is copied once, when it is read, not once
 * into a block and again then; and it is never copied whole before it is
 * read (`takePieces`). Such pieces add at most one object per this many
 * characters to the few hundred the small ones are joined into.
 */
export const PIECE_KEPT_WHOLE = 1024

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

  /**
   * Is `text` the whole text (false for anything but a string)? Compared
   * block by block, never joined: a long text that turns out the same is not
   * copied into a new string (a copy of hundreds of thousands of characters
   * is the costly part of reading it).
   */
  equals(text: unknown): boolean {
    if (typeof text !== 'string' || text.length !== this.#length) return false
    const pieces = this.#pieces
    let at = 0
    for (let index = 0; index < pieces.length; index++) {
      const piece = pieces[index]!
      // Equality of a substring (a view, compared as memory), not `startsWith`, which V8 compares a character at a time.
      if (text.substring(at, at + piece.length) !== piece) return false
      at += piece.length
    }
    return true
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
