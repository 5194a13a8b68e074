export { StreamLimitError, type StreamLimitType } from './errors.ts'
export { createSseDecoder, DEFAULT_MAX_SSE_BUFFER, type SseDecoder, type SseDecoderOptions } from './sse-decoder.ts'
export { SseDecoderStream, type SseDecoderStreamOptions } from './sse-decoder-stream.ts'
export { encodeSseMessage } from './sse-encoder.ts'
export { SseEncoderStream } from './sse-encoder-stream.ts'
export { isSseComment, type SseComment, type SseEvent, type SseMessage } from './types.ts'
// The base class of every stream in the package (its type only: a stream's declarations name it).
export type { StandardTransformStream } from '../standard-stream.ts'
