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
import { repairTransformer } from '../dialect-kit/dialect-streams.ts'
import { type ChatCompletionsRepairOptions, createChatCompletionsRepairCore } from './repair.ts'
import { StandardTransformStream } from '../standard-stream.ts'

export interface ChatCompletionsRepairStreamOptions extends ChatCompletionsRepairOptions {}

/**
 * The Chat Completions repair in one stream: the upstream's SSE bytes or text in, repaired SSE
 * bytes out (leaked calls as `tool_calls`, `finish_reason` `tool_calls`). Options:
 * `ChatCompletionsRepairOptions` (pass `request` for its declared tools).
 *
 * @example
 * ```ts
 * const repaired = upstream.body!.pipeThrough(new ChatCompletionsRepairStream({ knownTools: ['bash'] }))
 * return new Response(repaired, { headers: { 'content-type': 'text/event-stream' } })
 * ```
 */
export class ChatCompletionsRepairStream extends StandardTransformStream<string | Uint8Array, Uint8Array> {
  constructor(options: ChatCompletionsRepairStreamOptions = {}) {
    super(
      repairTransformer(createChatCompletionsRepairCore(options)),
      undefined,
      ONE_CHUNK_AHEAD,
    )
  }
}
