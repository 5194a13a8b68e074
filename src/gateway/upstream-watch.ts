/**
 * Timing of an upstream stream, as the client receives it: while the client
 * gets nothing, a keep-alive comment goes to it every `keepAliveMs` (so that
 * clients and proxies with idle timeouts of their own do not drop a stream
 * that is only slow, or whose markup is being held); after `idleMs` with no
 * byte from the upstream itself (`listenToUpstream`: markup held by the
 * repair is not silence), the stream ends with the dialect's error event (one
 * the client can read) and the upstream is aborted.
 */

import { encodeSseMessage } from '../sse/sse-encoder.ts'
import { isEventStream } from '../sse/types.ts'

export interface UpstreamWatch {
  /** Silence after which a keep-alive comment is sent; 0: none. */
  keepAliveMs: number
  /** Silence after which the stream ends with an error; 0: never. */
  idleMs: number
  /** The SSE text of the error event that ends an idle stream. */
  idleError(idleMs: number): string
  /** Stops the upstream call. */
  abortUpstream(): void
  /** When the upstream's last byte came (`listenToUpstream`); without it, the repaired stream's last chunk counts. */
  upstreamHeardAt?(): number
}

/**
 * The upstream's response, its body listened to as it comes. A stream of
 * events is passed on as it is, with when its last byte came (`heardAt`:
 * `Date.now()` time, or when it was listened to, before any), for
 * `watchUpstream`'s idle clock. Any other body (JSON, text, an error: read
 * whole, or forwarded as it comes) fails when it stalls for `idleMs`
 * (`withIdleDeadline`).
 */
export function listenToUpstream(response: Response, idleMs: number, abortUpstream: () => void): { response: Response; heardAt?: () => number } {
  if (response.body === null) return { response }
  const init = { status: response.status, statusText: response.statusText, headers: response.headers }
  if (!isEventStream(response.headers)) {
    const body = withIdleDeadline(response.body, idleMs, abortUpstream)
    return { response: body === response.body ? response : new Response(body, init) }
  }
  let heardAt = Date.now()
  const listened = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        heardAt = Date.now()
        controller.enqueue(chunk)
      },
    }),
  )
  return { response: new Response(listened, init), heardAt: () => heardAt }
}

const ENCODER = new TextEncoder()
const KEEP_ALIVE = ENCODER.encode(encodeSseMessage({ comment: 'keep-alive' }))

export function watchUpstream(body: ReadableStream<Uint8Array>, watch: UpstreamWatch): ReadableStream<Uint8Array> {
  const periods = [watch.keepAliveMs, watch.idleMs].filter((ms) => ms > 0)
  if (periods.length === 0) return body
  const reader = body.getReader()
  let silentSince = Date.now()
  let lastKeepAlive = silentSince
  // Silence counts only while the client waits: set while a pull waits on the upstream.
  let waiting: ReadableStreamDefaultController<Uint8Array> | undefined
  let waitingSince = silentSince
  let finished = false
  // One clock per stream, checking the silence every shortest period; a chunk costs no timer and no
  // promise of the clock's (a race against a long-lived promise would keep every chunk's reaction).
  const check = (): void => {
    const controller = waiting
    if (controller === undefined) return
    const now = Date.now()
    // Silence is the upstream's, counted from no earlier than this wait began (a client that read slowly kept it waiting).
    const heard = watch.upstreamHeardAt === undefined ? silentSince : Math.max(watch.upstreamHeardAt(), waitingSince)
    if (watch.idleMs > 0 && now - heard >= watch.idleMs) {
      stop()
      controller.enqueue(ENCODER.encode(watch.idleError(watch.idleMs)))
      controller.close()
      watch.abortUpstream()
      reader.cancel().catch(() => undefined)
    } else if (watch.keepAliveMs > 0 && now - lastKeepAlive >= watch.keepAliveMs) {
      lastKeepAlive = now
      controller.enqueue(KEEP_ALIVE)
    }
  }
  const clock = setInterval(check, Math.min(...periods))
  function stop(): void {
    finished = true
    waiting = undefined
    clearInterval(clock)
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        waiting = controller
        waitingSince = Date.now()
        let next: ReadableStreamReadResult<Uint8Array>
        try {
          next = await reader.read()
        } catch (error) {
          if (finished) return
          stop()
          controller.error(error)
          return
        }
        if (finished) return // ended for its silence meanwhile
        waiting = undefined
        silentSince = lastKeepAlive = Date.now()
        if (next.done) {
          stop()
          controller.close()
        } else controller.enqueue(next.value)
      },
      cancel(reason) {
        stop()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}

/** A body that is not a stream of events went silent for longer than the idle timeout (`withIdleDeadline`). */
export class UpstreamSilentError extends Error {}

/**
 * A body the gateway reads or forwards whole (JSON, text, an error body),
 * passed on as it is, but failed with `UpstreamSilentError` — and the
 * upstream call stopped — when no byte of it comes for `idleMs`: a body that
 * stalls after its headers holds neither the client nor its slot for good.
 * 0: no deadline.
 */
function withIdleDeadline(body: ReadableStream<Uint8Array>, idleMs: number, abortUpstream: () => void): ReadableStream<Uint8Array> {
  if (idleMs <= 0) return body
  let timer: ReturnType<typeof setTimeout> | undefined
  let failed = false
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        timer = setTimeout(() => {
          failed = true
          controller.error(new UpstreamSilentError(`the upstream sent nothing for ${idleMs} ms`))
          abortUpstream()
          reader.cancel().catch(() => undefined)
        }, idleMs)
        let next: ReadableStreamReadResult<Uint8Array>
        try {
          next = await reader.read()
        } catch (error) {
          if (!failed) controller.error(error)
          return
        } finally {
          clearTimeout(timer)
        }
        if (failed) return
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      },
      cancel(reason) {
        clearTimeout(timer)
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
