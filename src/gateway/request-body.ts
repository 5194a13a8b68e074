/**
 * The gateway's request body. It accepts JSON, declared so. A browser
 * sends a "simple" request (no preflight) from any page only with a body
 * typed `text/plain`, a form type, or no type; refusing every body not typed
 * JSON keeps any web page from posting to a local gateway, and keeps a body
 * that is not JSON from being parsed at all. The body's text is decoded in
 * slices (`work-slices.ts`): a large body does not hold the event loop while
 * other streams wait.
 */
import { parseBoundedJson } from '../json-text.ts'
import { type Pace, WorkStopped } from '../work-slices.ts'

/** Whether `headers` type the body as JSON: `application/json`, or a `+json` type (`application/vnd.api+json`), with any parameters. */
export function isJsonContent(headers: Headers): boolean {
  const type = headers.get('content-type')
  if (type === null) return false
  const semicolon = type.indexOf(';')
  const essence = (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase()
  return essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'))
}

/** Bytes decoded at once: about a millisecond of decoding. */
const DECODE_SLICE_BYTES = 256 * 1024

/** The body's text (UTF-8, a byte order mark dropped as `Request.text()` drops it), decoded in slices. */
async function readBodyText(request: Request, pace: Pace): Promise<string> {
  if (request.body === null) return ''
  const decoder = new TextDecoder()
  const parts: string[] = []
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    for (let start = 0; start < value.length; start += DECODE_SLICE_BYTES) {
      const slice = value.subarray(start, start + DECODE_SLICE_BYTES)
      await pace.turn(slice.length)
      parts.push(decoder.decode(slice, { stream: true }))
    }
  }
  parts.push(decoder.decode())
  return parts.join('')
}

/**
 * The body read as JSON: its text and its value (`parseBoundedJson`), or
 * undefined when it cannot be read or is not JSON nested at most
 * `MAX_JSON_DEPTH` deep (a `WorkStopped` from `pace` is thrown on). Decoded in slices, the loop given a turn when
 * `pace` says one is due, and before and after the parse: what holds the
 * loop longest is one native join and one native parse of the whole text.
 */
export async function readJsonBody(request: Request, pace: Pace): Promise<{ text: string; value: unknown } | undefined> {
  let text: string
  try {
    text = await readBodyText(request, pace)
  } catch (error) {
    if (error instanceof WorkStopped) throw error
    return undefined // the body could not be read
  }
  await pace.turn(0)
  const parsed = parseBoundedJson(text)
  await pace.turn(text.length)
  return parsed === undefined ? undefined : { text, value: parsed.value }
}
