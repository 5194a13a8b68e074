/**
 * `createLineReader`: the Lingma body as lines. Lingma's consumers read it
 * line by line (consecutive `data:` lines with no blank line between them
 * are separate frames, not one multi-line SSE event), so the decoder does
 * too. Bytes are decoded as UTF-8 across reads (a character split between
 * reads is whole once both arrive); lines end at LF, CRLF or CR, also when
 * the CR and LF arrive in different reads. A line longer than the cap is an
 * error rather than unbounded growth.
 */

const LINE_FEED = 0x0a
const CARRIAGE_RETURN = 0x0d

export class LineTooLongError extends Error {
  override name = 'LineTooLongError'
  /** The complete lines of the read that came before the line past the cap. */
  readonly lines: readonly string[]

  constructor(message: string, lines: readonly string[] = []) {
    super(message)
    this.lines = lines
  }
}

export interface LineReader {
  /** The lines this read completes. Throws `LineTooLongError` past the cap. */
  feed(chunk: string | Uint8Array): string[]
  /** The last line, when the body did not end with a line break. */
  end(): string[]
}

export function createLineReader(maxLineChars: number): LineReader {
  return new Reader(maxLineChars)
}

/** A class, so that one per open stream pays for its fields only. */
class Reader implements LineReader {
  #decoder = new TextDecoder('utf-8')
  #partial = ''
  /** The last read ended with a CR: an LF at the start of the next one ends nothing. */
  #afterCarriageReturn = false
  #maxLineChars: number

  constructor(maxLineChars: number) {
    this.#maxLineChars = maxLineChars
  }

  feed(chunk: string | Uint8Array): string[] {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true })
    const lines: string[] = []
    let start = 0
    let index = 0
    if (this.#afterCarriageReturn && text.charCodeAt(0) === LINE_FEED) {
      start = 1
      index = 1
    }
    if (text.length > 0) this.#afterCarriageReturn = false
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index)
      if (code !== LINE_FEED && code !== CARRIAGE_RETURN) continue
      lines.push(this.#partial + text.slice(start, index))
      this.#partial = ''
      if (code === CARRIAGE_RETURN) {
        if (index + 1 === text.length) this.#afterCarriageReturn = true
        else if (text.charCodeAt(index + 1) === LINE_FEED) index++
      }
      start = index + 1
    }
    this.#partial += text.slice(start)
    if (this.#partial.length > this.#maxLineChars) {
      this.#partial = ''
      // The lines this read completed before the long one are kept: the reader owns them, whatever the split.
      throw new LineTooLongError(`A Lingma SSE line is longer than ${this.#maxLineChars} characters`, lines)
    }
    return lines
  }

  end(): string[] {
    const rest = this.#partial + this.#decoder.decode()
    this.#partial = ''
    return rest === '' ? [] : [rest]
  }
}
