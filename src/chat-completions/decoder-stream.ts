/** `ChatCompletionsDecoderStream`: SSE messages in, neutral parts out. */
import type { Part } from '../parts/part.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { decoderTransformer } from '../dialect-kit/dialect-streams.ts'
import type { SseMessage } from '../sse/types.ts'
import { createChatCompletionsDecoder } from './decoder.ts'
import { StandardTransformStream } from '../standard-stream.ts'

export class ChatCompletionsDecoderStream extends StandardTransformStream<SseMessage, Part> {
  constructor() {
    super(decoderTransformer(createChatCompletionsDecoder()), undefined, ONE_CHUNK_AHEAD)
  }
}
