/**
 * `createResponsesRepair`: the OpenAI Responses API repair as one synchronous
 * core — SSE decode → event decode → the one part pipeline → event encode →
 * SSE encode. The same cores as the composed streams, so both give the same
 * bytes (a test proves it). Recovered calls become `function_call` output
 * items, settled at `response.completed` (which authorizes them; an
 * `incomplete` or `failed` response fails closed).
 */
import type { Diagnostic } from '../dsml/types.ts'
import type { PartRepairOptions } from '../parts/part-repair.ts'
import { withRequestDefaults } from '../parts/request-options.ts'
import { createDialectRepair, type DialectRepair } from '../dialect-kit/dialect-repair.ts'
import { keepForProcess } from '../kept-for-process.ts'
import { createResponsesDecoder } from './decoder.ts'
import { createResponsesEncoder } from './encoder.ts'
import { responsesRequestOptions } from './request.ts'
import { COMPLETED, MAX_OUTPUT_TOKENS } from './types.ts'

export interface ResponsesRepairOptions extends Omit<PartRepairOptions, 'stopFinishReason' | 'toolCallsFinishReason'> {
  /** Longest SSE line or event, and the largest JSON body a `repair…Response` reads, in characters (see `SseDecoderOptions`). @default 8_388_608 */
  maxBufferSize?: number
  /** Called with every diagnostic (removed markup, recovered or withheld calls, malformed events). */
  onDiagnostic?: (diagnostic: Diagnostic) => void
  /**
   * The Responses request body this response answers: its function tools
   * (`tools[].parameters`) become `tools` (unless `tools` or `knownTools` is
   * given), and `tool_choice: "none"` makes the mode `strip` (unless `off`).
   */
  request?: unknown
}

/** The part pipeline's options for a Responses API response. */
export function responsesPartOptions(given: ResponsesRepairOptions): PartRepairOptions {
  const options = withRequestDefaults(given, responsesRequestOptions)
  return { ...options, stopFinishReason: COMPLETED, toolCallsFinishReason: COMPLETED, lengthFinishReason: MAX_OUTPUT_TOKENS }
}

/** The fused Responses repair: `DialectRepair`, the one repair interface of every dialect. */
export type ResponsesRepair = DialectRepair

/**
 * The Responses API repair as a synchronous core (`feed`, `text`, `end`): what
 * `ResponsesRepairStream` runs.
 */
export function createResponsesRepair(options: ResponsesRepairOptions = {}): ResponsesRepair {
  return createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), responsesPartOptions(options), options)
}

// One fresh repair kept for the process (`keepForProcess`): a full collection between streams keeps this dialect's shapes.
keepForProcess(createResponsesRepair())
