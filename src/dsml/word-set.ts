/**
 * `WordSet`: a fixed set of ASCII words (tag names, special tokens), matched
 * one character at a time. The grammar builds its name sets with it.
 */
export class WordSet {
  readonly words: readonly string[]
  readonly longest: number
  /** The mask of every word. */
  readonly all: number
  /** `#table[position * 128 + code]`: the words with `code` at `position`. */
  #table: Uint32Array
  /** `#ends[length]`: the words exactly that long. */
  #ends: Uint32Array
  #fold: (code: number) => number

  /** `fold` maps a character to the one the words are written with (e.g. lower case), or -1. */
  constructor(words: readonly string[], fold: (code: number) => number = (code) => code) {
    if (words.length > 32) throw new RangeError('Cannot build a WordSet of more than 32 words')
    this.words = words
    this.all = words.length === 32 ? 0xffffffff : (1 << words.length) - 1
    this.#fold = fold
    this.longest = Math.max(...words.map((word) => word.length))
    this.#table = new Uint32Array(this.longest * 128)
    this.#ends = new Uint32Array(this.longest + 1)
    words.forEach((word, bit) => {
      this.#ends[word.length]! |= 1 << bit
      for (let position = 0; position < word.length; position++) {
        for (let code = 0; code < 128; code++) {
          if (fold(code) === word.charCodeAt(position)) this.#table[position * 128 + code]! |= 1 << bit
        }
      }
    })
  }

  /** The words of `mask` with `code` at `position` (0 when none). */
  step(mask: number, position: number, code: number): number {
    if (position >= this.longest) return 0
    if (code >= 128) {
      // Non-ASCII characters match through their folded (ASCII) form, if any.
      code = this.#fold(code)
      if (code < 0 || code >= 128) return 0
    }
    return mask & this.#table[position * 128 + code]!
  }

  /** Some word of `mask` is exactly `length` long. */
  ends(mask: number, length: number): boolean {
    return length <= this.longest && (mask & this.#ends[length]!) !== 0
  }

  /** The index of the word of `mask` exactly `length` long, or -1. */
  matched(mask: number, length: number): number {
    if (length > this.longest) return -1
    const bits = mask & this.#ends[length]!
    return bits === 0 ? -1 : 31 - Math.clz32(bits & -bits)
  }

  /** Can a word of the set start with `code`? */
  canStart(code: number): boolean {
    return this.step(this.all, 0, code) !== 0
  }

  /** The words of the set matching `text` (folded) in full. */
  matchesWhole(text: string): boolean {
    let mask = this.all
    for (let index = 0; index < text.length && mask !== 0; index++) mask = this.step(mask, index, text.charCodeAt(index))
    return this.ends(mask, text.length)
  }
}
