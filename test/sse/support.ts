/**
 * Helpers for the SSE suites: run the decoder over chunks (strings or UTF-8
 * bytes), every chunking of an input, and streams built with constructors
 * and read with getReader() loops (no ReadableStream.from / Array.fromAsync).
 * No node: imports: these suites also run under Deno and Bun.
 */
import { createSseDecoder } from '../../src/sse/index.ts'
import type { SseDecoderOptions } from '../../src/sse/sse-decoder.ts'
import type { SseMessage } from '../../src/sse/types.ts'
import { assertEqual } from '../support/assert.ts'
import { collect, collectUntilError, streamOf } from '../support/streams.ts'
export { collect, collectUntilError, streamOf }

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

/** Feeds every chunk to one decoder, then ends it; returns every message in order. */
export function decodeChunks(chunks: Iterable<string | Uint8Array>, options: SseDecoderOptions = {}): SseMessage[] {
  const decoder = createSseDecoder(options)
  const messages: SseMessage[] = []
  for (const chunk of chunks) messages.push(...decoder.feed(chunk))
  messages.push(...decoder.end())
  return messages
}

/** `[input.slice(0, i), input.slice(i)]` for every i in 1..length-1 (strings: UTF-16 offsets; bytes: byte offsets). */
export function* twoWaySplits<T extends string | Uint8Array>(input: T): Generator<[number, T[]]> {
  for (let index = 1; index < input.length; index++) {
    yield [index, [input.slice(0, index) as T, input.slice(index) as T]]
  }
}

/** One UTF-16 unit (strings) or one byte (bytes) per chunk. */
export function units<T extends string | Uint8Array>(input: T): T[] {
  const out: T[] = []
  for (let index = 0; index < input.length; index++) out.push(input.slice(index, index + 1) as T)
  return out
}

/** Chunks cut at the given offsets (taken modulo length + 1, sorted, deduplicated; empty chunks kept out). */
export function chunksAt<T extends string | Uint8Array>(input: T, cuts: readonly number[]): T[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort((a, b) => a - b)
  const chunks: T[] = []
  let previous = 0
  for (const offset of offsets) {
    if (offset > previous) chunks.push(input.slice(previous, offset) as T)
    previous = offset
  }
  if (previous < input.length) chunks.push(input.slice(previous) as T)
  return chunks
}

/**
 * Asserts that `input` decodes to `expected` as strings: whole, split in two at
 * every UTF-16 offset (so also inside a surrogate pair and between CR and LF),
 * and one UTF-16 unit at a time.
 */
export function assertDecodesAsText(input: string, expected: readonly SseMessage[], options: SseDecoderOptions = {}): void {
  assertEqual(decodeChunks([input], options), expected, 'whole input')
  for (const [offset, chunks] of twoWaySplits(input)) {
    assertEqual(decodeChunks(chunks, options), expected, `split at UTF-16 offset ${offset} of ${input.length}`)
  }
  assertEqual(decodeChunks(units(input), options), expected, 'one UTF-16 unit at a time')
}

/**
 * Asserts that `input`, encoded as UTF-8, decodes to `expected`: whole, split
 * in two at every byte offset (so inside every multi-byte character), and one
 * byte at a time.
 */
export function assertDecodesAsBytes(input: string, expected: readonly SseMessage[], options: SseDecoderOptions = {}): void {
  const bytes = utf8(input)
  assertEqual(decodeChunks([bytes], options), expected, 'whole input as bytes')
  for (const [offset, chunks] of twoWaySplits(bytes)) {
    assertEqual(decodeChunks(chunks, options), expected, `split at byte offset ${offset} of ${bytes.length}`)
  }
  assertEqual(decodeChunks(units(bytes), options), expected, 'one byte at a time')
}

/** Data line endings as the decoder gives them back: CRLF and CR become LF. */
export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n|\r/g, '\n')
}

/** What decoding an encoded message gives back: the same message, data line endings normalised to LF. */
export function decodedForm(message: SseMessage): SseMessage {
  return 'comment' in message ? message : { ...message, data: normalizeLineEndings(message.data) }
}




/** Re-cuts a byte stream into pieces of 1, 2, 3, 1, 2, 3… bytes (so characters split across reads). */
export function rechunkBytes(): TransformStream<Uint8Array, Uint8Array> {
  let size = 0
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let index = 0
      while (index < chunk.length) {
        size = (size % 3) + 1
        controller.enqueue(chunk.slice(index, index + size))
        index += size
      }
    },
  })
}
