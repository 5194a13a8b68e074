/** `ChatCompletionsEncoderStream`: neutral parts in, SSE messages out. */
import type { Part } from '../parts/part.ts'
import type { SseMessage } from '../sse/types.ts'
import { createChatCompletionsEncoder } from './encoder.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'

export class ChatCompletionsEncoderStream extends TransformStream<Part, SseMessage> {
  constructor() {
    const encoder = createChatCompletionsEncoder()
    super({
      transform(part, controller) {
        for (const message of encoder.feed(part)) controller.enqueue(message)
      },
      flush(controller) {
        for (const message of encoder.end()) controller.enqueue(message)
      },
    }, undefined, ONE_CHUNK_AHEAD)
  }
}
