/**
 * `RepeatedText` and `findRepeated`: long texts a dialect's decoder knows the
 * messages to come may repeat whole (`DialectDecoder.repeatedIn` asks: a
 * Responses stream's closing events each repeat the text of its `.done`),
 * and where their bytes occur in a read. The fused machine asks before
 * decoding a read, so that a read that repeats them is decoded around them
 * (`SseDecoderCore.eventAround`): a text of hundreds of thousands of
 * characters is compared as bytes, not decoded into a new string again.
 *
 * Linear: each text is looked for by its first byte and a few more at fixed
 * places; at most `COMPARES_PER_READ` candidates that pass those are
 * compared whole, so a read costs its length plus that many texts' lengths.
 * A text not found so is merely decoded with the read.
 */
import type { KnownJsonString } from '../json-known-strings.ts'
import type { BytesReadAs } from '../sse/sse-decoder.ts'

/** A JSON string (quotes included) a decoder knows, and the UTF-8 bytes read as it (`bytesReadAs`). */
export interface RepeatedText {
  readonly known: KnownJsonString
  readonly bytes: Uint8Array
}

/** Where one of the texts occurs in a read: bytes `[start, end)`, read as `text` (its JSON string), which spells `known`. */
export interface RepeatedAt extends BytesReadAs {
  readonly known: KnownJsonString
}

/** Candidates compared whole, per text and read: past them a text is not looked for further in that read. */
const COMPARES_PER_READ = 4

/** Where the texts occur in `read`, in order, none overlapping an earlier one. */
export function findRepeated(read: Uint8Array, texts: readonly RepeatedText[]): RepeatedAt[] {
  const found: RepeatedAt[] = []
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!
    let compares = 0
    let from = 0
    for (;;) {
      const start = candidate(read, text.bytes, from)
      if (start === -1 || compares === COMPARES_PER_READ) break
      compares++
      if (sameBytes(read, start, text.bytes)) {
        found.push({ start, end: start + text.bytes.length, text: text.known.written, known: text.known })
        from = start + text.bytes.length
      } else {
        from = start + 1
      }
    }
  }
  if (found.length < 2) return found
  found.sort((first, second) => first.start - second.start)
  const kept: RepeatedAt[] = []
  for (const at of found) if (kept.length === 0 || at.start >= kept[kept.length - 1]!.end) kept.push(at)
  return kept
}

/**
 * The first place from `from` where `bytes` may start in `read`: its first,
 * second, middle, second-to-last and last bytes are there. -1 when there is
 * none.
 */
function candidate(read: Uint8Array, bytes: Uint8Array, from: number): number {
  const length = bytes.length
  if (length < 2 || read.length - from < length) return -1
  const first = bytes[0]!
  const second = bytes[1]!
  const middle = length >> 1
  const middleByte = bytes[middle]!
  const last = length - 1
  const lastByte = bytes[last]!
  const beforeLast = bytes[last - 1]!
  const end = read.length - length
  // The first byte found by the engine (`indexOf`, as memory), the others compared here.
  for (let start = read.indexOf(first, from); start !== -1 && start <= end; start = read.indexOf(first, start + 1)) {
    if (read[start + 1] === second && read[start + last] === lastByte && read[start + middle] === middleByte && read[start + last - 1] === beforeLast) return start
  }
  return -1
}

/** Are the bytes of `read` from `start` exactly `bytes`? Four at a time (`DataView` reads them at any alignment), then the rest one by one. */
function sameBytes(read: Uint8Array, start: number, bytes: Uint8Array): boolean {
  const length = bytes.length
  const readView = new DataView(read.buffer, read.byteOffset + start, length)
  const view = new DataView(bytes.buffer, bytes.byteOffset, length)
  const words = length - (length % 4)
  let index = 0
  for (; index < words; index += 4) if (readView.getUint32(index) !== view.getUint32(index)) return false
  for (; index < length; index++) if (read[start + index] !== bytes[index]) return false
  return true
}
