/**
 * `repairResponse`: the `fetch` `Response` rule every dialect's
 * `repair…Response` follows. A `text/event-stream` body goes through the
 * dialect's stream repair; a JSON body through its body repair (kept byte for
 * byte when nothing changed, or when it is not JSON). Status, status text and
 * headers are kept, minus `content-length` and `content-encoding` (the body is
 * decoded, and may change). Non-2xx responses, other bodies and empty bodies
 * pass through untouched.
 */
export interface ResponseRepairs {
  /** The repaired SSE body. */
  stream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array>
  /** The repaired parsed JSON body, or undefined when nothing changed. */
  json(body: unknown): unknown
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
  if (contentType.includes('text/event-stream')) return new Response(repairs.stream(response.body), init)
  if (!contentType.includes('json')) return response
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return new Response(text, init)
  }
  const repaired = repairs.json(body)
  return new Response(repaired === undefined ? text : JSON.stringify(repaired), init)
}
