/**
 * Timing of an upstream stream, as the client receives it: while the
 * upstream is silent, a keep-alive comment goes to the client every
 * `keepAliveMs` (so that clients and proxies with idle timeouts of their own
 * do not drop a stream that is only slow); after `idleMs` with no byte from
 * the upstream, the stream ends with the dialect's error event (one the
 * client can read) and the upstream is aborted.
 */

export interface UpstreamWatch {
  /** Silence after which a keep-alive comment is sent; 0: none. */
  keepAliveMs: number
  /** Silence after which the stream ends with an error; 0: never. */
  idleMs: number
  /** The SSE text of the error event that ends an idle stream. */
  idleError(idleMs: number): string
  /** Stops the upstream call. */
  abortUpstream(): void
}

const ENCODER = new TextEncoder()
const KEEP_ALIVE = ENCODER.encode(': keep-alive\n\n')
const TICK = Symbol('tick')

export function watchUpstream(body: ReadableStream<Uint8Array>, watch: UpstreamWatch): ReadableStream<Uint8Array> {
  if (watch.keepAliveMs <= 0 && watch.idleMs <= 0) return body
  const reader = body.getReader()
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
  let silentSince = Date.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const stopTimer = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pending ??= reader.read()
        const silent = Date.now() - silentSince
        const untilIdle = watch.idleMs > 0 ? watch.idleMs - silent : Infinity
        const untilKeepAlive = watch.keepAliveMs > 0 ? watch.keepAliveMs : Infinity
        const wait = Math.max(0, Math.min(untilIdle, untilKeepAlive))
        const tick = new Promise<typeof TICK>((resolve) => {
          timer = setTimeout(() => resolve(TICK), wait)
        })
        let next: ReadableStreamReadResult<Uint8Array> | typeof TICK
        try {
          next = await Promise.race([pending, tick])
        } catch (error) {
          stopTimer()
          controller.error(error)
          return
        }
        stopTimer()
        if (next === TICK) {
          if (watch.idleMs > 0 && Date.now() - silentSince >= watch.idleMs) {
            controller.enqueue(ENCODER.encode(watch.idleError(watch.idleMs)))
            controller.close()
            watch.abortUpstream()
            reader.cancel().catch(() => undefined)
          } else controller.enqueue(KEEP_ALIVE)
          return
        }
        pending = undefined
        silentSince = Date.now()
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      },
      cancel(reason) {
        stopTimer()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
