/**
 * The OpenAI Responses API dialect as streams: `ResponsesRepairStream` (the
 * whole repair in one `TransformStream`, bytes or strings in, UTF-8 SSE bytes
 * out), and the two codec stages for composed chains
 * (`ResponsesDecoderStream`: SSE messages → parts; `ResponsesEncoderStream`:
 * parts → SSE messages).
 */
import type { Part } from '../parts/part.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { decoderTransformer, encoderTransformer, repairTransformer } from '../dialect-kit/dialect-streams.ts'
import type { SseMessage } from '../sse/types.ts'
import { createResponsesDecoder } from './decoder.ts'
import { createResponsesEncoder } from './encoder.ts'
import { type ResponsesRepairOptions, createResponsesRepair } from './repair.ts'
import { StandardTransformStream } from '../standard-stream.ts'

/**
 * The Responses API repair in one stream: the upstream's SSE bytes or text in, repaired SSE bytes
 * out (leaked calls as `function_call` items). Options: `ResponsesRepairOptions` (pass `request`
 * for its declared tools).
 *
 * @example
 * ```ts
 * const upstream = await fetch('https://api.openai.com/v1/responses', { method: 'POST', headers, body })
 * return new Response(upstream.body!.pipeThrough(new ResponsesRepairStream()), { headers: { 'content-type': 'text/event-stream' } })
 * ```
 */
export class ResponsesRepairStream extends StandardTransformStream<string | Uint8Array, Uint8Array> {
  constructor(options: ResponsesRepairOptions = {}) {
    super(repairTransformer(createResponsesRepair(options)), undefined, ONE_CHUNK_AHEAD)
  }
}

/** Responses API SSE messages in, neutral parts out: `createResponsesDecoder` as a stream. */
export class ResponsesDecoderStream extends StandardTransformStream<SseMessage, Part> {
  constructor() {
    super(decoderTransformer(createResponsesDecoder()), undefined, ONE_CHUNK_AHEAD)
  }
}

/** Neutral parts in, Responses API SSE messages out: `createResponsesEncoder` as a stream. */
export class ResponsesEncoderStream extends StandardTransformStream<Part, SseMessage> {
  constructor() {
    super(encoderTransformer(createResponsesEncoder()), undefined, ONE_CHUNK_AHEAD)
  }
}
