/** `SseDecoderStream`: bytes or strings in, SSE messages out (a thin wrapper over `createSseDecoder`). */
import { createSseDecoder, type SseDecoderOptions } from './sse-decoder.ts'
import type { SseMessage } from './types.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { StandardTransformStream } from '../standard-stream.ts'

export interface SseDecoderStreamOptions extends SseDecoderOptions {}

/**
 * SSE bytes or text in, `SseMessage`s out, each line and event capped (`maxBufferSize`, default
 * 8,388,608 characters; past it the stream fails with `StreamLimitError`).
 *
 * @example
 * ```ts
 * const messages = response.body!.pipeThrough(new SseDecoderStream())
 * ```
 */
export class SseDecoderStream extends StandardTransformStream<string | Uint8Array, SseMessage> {
  constructor(options: SseDecoderStreamOptions = {}) {
    const decoder = createSseDecoder(options)
    super({
      transform(chunk, controller) {
        for (const message of decoder.feed(chunk)) controller.enqueue(message)
      },
      flush(controller) {
        for (const message of decoder.end()) controller.enqueue(message)
      },
    }, undefined, ONE_CHUNK_AHEAD)
  }
}
