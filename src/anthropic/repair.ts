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
import { createPartRepair, type PartRepair, type PartRepairOptions } from '../parts/part-repair.ts'
import type { Part } from '../parts/part.ts'
import { withRequestDefaults } from '../parts/request-options.ts'
import { createSseDecoder, type SseDecoder } from '../sse/sse-decoder.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'
import { type AnthropicDecoder, createAnthropicDecoder } from './decoder.ts'
import { type AnthropicEncoder, createAnthropicEncoder } from './encoder.ts'
import { anthropicRequestOptions } from './request.ts'
import { END_TURN, TOOL_USE } from './types.ts'

export interface AnthropicRepairOptions extends Omit<PartRepairOptions, 'stopFinishReason' | 'toolCallsFinishReason'> {
  /** Longest SSE line or event, in characters (see `SseDecoderOptions`). @default 8_388_608 */
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
  return { ...options, generateId: options.generateId ?? generateToolUseId, stopFinishReason: END_TURN, toolCallsFinishReason: TOOL_USE }
}

export interface AnthropicRepair {
  /** Bytes or text of the upstream SSE body; returns repaired SSE text. */
  feed(chunk: string | Uint8Array): string
  end(): string
}

export function createAnthropicRepair(options: AnthropicRepairOptions = {}): AnthropicRepair {
  return new Repair(options)
}

/** A class, so that one per open stream pays for its fields only. */
class Repair implements AnthropicRepair {
  #sse: SseDecoder
  #decoder: AnthropicDecoder = createAnthropicDecoder()
  #parts: PartRepair
  #encoder: AnthropicEncoder = createAnthropicEncoder()
  #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined
  #out = ''

  constructor(options: AnthropicRepairOptions) {
    this.#sse = createSseDecoder(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize })
    this.#parts = createPartRepair(anthropicPartOptions(options), { emit: (part) => this.#encode(part) })
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
