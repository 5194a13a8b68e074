/**
 * The Anthropic Messages dialect as streams: `AnthropicRepairStream` (the
 * whole repair in one `TransformStream`, bytes or strings in, UTF-8 SSE bytes
 * out), and the two codec stages for composed chains
 * (`AnthropicDecoderStream`: SSE messages → parts; `AnthropicEncoderStream`:
 * parts → SSE messages).
 */
import type { Part } from '../parts/part.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import type { SseMessage } from '../sse/types.ts'
import { createAnthropicDecoder } from './decoder.ts'
import { createAnthropicEncoder } from './encoder.ts'
import { type AnthropicRepairOptions, createAnthropicRepair } from './repair.ts'

/** Stateless, so every stream shares one. */
const ENCODER = new TextEncoder()

/**
 * @example
 * ```ts
 * const upstream = await fetch('https://api.deepseek.com/anthropic/v1/messages', { method: 'POST', headers, body })
 * return new Response(upstream.body!.pipeThrough(new AnthropicRepairStream()), { headers: { 'content-type': 'text/event-stream' } })
 * ```
 */
export class AnthropicRepairStream extends TransformStream<string | Uint8Array, Uint8Array> {
  constructor(options: AnthropicRepairOptions = {}) {
    const repair = createAnthropicRepair(options)
    super(
      {
        transform(chunk, controller) {
          const text = repair.feed(chunk)
          // A read that comes out as it came is forwarded as it came: the same bytes, not encoded again.
          if (text === undefined) controller.enqueue(typeof chunk === 'string' ? ENCODER.encode(chunk) : chunk)
          else if (text.length > 0) controller.enqueue(ENCODER.encode(text))
        },
        flush(controller) {
          const text = repair.end()
          if (text.length > 0) controller.enqueue(ENCODER.encode(text))
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
  }
}

export class AnthropicDecoderStream extends TransformStream<SseMessage, Part> {
  constructor() {
    const decoder = createAnthropicDecoder()
    super(
      {
        transform(message, controller) {
          for (const part of decoder.feed(message)) controller.enqueue(part)
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
  }
}

export class AnthropicEncoderStream extends TransformStream<Part, SseMessage> {
  constructor() {
    const encoder = createAnthropicEncoder()
    super(
      {
        transform(part, controller) {
          for (const message of encoder.feed(part)) controller.enqueue(message)
        },
        flush(controller) {
          for (const message of encoder.end()) controller.enqueue(message)
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
  }
}
