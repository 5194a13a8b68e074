/**
 * `repairBody`: a dialect's fused repair core over a whole upstream body, as
 * one pull-based `ReadableStream` that reads the upstream itself. The same
 * bytes as the body piped through the dialect's repair stream, without a
 * pipe and a TransformStream in between (no writable side, no per-chunk
 * write and backpressure promises): the one body wrapper of every
 * `repair…Response` (`repairResponse`), and of `repairChatCompletionsBody`.
 *
 * Like the pipe: the upstream is locked at once; its error becomes the
 * output's error; a repair error (`StreamLimitError`) errors the output and
 * cancels the upstream with it; cancelling the output cancels the upstream.
 * One upstream read at a time, only when the consumer wants more.
 */
import type { DialectRepair } from './dialect-repair.ts'

/** Stateless, so every body shares one. */
const ENCODER = new TextEncoder()

export function repairBody(upstream: ReadableStream<string | Uint8Array>, repair: DialectRepair): ReadableStream<Uint8Array> {
  const encoder = ENCODER
  const reader = upstream.getReader()
  let failed = false

  function fail(error: unknown): never {
    failed = true
    reader.cancel(error).catch(() => {})
    throw error
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Read until there is something to give (a read may repair to nothing).
        for (;;) {
          const { done, value } = await reader.read()
          if (done) {
            let text: string
            try {
              text = repair.end()
            } catch (error) {
              return fail(error)
            }
            if (text.length > 0) controller.enqueue(encoder.encode(text))
            controller.close()
            return
          }
          let text: string | undefined
          try {
            text = repair.feed(value)
          } catch (error) {
            return fail(error)
          }
          if (text === undefined) {
            controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value)
            return
          }
          if (text.length > 0) controller.enqueue(encoder.encode(text))
          if (repair.stopped) {
            // A runaway ended the message: the upstream is cancelled, so the tokens stop.
            reader.cancel(new Error('Runaway markup (runawayRepeat): the message was ended here')).catch(() => {})
            controller.close()
            return
          }
          if (text.length > 0) return
        }
      },
      cancel(reason) {
        if (!failed) return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
