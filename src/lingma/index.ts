export { decodeLingmaBody, encodeLingmaBody } from './body-encoding.ts'
export { type GroupTail, type LingmaChunkOrigin, type LingmaEnvelopeDefaults } from './chunk-groups.ts'
export { createLingmaDecoder, type LingmaDecoder, type LingmaDecoderOptions } from './decoder.ts'
export { isDone, stripSsePrefix, unwrapBody } from './envelope.ts'
export { resolveErrorStatus } from './error-status.ts'
export {
  type ChatCompletionsStreamError,
  type LingmaErrorFields,
  type LingmaErrorInfo,
  parseError,
  resolveErrorDetails,
  toChatCompletionsError,
  UNEXPECTED_EOF,
} from './errors.ts'
export { LineTooLongError } from './lines.ts'
export {
  AGENT_CHAT,
  AGENT_COMMON,
  agentId,
  hasToolCalls,
  isAgentCommonModel,
  modelConfigSource,
  normalizeAssistantToolCallContent,
  SOURCE_SYSTEM,
} from './messages.ts'
export {
  createResidualSanitizerCheck,
  residualSanitizerCheck,
  type ResidualLeak,
  type ResidualSanitizerCheck,
} from './residual-check.ts'
export { LINGMA_CHAT_PATH, lingmaRequestOf, type LingmaRequest, type LingmaRequestOptions } from './request.ts'
export { repairLingmaResponse, type RepairLingmaResponseOptions } from './response.ts'
export { LingmaDecoderStream, LingmaToChatCompletionsStream } from './streams.ts'
export { type ChannelText, createThoughtTagSplitter, type ThoughtTagSplitter } from './thought-tags.ts'
export {
  createLingmaToChatCompletions,
  type LingmaToChatCompletions,
  type LingmaToChatCompletionsOptions,
} from './to-chat-completions.ts'
export { type ChatCompletionsUsage, consolidateUsage, type ConsolidatedUsage, normalizeUsage } from './usage.ts'
