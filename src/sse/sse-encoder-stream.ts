/** `SseEncoderStream`: SSE messages in, SSE text out (pipe through `TextEncoderStream` for bytes). */
import { encodeSseMessage } from './sse-encoder.ts'
import type { SseMessage } from './types.ts'

export class SseEncoderStream extends TransformStream<SseMessage, string> {
  constructor() {
    super({
      transform(message, controller) {
        controller.enqueue(encodeSseMessage(message))
      },
    })
  }
}
