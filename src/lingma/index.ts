// `dsml-streams/lingma`: a Lingma upstream as repaired Chat Completions (`LingmaToChatCompletionsStream`,
// `repairLingmaResponse`, `lingmaRequestOf` and the body encoding a relay signs), and the seed's helpers the
// test tables check in every runtime (envelopes, errors, messages, usage).
export { decodeLingmaBody, encodeLingmaBody } from './body-encoding.ts'
export { type GroupTail, type LingmaChunkOrigin, type LingmaEnvelopeDefaults } from './chunk-groups.ts'
export { createLingmaDecoder, type LingmaDecoder, type LingmaDecoderOptions } from './decoder.ts'
export { isDone, stripSsePrefix, unwrapBody } from './envelope.ts'
export { resolveErrorStatus } from './error-status.ts'
export { type LingmaErrorFields, type LingmaErrorInfo, parseError, resolveErrorDetails } from './errors.ts'
export { agentId, hasToolCalls, isAgentCommonModel, modelConfigSource, normalizeAssistantToolCallContent } from './messages.ts'
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
