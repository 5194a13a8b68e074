/**
 * The gateway's request body. It accepts JSON, declared so. A browser
 * sends a "simple" request (no preflight) from any page only with a body
 * typed `text/plain`, a form type, or no type; refusing every body not typed
 * JSON keeps any web page from posting to a local gateway, and keeps a body
 * that is not JSON from being parsed at all. The body's text is decoded in
 * slices (`work-slices.ts`): a large body does not hold the event loop while
 * other streams wait.
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
  /** The body as the client sent it, in the chunks it arrived in: forwarded as it is when nothing in it is repaired. */
  bytes: Array<Uint8Array<ArrayBuffer>>
  /** Its value: what `parseBoundedJson` gives for its text. */
  value: unknown
  /** Where the value's long strings keep the pieces they were read in (`jsonBodyBytes` writes them from those). */
  longTexts: LongTexts
}

/**
 * The body read as JSON (UTF-8, a byte order mark dropped as
 * `Request.text()` drops it), or undefined when it cannot be read or is not
 * JSON nested at most `MAX_JSON_DEPTH` deep (a `WorkStopped` from `pace` is
 * thrown on). Decoded and parsed a slice at a time (`createJsonReader`), the
 * loop given a turn when `pace` says one is due: the body is never one
 * string, and no step takes longer than a slice, whatever its size (a long
 * string stays the pieces it was read in, `LongTexts`).
 */
export async function readJsonBody(request: Request, pace: Pace): Promise<JsonBody | undefined> {
  const longTexts = new LongTexts()
  const reader = createJsonReader({ longTexts })
  const bytes: Array<Uint8Array<ArrayBuffer>> = []
  try {
    if (request.body !== null) {
      // Chunks are gathered into slices: a decoded slice is long enough to be born where long-lived large strings
      // live in V8, so the young generation's collections never copy the body's text.
      const decoder = new TextDecoder()
      const slice = new Uint8Array(DECODE_SLICE_BYTES)
      let filled = 0
      const chunks = request.body.getReader()
      for (;;) {
        const { done, value } = await chunks.read()
        if (done) break
        bytes.push(value)
        for (let start = 0; start < value.length; ) {
          const taken = Math.min(value.length - start, DECODE_SLICE_BYTES - filled)
          slice.set(value.subarray(start, start + taken), filled)
          filled += taken
          start += taken
          if (filled < DECODE_SLICE_BYTES) continue
          await pace.turn(filled)
          reader.feed(decoder.decode(slice, { stream: true }))
          filled = 0
        }
      }
      reader.feed(decoder.decode(slice.subarray(0, filled)))
    }
  } catch (error) {
    if (error instanceof WorkStopped) throw error
    return undefined // the body could not be read
  }
  const parsed = reader.end()
  return parsed === undefined ? undefined : { bytes, value: parsed.value, longTexts }
}

/**
 * `value`'s JSON text as UTF-8, in pieces (`jsonPieces`), the loop given a
 * turn when `pace` says one is due: a repaired body of any size is written
 * without being one string, its long strings from their pieces.
 */
export async function jsonBodyBytes(value: unknown, longTexts: LongTexts, pace: Pace): Promise<Array<Uint8Array<ArrayBuffer>>> {
  const encoder = new TextEncoder()
  const bytes: Array<Uint8Array<ArrayBuffer>> = []
  for (const piece of jsonPieces(value, { longTexts })) {
    await pace.turn(piece.length)
    bytes.push(encoder.encode(piece))
  }
  return bytes
}

/** A request body of these bytes: one chunk as it is, more as a stream of them (never copied into one). */
export function bodyOfBytes(bytes: ReadonlyArray<Uint8Array<ArrayBuffer>>): { body: BodyInit; duplex?: 'half' } {
  if (bytes.length <= 1) return { body: bytes[0] ?? new Uint8Array(0) }
  let next = 0
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      const chunk = bytes[next++]
      if (chunk === undefined) controller.close()
      else controller.enqueue(chunk)
    },
  })
  return { body: stream, duplex: 'half' }
}
