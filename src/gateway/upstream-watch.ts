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
  const periods = [watch.keepAliveMs, watch.idleMs].filter((ms) => ms > 0)
  if (periods.length === 0) return body
  const reader = body.getReader()
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
  let silentSince = Date.now()
  let lastKeepAlive = silentSince
  // One clock per stream, not a timer per chunk: it ticks every shortest period, and each tick is a
  // promise every waiting pull shares (so a chunk costs one race, no timer).
  let ring: () => void = () => undefined
  let tick = new Promise<typeof TICK>((resolve) => (ring = () => resolve(TICK)))
  const clock = setInterval(() => {
    const rang = ring
    tick = new Promise<typeof TICK>((resolve) => (ring = () => resolve(TICK)))
    rang()
  }, Math.min(...periods))
  const stop = (): void => clearInterval(clock)
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pending ??= reader.read()
        for (;;) {
          let next: ReadableStreamReadResult<Uint8Array> | typeof TICK
          try {
            next = await Promise.race([pending, tick])
          } catch (error) {
            stop()
            controller.error(error)
            return
          }
          if (next !== TICK) {
            pending = undefined
            silentSince = lastKeepAlive = Date.now()
            if (next.done) {
              stop()
              controller.close()
            } else controller.enqueue(next.value)
            return
          }
          const now = Date.now()
          if (watch.idleMs > 0 && now - silentSince >= watch.idleMs) {
            stop()
            controller.enqueue(ENCODER.encode(watch.idleError(watch.idleMs)))
            controller.close()
            watch.abortUpstream()
            reader.cancel().catch(() => undefined)
            return
          }
          if (watch.keepAliveMs > 0 && now - lastKeepAlive >= watch.keepAliveMs) {
            lastKeepAlive = now
            controller.enqueue(KEEP_ALIVE)
            return
          }
        }
      },
      cancel(reason) {
        stop()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
