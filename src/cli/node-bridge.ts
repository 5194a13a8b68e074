/**
 * node:http ↔ web `Request`/`Response`: serves a web-standard fetch handler
 * (such as the gateway) from a Node `http.Server`. Node glue, `src/cli/` only.
 *
 * - The request body is read whole (chat requests are JSON documents), up to
 *   `maxBodyBytes`, counted as the bytes arrive (413 beyond, the rest unread).
 * - At most `maxInFlight` exchanges at once: past it, a JSON 503 before the
 *   body is read. Each holds one `ExchangeSlot`, given back on every path
 *   that ends it (`exchange-slots.ts`).
 * - The response body is streamed: each chunk is written as it arrives, with
 *   backpressure (a slow client slows the upstream read, nothing piles up).
 * - A client that goes away aborts the `Request`'s `signal` and cancels the
 *   response body, so the gateway cancels the upstream body in turn.
 * - A handler that throws gives a 500 JSON error; a body that errors after the
 *   headers were sent destroys the socket, so the client sees a cut response
 *   instead of a clean, wrong end.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { type ExchangeSlot, ExchangeSlots } from './exchange-slots.ts'
import { nodeHeaders, webHeaders } from './node-headers.ts'

export type FetchHandler = (request: Request) => Promise<Response>

export interface ExchangeSummary {
  request: Request
  /** The status sent (0 when nothing was sent). */
  status: number
  /** `complete`: the whole body was sent. `client-closed`: the client left first. `error`: the handler or the body failed. */
  outcome: 'complete' | 'client-closed' | 'error'
  durationMs: number
  error?: unknown
}

export interface NodeListenerOptions {
  /** Largest request body accepted, in bytes, counted as they arrive (413 beyond, the rest unread). @default 33_554_432 (32 MiB) */
  maxBodyBytes?: number
  /**
   * Exchanges served at once; past it a request gets a JSON 503 (with
   * `retry-after: 1`) before its body is read, so a burst of large bodies
   * cannot pile up in memory. @default 256
   */
  maxInFlight?: number
  /** Called once per exchange, when the response is finished or abandoned. */
  onFinish?: (summary: ExchangeSummary) => void
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new BodyTooLarge(`request body over ${limit} bytes`))
        req.removeAllListeners('data')
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
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

/** A `http.createServer` listener that serves `handler`. */
export function createNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024
  const maxInFlight = options.maxInFlight ?? 256
  const slots = new ExchangeSlots(maxInFlight)
  return (req, res) => {
    const slot = slots.take()
    if (slot === undefined) {
      req.resume()
      res.setHeader('retry-after', '1')
      jsonError(res, 503, `The gateway is serving ${maxInFlight} requests already; retry shortly.`, 'server_overloaded')
      return
    }
    void exchange(req, res, slot)
  }

  async function exchange(req: IncomingMessage, res: ServerResponse, slot: ExchangeSlot): Promise<void> {
    const started = performance.now()
    const abort = new AbortController()
    // The client is gone when the response closes unfinished, or the connection does: a request pipelined behind
    // others gets no close of its own response when the client closes the connection.
    const closed = (): void => {
      slot.release()
      if (!res.writableFinished) abort.abort(new Error('The client closed the connection'))
    }
    res.once('close', closed)
    const unwatch = watchConnection(req.socket, closed)
    try {
      await serveExchange(req, res, abort, started)
    } finally {
      res.off('close', closed)
      unwatch()
      slot.release()
    }
  }

  async function serveExchange(req: IncomingMessage, res: ServerResponse, abort: AbortController, started: number): Promise<void> {
    let request: Request | undefined
    let outcome: ExchangeSummary['outcome'] = 'complete'
    let failure: unknown
    try {
      const method = req.method ?? 'GET'
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
      const headers = webHeaders(req.rawHeaders)
      const hasBody = method !== 'GET' && method !== 'HEAD'
      const body = hasBody ? await readBody(req, maxBodyBytes) : undefined
      request = new Request(url, { method, headers, body: body !== undefined && body.length > 0 ? new Uint8Array(body) : null, signal: abort.signal })
    } catch (error) {
      outcome = 'error'
      failure = error
      if (error instanceof BodyTooLarge) jsonError(res, 413, `The request body is larger than ${maxBodyBytes} bytes.`, 'invalid_request_error')
      else jsonError(res, 400, `The request could not be read: ${error instanceof Error ? error.message : String(error)}`, 'invalid_request_error')
    }
    if (request !== undefined) {
      try {
        const response = await handler(request)
        await sendWebResponse(res, response, abort.signal)
      } catch (error) {
        outcome = 'error'
        failure = error
        jsonError(res, 500, 'The gateway failed while handling the request.', 'server_error')
      }
      if (outcome === 'complete' && !res.writableEnded) outcome = 'client-closed'
    }
    options.onFinish?.({
      request: request ?? new Request('http://invalid/'),
      status: res.headersSent ? res.statusCode : 0,
      outcome,
      durationMs: performance.now() - started,
      ...(failure === undefined ? {} : { error: failure }),
    })
  }
}
