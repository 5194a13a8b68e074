/** `ChatCompletionsDecoderStream`: SSE messages in, neutral parts out. */
import type { Part } from '../parts/part.ts'
import type { SseMessage } from '../sse/types.ts'
import { decodeChatCompletionsMessage } from './decoder.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'

export class ChatCompletionsDecoderStream extends TransformStream<SseMessage, Part> {
  constructor() {
    super({
      transform(message, controller) {
        for (const part of decodeChatCompletionsMessage(message)) controller.enqueue(part)
      },
    }, undefined, ONE_CHUNK_AHEAD)
  }
}
