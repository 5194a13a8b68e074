/**
 * `createChunkReader`: what the data of an SSE message is, read without
 * `JSON.parse` (one pass over the text, no allocation on the common path).
 *
 * A chunk is *plain* when decoding it could give nothing but a text part
 * that no stage changes while the DSML sanitizer is idle (`PlainJsonScanner`
 * decides, asking the decoder and the sanitizer).
 *
 * Chunks of one stream differ mostly in their `content` string: the last
 * plain chunk is kept as a *shape*, cut around that string. A chunk of the
 * same shape (the same text before and after the content string, a string
 * between) is the shape with another content: plain if that string is, and
 * otherwise readable without parsing the rest (`CHUNK_SHAPED`). Putting one
 * string value in place of another keeps the JSON valid and every other value
 * as it was, so only the new string is read.
 */
import { BODY_OTHER, BODY_PLAIN, BODY_PLAIN_ESCAPED, BODY_REFUSED } from '../dialect-kit/plain-json-string.ts'
import { singleLineFrame } from '../sse/sse-encoder.ts'
import { PlainJsonScanner } from './json-scan.ts'

/** How a chunk's data is framed as a message: Chat Completions events have no name. */
export const CHUNK_FRAME = singleLineFrame(undefined)

// What `ChunkReader.read` found.
/** Read it in full. */
export const CHUNK_OTHER = 0
/** Plain (see above): forward it as it came if the sanitizer is quiet. */
export const CHUNK_PLAIN = 1
/**
 * The shape of the last plain chunk with another `content` string (in
 * `reader.content`), known to sit at `choices[0].delta.content`: the chunk
 * reads as that shape with this content (`reader.shape`), no parse needed.
 */
export const CHUNK_SHAPED = 2

/** The last plain chunk, cut around its content string. */
export interface ChunkShape {
  /** Up to and with the opening quote of the content string. */
  readonly before: string
  /** From the closing quote of the content string. */
  readonly after: string
}

/**
 * Reads chunks with its own memory of the last plain chunk (one per stream).
 * A class, so that an open stream pays for its fields only.
 */
export class ChunkReader {
  /** The last plain chunk's shape (undefined until one has a content string). */
  shape: ChunkShape | undefined = undefined
  /** After CHUNK_SHAPED: the content string, decoded. */
  content = ''
  /** The shape as the text of a read, in the frame of a message with no event name (`singleLineFrame`; made when first needed). */
  #eventBefore = ''
  #eventAfter = ''
  /** Whether `shape` may be used for CHUNK_SHAPED (undefined: not asked yet). */
  #usable: boolean | undefined = undefined
  #scan = new PlainJsonScanner()

  /**
   * Classifies the data of a message. `plain`: whether a plain answer is
   * wanted (the sanitizer is quiet); without it, CHUNK_PLAIN is never given.
   * `usable`, if given, says whether a shape may be used for CHUNK_SHAPED
   * (asked once per shape); without it, CHUNK_SHAPED is never given.
   */
  read(data: string, plain: boolean, usable: ((shape: ChunkShape) => boolean) | undefined): number {
    const shape = this.shape
    if (shape !== undefined) {
      const found = this.#readShaped(data, shape.before, shape.after, plain, usable)
      if (found !== -1) return found
    }
    const scan = this.#scan
    if (!plain || !scan.isPlain(data)) return CHUNK_OTHER
    if (scan.contentStart === -1) {
      this.shape = undefined
    } else {
      this.shape = { before: data.slice(0, scan.contentStart), after: data.slice(scan.contentEnd) }
      this.#eventBefore = ''
      this.#usable = undefined
    }
    return CHUNK_PLAIN
  }

  /**
   * The same for the text of a whole read, the data in the frame of a
   * message with no event name (`CHUNK_FRAME`), against the last shape only: CHUNK_OTHER (which says nothing about the
   * data) when the text does not have that shape. CHUNK_PLAIN means the text
   * is exactly one such event: a single line, no control character.
   */
  readEvent(text: string, plain: boolean, usable: ((shape: ChunkShape) => boolean) | undefined): number {
    const shape = this.shape
    if (shape === undefined) return CHUNK_OTHER
    if (this.#eventBefore === '') {
      this.#eventBefore = CHUNK_FRAME.before + shape.before
      this.#eventAfter = shape.after + CHUNK_FRAME.after
    }
    const found = this.#readShaped(text, this.#eventBefore, this.#eventAfter, plain, usable)
    return found === -1 ? CHUNK_OTHER : found
  }

  /** Reads against the last shape: CHUNK_PLAIN, CHUNK_SHAPED, CHUNK_OTHER (not plain), or -1 (does not fit). */
  #readShaped(data: string, before: string, after: string, plain: boolean, usable: ((shape: ChunkShape) => boolean) | undefined): number {
    const start = before.length
    const end = data.length - after.length
    // Equality of substrings: faster than startsWith / endsWith in V8.
    if (end < start || data.substring(end) !== after || data.substring(0, start) !== before) return -1
    const found = this.#scan.readBody(data, start, end)
    if (found === BODY_OTHER) return -1
    if (plain && found <= BODY_PLAIN_ESCAPED) return CHUNK_PLAIN
    if (usable === undefined) return found === BODY_REFUSED ? CHUNK_OTHER : -1
    if (this.#usable === undefined) this.#usable = usable(this.shape!)
    if (!this.#usable) return found === BODY_REFUSED ? CHUNK_OTHER : -1
    if (found === BODY_PLAIN) {
      this.content = data.substring(start, end)
      return CHUNK_SHAPED
    }
    // Escapes (any, `\u` too) or characters a string cannot hold raw: JSON decides.
    try {
      this.content = JSON.parse(data.substring(start - 1, end + 1)) as string
    } catch {
      return CHUNK_OTHER
    }
    return CHUNK_SHAPED
  }
}

export function createChunkReader(): ChunkReader {
  return new ChunkReader()
}
