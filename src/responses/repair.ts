/**
 * `createResponsesRepair`: the OpenAI Responses API repair as one synchronous
 * core — SSE decode → event decode → the one part pipeline → event encode →
 * SSE encode. The same cores as the composed streams, so both give the same
 * bytes (a test proves it). Recovered calls become `function_call` output
 * items, settled at `response.completed` (which authorizes them; an
 * `incomplete` or `failed` response fails closed).
 */
import type { Diagnostic } from '../dsml/types.ts'
import { createPartRepair, type PartRepair, type PartRepairOptions } from '../parts/part-repair.ts'
import type { Part } from '../parts/part.ts'
import { withRequestDefaults } from '../parts/request-options.ts'
import { createSseDecoder, type SseDecoder } from '../sse/sse-decoder.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'
import { createResponsesDecoder, type ResponsesDecoder } from './decoder.ts'
import { createResponsesEncoder, type ResponsesEncoder } from './encoder.ts'
import { responsesRequestOptions } from './request.ts'
import { COMPLETED } from './types.ts'

export interface ResponsesRepairOptions extends Omit<PartRepairOptions, 'stopFinishReason' | 'toolCallsFinishReason'> {
  /** Longest SSE line or event, in characters (see `SseDecoderOptions`). @default 8_388_608 */
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
  return { ...options, stopFinishReason: COMPLETED, toolCallsFinishReason: COMPLETED }
}

export interface ResponsesRepair {
  /** Bytes or text of the upstream SSE body; returns repaired SSE text. */
  feed(chunk: string | Uint8Array): string
  end(): string
}

export function createResponsesRepair(options: ResponsesRepairOptions = {}): ResponsesRepair {
  return new Repair(options)
}

/** A class, so that one per open stream pays for its fields only. */
class Repair implements ResponsesRepair {
  #sse: SseDecoder
  #decoder: ResponsesDecoder = createResponsesDecoder()
  #parts: PartRepair
  #encoder: ResponsesEncoder = createResponsesEncoder()
  #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined
  #out = ''

  constructor(options: ResponsesRepairOptions) {
    this.#sse = createSseDecoder(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize })
    this.#parts = createPartRepair(responsesPartOptions(options), { emit: (part) => this.#encode(part) })
    this.#onDiagnostic = options.onDiagnostic
  }

  feed(chunk: string | Uint8Array): string {
    this.#out = ''
    for (const message of this.#sse.feed(chunk)) for (const part of this.#decoder.feed(message)) this.#parts.feed(part)
    return this.#out
  }

  end(): string {
    this.#out = ''
    for (const message of this.#sse.end()) for (const part of this.#decoder.feed(message)) this.#parts.feed(part)
    this.#parts.end()
    for (const message of this.#encoder.end()) this.#out += encodeSseMessage(message)
    return this.#out
  }

  #encode(part: Part): void {
    if (part.type === 'diagnostic') {
      this.#onDiagnostic?.(part.diagnostic)
      return
    }
    for (const message of this.#encoder.feed(part)) this.#out += encodeSseMessage(message)
  }
}
