/**
 * The header rules of every request the gateway sends on and every response
 * it passes back, repaired or passed through: hop-by-hop headers never cross
 * (RFC 9110 §7.6.1), nor do those a body the gateway may change no longer fits.
 */

/**
 * Request headers never forwarded: hop-by-hop headers (RFC 9110 §7.6.1),
 * `host` (the upstream's own), `content-length` (the body sent may differ: repaired, or without a byte order mark)
 * and `accept-encoding` (the body must come back readable, to be repaired).
 */
const DROPPED_REQUEST_HEADERS = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'expect',
]

/**
 * Response headers never passed back: hop-by-hop headers, `content-length`
 * (a repaired body has another length) and `content-encoding` (`fetch`
 * already decoded the body, so the header no longer describes it).
 */
const DROPPED_RESPONSE_HEADERS = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'content-encoding',
]

function withoutHeaders(source: Headers, dropped: readonly string[]): Headers {
  const headers = new Headers(source)
  // Headers listed in `Connection` are hop-by-hop too.
  for (const name of (source.get('connection') ?? '').split(',')) {
    const trimmed = name.trim()
    if (trimmed !== '') headers.delete(trimmed)
  }
  for (const name of dropped) headers.delete(name)
  return headers
}

/** The client's request headers, as they may go upstream. */
export function upstreamRequestHeaders(source: Headers): Headers {
  return withoutHeaders(source, DROPPED_REQUEST_HEADERS)
}

/** The upstream's response headers, as they may go back to the client. */
export function clientResponseHeaders(source: Headers): Headers {
  return withoutHeaders(source, DROPPED_RESPONSE_HEADERS)
}
