/**
 * `ChatCompletionsRepairStream`: the fused repair chain in one
 * `TransformStream`. Bytes or strings of an upstream Chat Completions SSE body
 * in, repaired UTF-8 SSE bytes out.
 *
 * A read of whole events that all come out unchanged (the common prose chunk)
 * is forwarded as it came: the same `Uint8Array`, not decoded and encoded
 * again. So, like any pass-through stage, it relies on the upstream not
 * reusing a chunk's memory once it has enqueued it. The readable side holds
 * up to one chunk (highWaterMark 1): the next write need not wait for a read
 * first, which saves a backpressure round trip (two promises) per chunk.
 */
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { type ChatCompletionsRepairOptions, createChatCompletionsRepairCore } from './repair.ts'

export interface ChatCompletionsRepairStreamOptions extends ChatCompletionsRepairOptions {}

/** Stateless, so every stream shares one. */
const ENCODER = new TextEncoder()

/**
 * @example
 * ```ts
 * const repaired = upstream.body!.pipeThrough(new ChatCompletionsRepairStream({ knownTools: ['bash'] }))
 * return new Response(repaired, { headers: { 'content-type': 'text/event-stream' } })
 * ```
 */
export class ChatCompletionsRepairStream extends TransformStream<string | Uint8Array, Uint8Array> {
  constructor(options: ChatCompletionsRepairStreamOptions = {}) {
    const repair = createChatCompletionsRepairCore(options)
    const encoder = ENCODER
    super(
      {
        transform(chunk, controller) {
          const text = repair.feed(chunk)
          if (text === undefined) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
          else if (text.length > 0) controller.enqueue(encoder.encode(text))
        },
        flush(controller) {
          const text = repair.end()
          if (text.length > 0) controller.enqueue(encoder.encode(text))
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
  }
}
