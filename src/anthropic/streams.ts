/**
 * The Anthropic Messages dialect as streams: `AnthropicRepairStream` (the
 * whole repair in one `TransformStream`, bytes or strings in, UTF-8 SSE bytes
 * out), and the two codec stages for composed chains
 * (`AnthropicDecoderStream`: SSE messages → parts; `AnthropicEncoderStream`:
 * parts → SSE messages).
 */
import type { Part } from '../parts/part.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { decoderTransformer, encoderTransformer, repairTransformer } from '../dialect-kit/dialect-streams.ts'
import type { SseMessage } from '../sse/types.ts'
import { createAnthropicDecoder } from './decoder.ts'
import { createAnthropicEncoder } from './encoder.ts'
import { type AnthropicRepairOptions, createAnthropicRepair } from './repair.ts'
import { StandardTransformStream } from '../standard-stream.ts'

/**
 * The Anthropic Messages repair in one stream: the upstream's SSE bytes or text in, repaired SSE
 * bytes out (leaked calls as `tool_use` blocks). Options: `AnthropicRepairOptions` (pass `request`
 * for its declared tools).
 *
 * @example
 * ```ts
 * const upstream = await fetch('https://api.deepseek.com/anthropic/v1/messages', { method: 'POST', headers, body })
 * return new Response(upstream.body!.pipeThrough(new AnthropicRepairStream()), { headers: { 'content-type': 'text/event-stream' } })
 * ```
 */
export class AnthropicRepairStream extends StandardTransformStream<string | Uint8Array, Uint8Array> {
  constructor(options: AnthropicRepairOptions = {}) {
    super(repairTransformer(createAnthropicRepair(options)), undefined, ONE_CHUNK_AHEAD)
  }
}

/** Anthropic Messages SSE messages in, neutral parts out: `createAnthropicDecoder` as a stream. */
export class AnthropicDecoderStream extends StandardTransformStream<SseMessage, Part> {
  constructor() {
    super(decoderTransformer(createAnthropicDecoder()), undefined, ONE_CHUNK_AHEAD)
  }
}

/** Neutral parts in, Anthropic Messages SSE messages out: `createAnthropicEncoder` as a stream. */
export class AnthropicEncoderStream extends StandardTransformStream<Part, SseMessage> {
  constructor() {
    super(encoderTransformer(createAnthropicEncoder()), undefined, ONE_CHUNK_AHEAD)
  }
}
