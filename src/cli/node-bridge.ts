/**
 * node:http ↔ web `Request`/`Response`: serves a web-standard fetch handler
 * (such as the gateway) from a Node `http.Server`, or from any framework that
 * hands over Node's request and response (Express, Fastify, Koa, Connect):
 * `createNodeListener(handler)`. The `dsml-streams serve` command runs on it;
 * `dsml-streams/node` exports it (Node glue stays in `src/cli/`).
 *
 * What a client can hold, and for how long (each limit an option below):
 * - The request body is read whole (chat requests are JSON documents), up to
 *   `maxBodyBytes`, counted as the bytes arrive (413 beyond, the rest unread).
 *   The bodies held at once share `maxBodyBytesInFlight`, from their first
 *   byte until the handler answers (a JSON 503 beyond).
 * - At most `maxInFlight` exchanges at once: past it, a JSON 503. An
 *   exchange takes its slot once its body has arrived, so a client still
 *   sending (however slowly) holds no slot; `createNodeServer` gives it
 *   `requestTimeoutMs` to send its whole request. Slots and body bytes are
 *   `Capacity` shares, given back on every path that ends the exchange.
 * - `allowedHosts`: a request naming another `Host` gets a 403 (a page on
 *   another site cannot reach a loopback gateway through DNS rebinding).
 * - The response body is streamed: each chunk is written as it arrives, with
 *   backpressure (a slow client slows the upstream read, nothing piles up).
 * - A client that goes away aborts the `Request`'s `signal` and cancels the
 *   response body, so the gateway cancels the upstream body in turn.
 * - A handler that throws gives a 500 JSON error; a body that errors after the
 *   headers were sent destroys the socket, so the client sees a cut response
 *   instead of a clean, wrong end.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { Capacity, type Share } from './capacity.ts'
import { hostAllowed, hostName } from './allowed-hosts.ts'
import { nodeHeaders, webHeaders } from './node-headers.ts'

export type FetchHandler = (request: Request) => Promise<Response>

export interface ExchangeSummary {
  request: Request
  /** The status sent (0 when nothing was sent). */
  status: number
  /**
   * `complete`: the whole body was sent. `client-closed`: the client left
   * first. `refused`: a limit refused it before the handler saw it (`Host`,
   * body size, bodies held, slots). `error`: the request could not be read,
   * or the handler or the body failed.
   */
  outcome: 'complete' | 'client-closed' | 'refused' | 'error'
  durationMs: number
  error?: unknown
}

const MIB = 1024 * 1024

/** The bridge's limits when not given: one place, which the command's flags and usage read too. */
export const NODE_SERVER_DEFAULTS = {
  maxBodyBytes: 32 * MIB,
  maxBodyBytesInFlight: 128 * MIB,
  maxInFlight: 256,
  requestTimeoutMs: 60_000,
  maxConnections: 512,
} as const

export interface NodeListenerOptions {
  /** Largest request body accepted, in bytes, counted as they arrive (413 beyond, the rest unread). @default 33_554_432 (32 MiB) */
  maxBodyBytes?: number
  /**
   * Bytes of request bodies held at once, counted from each body's first
   * byte until the handler has answered it; a body that would pass it gets a
   * JSON 503 (with `retry-after: 1`), so a burst of large bodies cannot pile
   * up in memory. At least `maxBodyBytes`. @default 134_217_728 (128 MiB)
   */
  maxBodyBytesInFlight?: number
  /**
   * Exchanges served at once. An exchange takes its slot once its request
   * has arrived whole (a client still sending holds none); past it a JSON 503
   * (with `retry-after: 1`). @default 256
   */
  maxInFlight?: number
  /**
   * Host names (no port) that requests may name in `Host` besides IP
   * addresses and `localhost`; a request naming another gets a 403. Set it
   * for a server bound to loopback (`isLoopbackBind`), against DNS
   * rebinding. @default undefined (every host)
   */
  allowedHosts?: Iterable<string>
  /** Called once per exchange, when the response is finished or abandoned. */
  onFinish?: (summary: ExchangeSummary) => void
}

export interface NodeServerOptions extends NodeListenerOptions {
  /**
   * Time a client has to send its whole request, headers and body, from its
   * first byte; past it Node answers 408 and closes the connection (checked
   * every second). A streamed response, once the request has arrived, has no
   * such limit. @default 60_000
   */
  requestTimeoutMs?: number
  /** Connections open at once; past it a new connection is closed at once (each holds a file descriptor). @default 512 */
  maxConnections?: number
}

/** A body read whole, as a stream of the chunks it came in (not copied into one), each let go once read. */
function bodyStream(chunks: Array<Buffer | undefined>): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks[next]
      if (chunk === undefined) return controller.close()
      chunks[next++] = undefined
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length))
    },
  })
}

/** A request refused before the handler saw it: its status, the error's type and message. */
class RefusedBody extends Error {
  readonly status: number
  readonly type: string

  constructor(status: number, type: string, message: string) {
    super(message)
    this.status = status
    this.type = type
  }
}

/** Reads `req`'s body whole, in the chunks it came in, each counted against `limit` and grown into `share` as it arrives. */
function readBody(req: IncomingMessage, limit: number, share: Share, overloaded: () => RefusedBody): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const refuse = (refusal: RefusedBody): void => {
      reject(refusal)
      req.removeAllListeners('data')
      req.resume()
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return refuse(new RefusedBody(413, 'invalid_request_error', `The request body is larger than ${limit} bytes.`))
      if (!share.grow(chunk.length)) return refuse(overloaded())
      chunks.push(chunk)
    })
    req.on('end', () => resolve(chunks))
    req.on('error', reject)
    // A client that leaves mid-body (or that Node's request timeout cut off) ends the read.
    req.on('close', () => reject(new Error('The client closed the connection before its request arrived')))
  })
}

function jsonError(res: ServerResponse, status: number, message: string, type: string): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' })
  res.end(JSON.stringify({ error: { message, type, param: null, code: null } }))
}

/** Waits until `res` can take more data, or is closed, or the client is gone (`gone`). */
function drained(res: ServerResponse, gone?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      gone?.removeEventListener('abort', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
    gone?.addEventListener('abort', done)
  })
}

/** What to call when each connection closes: one listener per connection, however many requests are pipelined on it. */
const connectionWatchers = new WeakMap<Socket, Set<() => void>>()

/** Calls `then` once when `socket` closes (at once if it has); returns what stops watching. */
function watchConnection(socket: Socket, then: () => void): () => void {
  if (socket.destroyed) {
    then()
    return () => {}
  }
  let watchers = connectionWatchers.get(socket)
  if (watchers === undefined) {
    const created = new Set<() => void>()
    watchers = created
    connectionWatchers.set(socket, created)
    socket.once('close', () => {
      connectionWatchers.delete(socket)
      for (const watcher of created) watcher()
    })
  }
  const own = watchers
  own.add(then)
  return () => own.delete(then)
}

const uncork = (res: ServerResponse): void => res.uncork()

/** Holds what is written to `res` until the current tick ends, so that it leaves in one write. */
function corkForTick(res: ServerResponse): void {
  res.cork()
  process.nextTick(uncork, res)
}

/**
 * Writes a web `Response` to a Node `ServerResponse`, streaming its body. Resolves when done or
 * abandoned. The headers leave at the end of the tick they were written in, with whatever body is
 * ready by then (a client waiting on a slow upstream has them at once); each chunk leaves at the end
 * of its tick, with the end of the body when that is ready too.
 */
export async function sendWebResponse(res: ServerResponse, response: Response, gone?: AbortSignal): Promise<void> {
  res.writeHead(response.status, response.statusText || undefined, nodeHeaders(response.headers))
  if (response.body === null) {
    res.end()
    return
  }
  corkForTick(res)
  res.flushHeaders()
  const reader = response.body.getReader()
  const onClose = (): void => {
    if (!res.writableFinished) reader.cancel(new Error('The client closed the connection')).catch(() => {})
  }
  res.on('close', onClose)
  gone?.addEventListener('abort', onClose)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || res.destroyed || gone?.aborted === true) break
      corkForTick(res)
      if (!res.write(value)) await drained(res, gone)
    }
    if (!res.destroyed && gone?.aborted !== true) res.end()
  } finally {
    res.off('close', onClose)
    gone?.removeEventListener('abort', onClose)
  }
}

/** A request refused before it was read, for its summary: its method and path, no headers or body. */
function requestLine(req: IncomingMessage): Request {
  try {
    return new Request(new URL(req.url ?? '/', 'http://localhost'), { method: req.method ?? 'GET' })
  } catch {
    return new Request('http://invalid/')
  }
}

/** A `http.createServer` listener that serves `handler`. */
export function createNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const maxBodyBytes = options.maxBodyBytes ?? NODE_SERVER_DEFAULTS.maxBodyBytes
  const maxInFlight = options.maxInFlight ?? NODE_SERVER_DEFAULTS.maxInFlight
  const maxBodyBytesInFlight = Math.max(options.maxBodyBytesInFlight ?? NODE_SERVER_DEFAULTS.maxBodyBytesInFlight, maxBodyBytes)
  const allowedHosts = options.allowedHosts === undefined ? undefined : new Set([...options.allowedHosts].map(hostName))
  const slots = new Capacity(maxInFlight)
  const bodyBytes = new Capacity(maxBodyBytesInFlight)
  const busy = (): RefusedBody => new RefusedBody(503, 'server_overloaded', `The gateway is serving ${maxInFlight} requests already; retry shortly.`)
  const bodiesFull = (): RefusedBody => new RefusedBody(503, 'server_overloaded', `The gateway holds ${maxBodyBytesInFlight} bytes of request bodies already; retry shortly.`)

  return (req, res) => {
    void exchange(req, res)
  }

  async function exchange(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now()
    const abort = new AbortController()
    const body = bodyBytes.take(0)!
    let slot: Share | undefined
    // The client is gone when the response closes unfinished, or the connection does: a request pipelined behind
    // others gets no close of its own response when the client closes the connection. Its request is aborted, so
    // the handler and the response stop; the slot and the body's bytes are given back once they have (below), not
    // before: the handler may still hold the body while it stops.
    const closed = (): void => {
      if (!res.writableFinished) abort.abort(new Error('The client closed the connection'))
    }
    res.once('close', closed)
    const unwatch = watchConnection(req.socket, closed)
    let request: Request | undefined
    let outcome: ExchangeSummary['outcome'] = 'complete'
    let failure: unknown
    try {
      request = await arrived(req, body)
      // Taken once the request is whole: a client still sending holds no slot.
      slot = slots.take()
      if (slot === undefined) throw busy()
    } catch (error) {
      outcome = error instanceof RefusedBody ? 'refused' : 'error'
      failure = error
      if (error instanceof RefusedBody) {
        if (error.status === 503) res.setHeader('retry-after', '1')
        jsonError(res, error.status, error.message, error.type)
      } else {
        jsonError(res, 400, `The request could not be read: ${error instanceof Error ? error.message : String(error)}`, 'invalid_request_error')
      }
    }
    try {
      if (request !== undefined && outcome === 'complete') {
        try {
          const response = await handler(request)
          // The handler has read the body and answered: its bytes are no longer held for it.
          body.release()
          await sendWebResponse(res, response, abort.signal)
        } catch (error) {
          outcome = 'error'
          failure = error
          jsonError(res, 500, 'The gateway failed while handling the request.', 'server_error')
        }
        if (outcome === 'complete' && !res.writableEnded) outcome = 'client-closed'
      }
    } finally {
      res.off('close', closed)
      unwatch()
      body.release()
      slot?.release()
    }
    options.onFinish?.({
      request: request ?? requestLine(req),
      status: res.headersSent ? res.statusCode : 0,
      outcome,
      durationMs: performance.now() - started,
      ...(failure === undefined ? {} : { error: failure }),
    })

    /** The request as a web `Request`, its body read whole into `share`; refused (a `RefusedBody`) on the way when it must be. */
    async function arrived(req: IncomingMessage, share: Share): Promise<Request> {
      if (!hostAllowed(req.headers.host, allowedHosts)) {
        throw new RefusedBody(403, 'invalid_request_error', `This gateway does not answer requests for host ${JSON.stringify(req.headers.host)}. Use localhost or 127.0.0.1, or allow the name (--allowed-hosts).`)
      }
      // Refused before the body is read when no slot could take it anyway.
      if (slots.free === 0) throw busy()
      const declared = Number(req.headers['content-length'] ?? 0)
      if (declared > maxBodyBytes) throw new RefusedBody(413, 'invalid_request_error', `The request body is larger than ${maxBodyBytes} bytes.`)
      const method = req.method ?? 'GET'
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
      const headers = webHeaders(req.rawHeaders)
      const hasBody = method !== 'GET' && method !== 'HEAD'
      const chunks = hasBody ? await readBody(req, maxBodyBytes, share, bodiesFull) : []
      // `duplex: 'half'`: a stream body (Node's fetch asks for it; the type does not know it yet).
      const init = { method, headers, body: chunks.length > 0 ? bodyStream(chunks) : null, signal: abort.signal, duplex: 'half' }
      return new Request(url, init as RequestInit)
    }
  }
}

/**
 * An `http.Server` that serves `handler` (`createNodeListener`), with the
 * limits on what connections may hold: `requestTimeoutMs` to send a whole
 * request, `maxConnections` open at once.
 */
export function createNodeServer(handler: FetchHandler, options: NodeServerOptions = {}): Server {
  const { requestTimeoutMs = NODE_SERVER_DEFAULTS.requestTimeoutMs, maxConnections = NODE_SERVER_DEFAULTS.maxConnections, ...listenerOptions } = options
  const server = createServer(
    // Node's own deadlines: the headers, then the whole request, each within requestTimeoutMs.
    { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 },
    createNodeListener(handler, listenerOptions),
  )
  server.maxConnections = maxConnections
  return server
}
