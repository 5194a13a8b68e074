export { createAnthropicDecoder, type AnthropicDecoder } from './decoder.ts'
export { createAnthropicEncoder, type AnthropicEncoder } from './encoder.ts'
export { createAnthropicRepair, generateToolUseId, type AnthropicRepair, type AnthropicRepairOptions } from './repair.ts'
export { anthropicRequestOptions, sanitizeAnthropicRequest, type SanitizeAnthropicRequestOptions } from './request.ts'
export { repairAnthropicMessage, repairAnthropicResponse } from './response.ts'
export { AnthropicDecoderStream, AnthropicEncoderStream, AnthropicRepairStream } from './streams.ts'
// The shape of a text delta the fused machine reads without parsing (the codecs' interfaces name it).
export type { TextShape } from '../dialect-kit/text-shape.ts'
