export { createChatCompletionsDecoder, decodeChatCompletionsMessage, type ChatCompletionsDecoder } from './decoder.ts'
export { ChatCompletionsDecoderStream } from './decoder-stream.ts'
export { createChatCompletionsEncoder, type ChatCompletionsEncoder } from './encoder.ts'
export { ChatCompletionsEncoderStream } from './encoder-stream.ts'
export { createChatCompletionsRepair, type ChatCompletionsRepair, type ChatCompletionsRepairOptions } from './repair.ts'
export { repairChatCompletionsBody } from './repair-body.ts'
export { ChatCompletionsRepairStream, type ChatCompletionsRepairStreamOptions } from './repair-stream.ts'
export {
  defaultRemovalNote,
  sanitizeChatCompletionsRequest,
  sanitizeHistoryText,
  type SanitizeChatCompletionsRequestOptions,
} from './request.ts'
export { repairChatCompletion, repairChatCompletionsResponse, type RepairChatCompletionsResponseOptions } from './response.ts'
export type { ChatChoice, ChatCompletionChunk, ChatDelta, ChatToolCallDelta } from './types.ts'
