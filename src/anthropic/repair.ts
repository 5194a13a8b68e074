/**
 * `createAnthropicRepair`: the Anthropic Messages repair as one synchronous
 * core — SSE decode → event decode → the one part pipeline → event encode →
 * SSE encode. The same cores as the composed streams, so both give the same
 * bytes (a test proves it). Recovered calls become `tool_use` blocks with
 * `toolu_` ids, settled at `message_delta` (`end_turn` authorizes them and
 * becomes `tool_use`; `max_tokens`, `refusal`, `stop_sequence` fail closed).
 */
import { generatePrefixedId } from '../dsml/options.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { PartRepairOptions } from '../parts/part-repair.ts'
import { withRequestDefaults } from '../parts/request-options.ts'
import { createDialectRepair, type DialectRepair } from '../dialect-kit/dialect-repair.ts'
import { keepForProcess } from '../kept-for-process.ts'
import { createAnthropicDecoder } from './decoder.ts'
import { createAnthropicEncoder } from './encoder.ts'
import { anthropicRequestOptions } from './request.ts'
import { END_TURN, MAX_TOKENS, TOOL_USE } from './types.ts'

export interface AnthropicRepairOptions extends Omit<PartRepairOptions, 'stopFinishReason' | 'toolCallsFinishReason'> {
  /** Longest SSE line or event, and the largest JSON body a `repair…Response` reads, in characters (see `SseDecoderOptions`). @default 8_388_608 */
  maxBufferSize?: number
  /** Called with every diagnostic (removed markup, recovered or withheld calls, malformed events). */
  onDiagnostic?: (diagnostic: Diagnostic) => void
  /**
   * The Messages request body this response answers: its `tools[].input_schema`
   * become `tools` (unless `tools` or `knownTools` is given), and
   * `tool_choice: {"type": "none"}` makes the mode `strip` (unless it is `off`).
   */
  request?: unknown
}

/** `toolu_` + 24 random alphanumerics: the id of a recovered `tool_use` block, unless `generateId` is given. */
export function generateToolUseId(): string {
  return generatePrefixedId('toolu_')
}

/** The part pipeline's options for an Anthropic response. */
export function anthropicPartOptions(given: AnthropicRepairOptions): PartRepairOptions {
  const options = withRequestDefaults(given, anthropicRequestOptions)
  return { ...options, generateId: options.generateId ?? generateToolUseId, stopFinishReason: END_TURN, toolCallsFinishReason: TOOL_USE, lengthFinishReason: MAX_TOKENS }
}

/** The fused Anthropic repair: `DialectRepair`, the one repair interface of every dialect. */
export type AnthropicRepair = DialectRepair

/**
 * The Anthropic Messages repair as a synchronous core (`feed`, `text`, `end`): what
 * `AnthropicRepairStream` runs.
 */
export function createAnthropicRepair(options: AnthropicRepairOptions = {}): AnthropicRepair {
  return createDialectRepair(createAnthropicDecoder(), createAnthropicEncoder(), anthropicPartOptions(options), options)
}

// One fresh repair kept for the process (`keepForProcess`): a full collection between streams keeps this dialect's shapes.
keepForProcess(createAnthropicRepair())
