/**
 * How a client that goes away stops the upstream call, and how a response
 * that completes does not. The upstream `fetch` gets a signal of the
 * gateway's own, never the client request's, and the client's going away is
 * forwarded to it until the response body settles — read to its end, failed,
 * or cancelled (a cancel is the client going away, so it aborts the upstream
 * too).
 *
 * Where the client's going away is read from:
 * - under `Deno.serve`, whose handler gets a second argument with a
 *   `completed` promise (it rejects when the client goes away), that
 *   promise: Deno aborts `request.signal` when a response completes normally
 *   and warns whenever a handler reads it, so it is never read there;
 * - everywhere else, `request.signal`.
 */

export interface ClientAbort {
  /** The signal for the upstream request. */
  readonly signal: AbortSignal
  /** The client went away before the upstream answered. */
  left(): boolean
  /** Stops the upstream call for the gateway's own reason (a timeout): not the client's going away. */
  abortUpstream(): void
  /** The response body, which stops forwarding the client's going away once it settles (null: nothing to send; forwarding stops now). */
  settleWith(body: ReadableStream<Uint8Array> | null): ReadableStream<Uint8Array> | null
}

/** `Deno.serve`'s handler info: its `completed` promise. */
function completedOf(context: unknown): Promise<unknown> | undefined {
  if (context === null || typeof context !== 'object') return undefined
  const completed = (context as { completed?: unknown }).completed
  return completed instanceof Promise ? completed : undefined
}

export function forwardClientAbort(request: Request, context: unknown): ClientAbort {
  const upstream = new AbortController()
  let settled = false
  let left = false
  const abort = (): void => {
    if (settled) return
    left = true
    upstream.abort()
  }
  let detach = (): void => {}
  const completed = completedOf(context)
  if (completed !== undefined) {
    completed.catch(abort)
  } else {
    const client = request.signal
    if (client.aborted) abort()
    else {
      client.addEventListener('abort', abort, { once: true })
      detach = () => client.removeEventListener('abort', abort)
    }
  }
  const settle = (): void => {
    settled = true
    detach()
  }
  return {
    signal: upstream.signal,
    left: () => left,
    abortUpstream: () => upstream.abort(),
    settleWith(body) {
      if (body === null) {
        settle()
        return null
      }
      const reader = body.getReader()
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            let next: ReadableStreamReadResult<Uint8Array>
            try {
              next = await reader.read()
            } catch (error) {
              settle()
              controller.error(error)
              return
            }
            if (next.done) {
              settle()
              controller.close()
            } else controller.enqueue(next.value)
          },
          cancel(reason) {
            abort()
            settle()
            return reader.cancel(reason)
          },
        },
        { highWaterMark: 0 },
      )
    },
  }
}
