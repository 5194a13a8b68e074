/** `ChatCompletionsEncoderStream`: neutral parts in, SSE messages out. */
import type { Part } from '../parts/part.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { encoderTransformer } from '../dialect-kit/dialect-streams.ts'
import type { SseMessage } from '../sse/types.ts'
import { createChatCompletionsEncoder } from './encoder.ts'
import { StandardTransformStream } from '../standard-stream.ts'

export class ChatCompletionsEncoderStream extends StandardTransformStream<Part, SseMessage> {
  constructor() {
    super(encoderTransformer(createChatCompletionsEncoder()), undefined, ONE_CHUNK_AHEAD)
  }
}
