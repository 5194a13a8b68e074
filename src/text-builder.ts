/**
 * `TextBuilder`: a text appended in many small pieces (a stream's deltas,
 * held markup, a chain of partial tags), kept as a few strings. `a + b` per piece keeps one rope node per piece
 * alive until the text is read, and a long-lived rope of tens of thousands
 * of nodes is what the garbage collector walks on every collection of an
 * open stream; here the pieces are joined every `PIECES_PER_BLOCK`, so a
 * text retains a few hundred objects however it was cut. Linear: every
 * character is copied once into its block and once when the text is read.
 */

const PIECES_PER_BLOCK = 256

export class TextBuilder {
  #blocks: string[] = []
  #pieces: string[] = []
  #length = 0

  append(text: string): void {
    if (text === '') return
    this.#length += text.length
    const pieces = this.#pieces
    pieces.push(text)
    if (pieces.length === PIECES_PER_BLOCK) {
      this.#blocks.push(pieces.join(''))
      this.#pieces = []
    }
  }

  /** Characters appended so far. */
  get length(): number {
    return this.#length
  }

  /** The whole text, as one flat string, and the builder emptied. Cheap when empty or one piece (the common case of held text). */
  take(): string {
    if (this.#length === 0) return ''
    const text = this.toString()
    this.clear()
    return text
  }

  /** Drops the text (its arrays kept, emptied). */
  clear(): void {
    this.#blocks.length = 0
    this.#pieces.length = 0
    this.#length = 0
  }

  /** The whole text (one flat string, kept: reading it again costs nothing). */
  toString(): string {
    if (this.#blocks.length === 1 && this.#pieces.length === 0) return this.#blocks[0]!
    if (this.#blocks.length === 0 && this.#pieces.length <= 1) return this.#pieces[0] ?? ''
    const text = this.#blocks.join('') + this.#pieces.join('')
    this.#blocks = text === '' ? [] : [text]
    this.#pieces = []
    return text
  }
}
