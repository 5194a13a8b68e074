// The dialects' codec cores (`createAnthropicDecoder`…) stay on `dsml-streams/anthropic` and `dsml-streams/responses`.
export {
  AnthropicDecoderStream,
  AnthropicEncoderStream,
  AnthropicRepairStream,
  anthropicRequestOptions,
  createAnthropicRepair,
  repairAnthropicMessage,
  repairAnthropicResponse,
  sanitizeAnthropicRequest,
  type AnthropicRepair,
  type AnthropicRepairOptions,
  type SanitizeAnthropicRequestOptions,
} from './anthropic/index.ts'
export * from './chat-completions/index.ts'
export * from './dsml/index.ts'
// The SSE layer's constants and guards (`DEFAULT_MAX_SSE_BUFFER`, `isSseComment`) stay on `dsml-streams/sse`.
export {
  createSseDecoder,
  encodeSseMessage,
  SseDecoderStream,
  SseEncoderStream,
  StreamLimitError,
  type SseComment,
  type SseDecoder,
  type SseDecoderOptions,
  type SseDecoderStreamOptions,
  type SseEvent,
  type SseMessage,
  type StreamLimitType,
} from './sse/index.ts'
// Lingma's envelope, error and usage helpers stay on `dsml-streams/lingma`.
export {
  createLingmaDecoder,
  createLingmaToChatCompletions,
  LingmaDecoderStream,
  LingmaToChatCompletionsStream,
  type LingmaDecoder,
  type LingmaDecoderOptions,
  type LingmaToChatCompletions,
  type LingmaToChatCompletionsOptions,
} from './lingma/index.ts'
export * from './parts/index.ts'
export * from './repair-fetch/index.ts'
export {
  createResponsesRepair,
  repairResponsesObject,
  repairResponsesResponse,
  ResponsesDecoderStream,
  ResponsesEncoderStream,
  ResponsesRepairStream,
  responsesRequestOptions,
  sanitizeResponsesRequest,
  type ResponsesRepair,
  type ResponsesRepairOptions,
  type SanitizeResponsesRequestOptions,
} from './responses/index.ts'
// The gateway's helpers (`declaredToolNames`, `gatewayError`, `upstreamChatUrl`) stay on `dsml-streams/gateway`.
export { createChatCompletionsGateway, type ChatCompletionsGateway, type ChatCompletionsGatewayOptions, type GatewayForward } from './gateway/index.ts'
