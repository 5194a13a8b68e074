/**
 * The gateway's request body. It accepts JSON, declared so. A browser
 * sends a "simple" request (no preflight) from any page only with a body
 * typed `text/plain`, a form type, or no type; refusing every body not typed
 * JSON keeps any web page from posting to a local gateway, and keeps a body
 * that is not JSON from being parsed at all. A body is read, and a repaired
 * one written, in slices (`work-slices.ts`): a large body does not hold the
 * event loop while other streams wait.
 */
import { createJsonReader } from '../json-reader.ts'
import { jsonPieces } from '../json-pieces.ts'
import { LongTexts } from '../long-texts.ts'
import { type Pace, WorkStopped } from '../work-slices.ts'

/** Whether `headers` type the body as JSON: `application/json`, or a `+json` type (`application/vnd.api+json`), with any parameters. */
export function isJsonContent(headers: Headers): boolean {
  const type = headers.get('content-type')
  if (type === null) return false
  const semicolon = type.indexOf(';')
  const essence = (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase()
  return essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'))
}

/** Bytes decoded and read at once: about a millisecond of work, and a text long enough (over 128 KiB) to be allocated as a large object. */
const DECODE_SLICE_BYTES = 256 * 1024

/** A request body read as JSON. */
export interface JsonBody {
  /** The body as the client sent it (a byte order mark dropped, as its value was read), held as the slices it was read in: forwarded as it is when nothing in it is repaired. */
  bytes: Blob
  /** Its value: what `parseBoundedJson` gives for its text. */
  value: unknown
  /** Where the value's long strings keep the pieces they were read in (`writeJsonBody` writes them from those). */
  longTexts: LongTexts
}

/** UTF-8's byte order mark, which `Request.text()` drops, as the reading here does. */
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf]

const startsWithByteOrderMark = (bytes: Uint8Array, length: number): boolean => length >= BYTE_ORDER_MARK.length && BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte)

/**
 * The body read as JSON (UTF-8, a byte order mark dropped as
 * `Request.text()` drops it), or undefined when it cannot be read or is not
 * JSON nested at most `MAX_JSON_DEPTH` deep (a `WorkStopped` from `pace` is
 * thrown on; reading stops at the slice that shows it is not JSON). Decoded
 * and parsed a slice at a time (`createJsonReader`), the loop given a turn
 * when `pace` says one is due: the body is never one string or one buffer,
 * and a step is a slice (a long string stays the pieces it was read in,
 * `LongTexts`; what is still read whole is a number or a key, each as long
 * as the client made it).
 */
export async function readJsonBody(request: Request, pace: Pace): Promise<JsonBody | undefined> {
  const longTexts = new LongTexts()
  const reader = createJsonReader({ longTexts })
  const decoder = new TextDecoder()
  const kept: Blob[] = []
  // Chunks are gathered into slices: a decoded slice is long enough to be born where long-lived large strings live
  // in V8, so the young generation's collections never copy the body's text; and the bytes are kept as one copy of
  // each slice, not as the many chunks (a body trickled a byte at a time) they came in.
  const slice = new Uint8Array(DECODE_SLICE_BYTES)
  let filled = 0
  const readSlice = (last: boolean): void => {
    kept.push(new Blob([slice.subarray(kept.length === 0 && startsWithByteOrderMark(slice, filled) ? BYTE_ORDER_MARK.length : 0, filled)]))
    reader.feed(decoder.decode(slice.subarray(0, filled), { stream: !last }))
    filled = 0
  }
  try {
    if (request.body !== null) {
      const chunks = request.body.getReader()
      for (;;) {
        const { done, value } = await chunks.read()
        if (done) break
        for (let start = 0; start < value.length; ) {
          const taken = Math.min(value.length - start, DECODE_SLICE_BYTES - filled)
          slice.set(value.subarray(start, start + taken), filled)
          filled += taken
          start += taken
          if (filled < DECODE_SLICE_BYTES) continue
          await pace.turn(filled)
          readSlice(false)
          if (reader.failed) return undefined
        }
      }
    }
    readSlice(true)
  } catch (error) {
    if (error instanceof WorkStopped) throw error
    return undefined // the body could not be read
  }
  const parsed = reader.end()
  return parsed === undefined ? undefined : { bytes: new Blob(kept), value: parsed.value, longTexts }
}

/**
 * `value`'s JSON text as UTF-8, written in pieces (`jsonPieces`), the loop
 * given a turn when `pace` says one is due: a repaired body of any size is
 * written without being one string or one buffer, its long strings from
 * their pieces.
 */
export async function writeJsonBody(value: unknown, longTexts: LongTexts, pace: Pace): Promise<Blob> {
  const encoder = new TextEncoder()
  const written: Blob[] = []
  for (const piece of jsonPieces(value, { longTexts })) {
    await pace.turn(piece.length)
    written.push(new Blob([encoder.encode(piece)]))
  }
  return new Blob(written)
}
