/**
 * `SseEncoderStream`: SSE messages in, the event stream's UTF-8 bytes out
 * (ready for a `Response` body). `encodeSseMessage` gives the same as text.
 */
import { encodeSseMessage } from './sse-encoder.ts'
import type { SseMessage } from './types.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { StandardTransformStream } from '../standard-stream.ts'

/** Stateless, so every stream shares one. */
const ENCODER = new TextEncoder()

/** `SseMessage`s in, SSE text as UTF-8 bytes out. */
export class SseEncoderStream extends StandardTransformStream<SseMessage, Uint8Array> {
  constructor() {
    super({
      transform(message, controller) {
        controller.enqueue(ENCODER.encode(encodeSseMessage(message)))
      },
    }, undefined, ONE_CHUNK_AHEAD)
  }
}
