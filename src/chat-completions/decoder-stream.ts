/** `ChatCompletionsDecoderStream`: SSE messages in, neutral parts out. */
import type { Part } from '../parts/part.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { decoderTransformer } from '../sse/dialect-streams.ts'
import type { SseMessage } from '../sse/types.ts'
import { createChatCompletionsDecoder } from './decoder.ts'

export class ChatCompletionsDecoderStream extends TransformStream<SseMessage, Part> {
  constructor() {
    super(decoderTransformer(createChatCompletionsDecoder()), undefined, ONE_CHUNK_AHEAD)
  }
}
