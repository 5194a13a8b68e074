/**
 * `createNodeFetch`: the `fetch` the `serve` command gives the gateway for
 * its upstream calls, on node:http and node:https. Node glue, `src/cli/` only.
 *
 * Node's global `fetch` (undici) spends more CPU per request than the whole
 * repair does: its spec machinery builds several streams, signals and
 * records for each call. This one does what the gateway needs of a fetch and
 * no more:
 *
 * - The request's method, headers and body go out as they are, over
 *   keep-alive connections (one pool per `createNodeFetch`, reused LIFO,
 *   closed after 4 s idle). A request whose reused connection turns out to
 *   be closed by the server (reset before any answer) goes again, up to
 *   twice: the server never read it.
 * - It resolves when the response headers arrive, with a `Response` whose
 *   body streams the upstream's bytes with backpressure (the socket is paused
 *   while 64 KiB wait unread).
 * - A body in `gzip`, `deflate` or `br` is decoded (the header is kept, as
 *   `fetch` keeps it); other codings come as they are.
 * - Redirects are not followed: a 3xx comes back as it is. (An API that
 *   answers a POST with a redirect is misconfigured, and `fetch` would turn
 *   a 301/302/303 into a GET without the body.)
 * - The request's `signal` aborts the call: before the headers, the promise
 *   rejects with the signal's reason; after, the body errors with it. Either
 *   way the connection is closed, so the upstream stops.
 * - Cancelling the body closes the connection too; a connection that ends
 *   before the body does errors the body.
 */
import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { nodeHeaders, webHeaders } from './node-headers.ts'

export type NodeFetch = (request: Request) => Promise<Response>

/** Statuses whose responses have no body (the `Response` constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

/** The decoder of one content coding, or undefined for a coding passed through as it is. */
function decoderOf(coding: string): Readable | undefined {
  switch (coding.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip()
    case 'deflate':
      return createInflate()
    case 'br':
      return createBrotliDecompress()
    default:
      return undefined
  }
}

/** The body's bytes as sent: decoded when every coding named is one this fetch decodes (undone last first). */
function decodedBody(message: IncomingMessage): Readable {
  const header = message.headers['content-encoding']
  if (header === undefined || header.trim() === '' || header.trim().toLowerCase() === 'identity') return message
  const decoders = header.split(',').reverse().map(decoderOf)
  if (decoders.some((decoder) => decoder === undefined)) return message
  let stream: Readable = message
  for (const decoder of decoders as Readable[]) {
    stream.on('error', (error) => decoder.destroy(error))
    stream = stream.pipe(decoder as unknown as NodeJS.WritableStream) as unknown as Readable
  }
  return stream
}

/** A request body's chunks, as they come (kept, to be sent again on a stale connection; never copied into one). */
async function chunksOf(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = []
  const reader = body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return chunks
    chunks.push(value)
  }
}

/** What a body may hold unread before its socket is paused. */
const UNREAD_BODY_BYTES = 64 * 1024

/** The upstream body as a web stream: one chunk per read, the socket paused while the reader is behind. */
function webBody(message: IncomingMessage, signal: AbortSignal, onEnd: () => void): ReadableStream<Uint8Array> {
  const source = decodedBody(message)
  let settled = false
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown): void => {
          if (settled) return
          settled = true
          signal.removeEventListener('abort', onAbort)
          controller.error(error)
          message.destroy()
        }
        const onAbort = (): void => fail(signal.reason)
        signal.addEventListener('abort', onAbort, { once: true })
        source.on('data', (chunk: Buffer) => {
          if (settled) return
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) source.pause()
        })
        source.once('end', () => {
          if (settled) return
          settled = true
          signal.removeEventListener('abort', onAbort)
          controller.close()
          onEnd()
        })
        // A connection that closes before the body's end (a reset, a cut) errors the body.
        const cut = (cause?: unknown): Error => new Error('The upstream closed the connection before the response ended', cause === undefined ? {} : { cause })
        source.on('error', (error) => fail(message.complete ? error : cut(error)))
        message.once('close', () => {
          if (!message.complete) fail(cut())
        })
      },
      pull() {
        source.resume()
      },
      cancel() {
        settled = true
        message.destroy()
      },
    },
    // Paused only once this much waits unread: a socket paused and resumed for every event costs more than the event.
    { highWaterMark: UNREAD_BODY_BYTES, size: (chunk) => chunk.byteLength },
  )
}

/**
 * How long a pooled connection may idle before this side closes it: under the 5 s that Node's
 * servers (and many others) keep one open, so a request seldom goes out on a connection the server
 * is closing at that moment.
 */
const IDLE_CONNECTION_MS = 4000

/** Retries of a request whose reused connection was reset before any answer (the server had closed it). */
const STALE_CONNECTION_RETRIES = 2

/** A connection the server had already closed: the request never reached it, so it can be sent again. */
function staleConnection(error: NodeJS.ErrnoException, reused: boolean): boolean {
  return reused && (error.code === 'ECONNRESET' || error.code === 'EPIPE')
}

export interface NodeFetchOptions {
  /**
   * Called when a response body has been read to its end, with the milliseconds from the request
   * leaving to the body's last byte: the upstream's part of an exchange.
   */
  onBodyEnd?: (request: Request, upstreamMs: number) => void
}

/** A fetch over node:http(s), with a keep-alive pool of its own; `close()` ends the pool's idle connections. */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch & { close(): void } {
  const pool = { keepAlive: true, scheduling: 'lifo' as const, timeout: IDLE_CONNECTION_MS }
  const agents = { 'http:': new HttpAgent(pool), 'https:': new HttpsAgent(pool) }
  const nodeFetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`Cannot fetch ${url.protocol} URLs: only http: and https:`)
    const signal = request.signal
    signal.throwIfAborted()
    const body = request.body === null ? undefined : await chunksOf(request.body)
    const headers = nodeHeaders(request.headers)
    if (body !== undefined) headers['content-length'] = String(body.reduce((total, chunk) => total + chunk.byteLength, 0))
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const agent = agents[url.protocol]
    const sentAt = performance.now()
    const onEnd = (): void => options.onBodyEnd?.(request, performance.now() - sentAt)
    const attempt = (retries: number): Promise<Response> =>
      new Promise<Response>((resolve, reject) => {
        const outgoing = send(url, { method: request.method, headers, agent })
        const onAbort = (): void => {
          outgoing.destroy()
          reject(signal.reason)
        }
        signal.addEventListener('abort', onAbort, { once: true })
        let answered = false
        outgoing.on('error', (error: NodeJS.ErrnoException) => {
          signal.removeEventListener('abort', onAbort)
          if (answered) return // the body reports it
          if (retries > 0 && !signal.aborted && staleConnection(error, outgoing.reusedSocket)) resolve(attempt(retries - 1))
          else reject(error)
        })
        outgoing.once('response', (message) => {
          answered = true
          signal.removeEventListener('abort', onAbort)
          const status = message.statusCode ?? 502
          const init = { status, statusText: message.statusMessage ?? '', headers: webHeaders(message.rawHeaders) }
          try {
            if (NULL_BODY_STATUSES.has(status) || request.method === 'HEAD') {
              message.resume()
              resolve(new Response(null, init))
            } else resolve(new Response(webBody(message, signal, onEnd), init))
          } catch (error) {
            message.destroy()
            reject(error)
          }
        })
        for (const chunk of body ?? []) outgoing.write(chunk)
        outgoing.end()
      })
    return attempt(STALE_CONNECTION_RETRIES)
  }
  return Object.assign(nodeFetch, {
    close(): void {
      agents['http:'].destroy()
      agents['https:'].destroy()
    },
  })
}
