// `dsml-streams`: what a user composes with, from every layer. Lower-level cores (each dialect's decoder and
// encoder, the synchronous repair cores, the SSE decoder core, the Lingma helpers) stay on their subpaths:
// `dsml-streams/dsml`, `/parts`, `/sse`, `/chat-completions`, `/anthropic`, `/responses`, `/lingma`, `/gateway`.

// The engine.
export {
  containsDsmlSentinel,
  createDsmlSanitizer,
  DsmlSanitizerStream,
  parseDsml,
  resolveDsmlSanitizerOptions,
  sanitizeText,
  type DeclaredTool,
  type Diagnostic,
  type DiagnosticKind,
  type DsmlMeter,
  type DsmlPreset,
  type DsmlRescues,
  type DsmlSanitizer,
  type DsmlSanitizerOptions,
  type DsmlSanitizerStreamOptions,
  type NativeToolCall,
  type ParseDsmlResult,
  type ResolvedDsmlSanitizerOptions,
  type SanitizerEvent,
  type SanitizeTextResult,
  type ToolCall,
  type ToolSchema,
} from './dsml/index.ts'
// The SSE codec's streams.
export { SseDecoderStream, SseEncoderStream, StreamLimitError, type SseComment, type SseDecoderStreamOptions, type SseEvent, type SseMessage, type StreamLimitType } from './sse/index.ts'
// The part pipeline's stages, and history repair.
export {
  DsmlPartSanitizerStream,
  historyNote,
  repairHistoryText,
  ToolCallSynthesizerStream,
  type Channel,
  type ChunkOrigin,
  type DsmlPartSanitizerStreamOptions,
  type HistoryRepairOptions,
  type Part,
  type PartType,
  type RepairedHistoryText,
  type ToolCallSynthesizerStreamOptions,
} from './parts/index.ts'
// Chat Completions.
export {
  ChatCompletionsDecoderStream,
  ChatCompletionsEncoderStream,
  ChatCompletionsRepairStream,
  repairChatCompletion,
  repairChatCompletionsResponse,
  sanitizeChatCompletionsRequest,
  type ChatCompletionsRepairOptions,
  type ChatCompletionsRepairStreamOptions,
  type RepairChatCompletionsResponseOptions,
  type SanitizeChatCompletionsRequestOptions,
} from './chat-completions/index.ts'
// Anthropic Messages.
export {
  AnthropicRepairStream,
  repairAnthropicMessage,
  repairAnthropicResponse,
  sanitizeAnthropicRequest,
  type AnthropicRepairOptions,
  type SanitizeAnthropicRequestOptions,
} from './anthropic/index.ts'
// The OpenAI Responses API.
export {
  repairResponsesObject,
  repairResponsesResponse,
  ResponsesRepairStream,
  sanitizeResponsesRequest,
  type ResponsesRepairOptions,
  type SanitizeResponsesRequestOptions,
} from './responses/index.ts'
// A Lingma upstream as Chat Completions.
export { LingmaToChatCompletionsStream, type LingmaToChatCompletionsOptions } from './lingma/index.ts'
// The gateway, and the SDKs' fetch.
export { createChatCompletionsGateway, type ChatCompletionsGateway, type ChatCompletionsGatewayOptions, type GatewayForward } from './gateway/index.ts'
export { createRepairFetch, type FetchFunction, type RepairFetchOptions } from './repair-fetch/index.ts'
