/**
 * `repairResponse`: the `fetch` `Response` rule every dialect's
 * `repair…Response` follows. A `text/event-stream` body goes through the
 * dialect's fused repair core (`repairBody`, one pull-based stream); a JSON body through its body repair (kept byte for
 * byte when nothing changed, or when it is not JSON). Status, status text and
 * headers are kept, minus `content-length` and `content-encoding` (the body is
 * decoded, and may change). Non-2xx responses, other bodies and empty bodies
 * pass through untouched. A JSON body is read whole, so it has a cap: past
 * `maxJsonChars` characters (the dialect's `maxBufferSize`) reading stops and
 * the promise rejects with a `StreamLimitError` (`json-body-limit`).
 */
import { StreamLimitError } from '../sse/errors.ts'
import type { DialectRepair } from './dialect-repair.ts'
import { readBodyText } from './read-body.ts'
import { repairBody } from './repair-body.ts'
import { DEFAULT_MAX_SSE_BUFFER } from '../sse/sse-decoder.ts'
import { isEventStream } from '../sse/types.ts'
import { parseBoundedJson } from '../json-text.ts'

export interface ResponseRepairs {
  /** A fused repair core for the SSE body. */
  core(): DialectRepair
  /** The repaired parsed JSON body, or undefined when nothing changed. */
  json(body: unknown): unknown
  /** The largest JSON body read, in characters. @default DEFAULT_MAX_SSE_BUFFER (8 Mi) */
  maxJsonChars?: number | undefined
}

function repairedHeaders(response: Response): Headers {
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  // fetch has already decoded the body: a gzip header would no longer match it.
  headers.delete('content-encoding')
  return headers
}

export async function repairResponse(response: Response, repairs: ResponseRepairs): Promise<Response> {
  if (!(response instanceof Response)) throw new TypeError('Cannot repair: expected a fetch Response')
  if (!response.ok || response.body === null) return response
  const contentType = response.headers.get('content-type') ?? ''
  const init = { status: response.status, statusText: response.statusText, headers: repairedHeaders(response) }
  if (isEventStream(response.headers)) return new Response(repairBody(response.body, repairs.core()), init)
  if (!contentType.includes('json')) return response
  const limit = repairs.maxJsonChars ?? DEFAULT_MAX_SSE_BUFFER
  const { text, complete } = await readBodyText(response.body, limit)
  if (!complete) throw new StreamLimitError('json-body-limit', limit, `Cannot repair: the JSON body is longer than maxBufferSize (${limit} characters)`)
  const body = parseBoundedJson(text)
  if (body === undefined) return new Response(text, init)
  const repaired = repairs.json(body.value)
  return new Response(repaired === undefined ? text : JSON.stringify(repaired), init)
}
