/**
 * `createLingmaToChatCompletions`: a Lingma upstream body in, repaired OpenAI
 * Chat Completions SSE out, as one synchronous core — Lingma decoder → the
 * one part pipeline (`createPartRepair`, Chat Completions finish reasons:
 * the defaults) → Chat Completions encoder → `encodeSseMessage`.
 *
 * What the client reads:
 * - standard `chat.completion.chunk`s (reasoning as `reasoning_content`,
 *   recovered calls as `tool_calls` before the finish), then `data: [DONE]`;
 * - an upstream error, or a body that ends without `[DONE]`, as one chunk
 *   `data: {"error": {message, type, param, code, status}}` and no `[DONE]`
 *   after it (what OpenAI's SDKs read as an error; `status` is the HTTP
 *   status it maps to, for a gateway that has not answered yet);
 * - frames the decoder does not read are not forwarded (they are Lingma's,
 *   not Chat Completions'): they are reported as `malformed-chunk` diagnostics.
 *
 * Text that still holds a DSML sentinel after repair is counted and reported
 * (`ResidualSanitizerCheck`): never rewritten.
 */
import { createChatCompletionsEncoderCore } from '../chat-completions/encoder.ts'
import type { Diagnostic } from '../dsml/types.ts'
import { createPartRepair, type PartRepair, type PartRepairOptions } from '../parts/part-repair.ts'
import type { ChunkOrigin, Part } from '../parts/part.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'
import type { SseMessage } from '../sse/types.ts'
import { createLingmaDecoder, type LingmaDecoder, type LingmaDecoderOptions } from './decoder.ts'
import { createResidualSanitizerCheck, type ResidualLeak, type ResidualSanitizerCheck } from './residual-check.ts'

export interface LingmaToChatCompletionsOptions
  extends Omit<PartRepairOptions, 'stopFinishReason' | 'toolCallsFinishReason'>,
    LingmaDecoderOptions {
  /** Called with every diagnostic (removed markup, recovered or withheld calls, unreadable frames). */
  onDiagnostic?: (diagnostic: Diagnostic) => void
  /** Called when repaired text still holds a DSML sentinel (a leak that slipped through). */
  onResidualLeak?: (leak: ResidualLeak) => void
}

export interface LingmaToChatCompletions {
  /** Bytes or text of the Lingma body; returns the Chat Completions SSE text this read completes. */
  feed(chunk: string | Uint8Array): string
  /** End of the body: what is held, then the end (`[DONE]` already written, or the unexpected-EOF error). */
  end(): string
  /** Repaired text that still held a DSML sentinel, so far. */
  readonly residualLeaks: number
  /** The runaway guard ended the message (`runawayRepeat`): its ending was written; cancel the upstream. */
  readonly stopped: boolean
}

/**
 * A Lingma stream to repaired Chat Completions, as a synchronous core: what
 * `LingmaToChatCompletionsStream` runs.
 */
export function createLingmaToChatCompletions(options: LingmaToChatCompletionsOptions = {}): LingmaToChatCompletions {
  return new Converter(options)
}

/** A class, so that one per open stream pays for its fields only. */
class Converter implements LingmaToChatCompletions {
  #decoder: LingmaDecoder
  #repair: PartRepair
  #encoder = createChatCompletionsEncoderCore()
  #residual: ResidualSanitizerCheck
  #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined
  /** Origins of frames not forwarded: their `chunk-end` is dropped too. */
  #dropped = new Set<ChunkOrigin>()
  #out = ''

  constructor(options: LingmaToChatCompletionsOptions) {
    const { onDiagnostic, onResidualLeak, id, model, created, maxLineChars, ...repairOptions } = options
    const decoderOptions: LingmaDecoderOptions = {}
    if (id !== undefined) decoderOptions.id = id
    if (model !== undefined) decoderOptions.model = model
    if (created !== undefined) decoderOptions.created = created
    if (maxLineChars !== undefined) decoderOptions.maxLineChars = maxLineChars
    this.#decoder = createLingmaDecoder(decoderOptions)
    this.#onDiagnostic = onDiagnostic
    this.#residual = createResidualSanitizerCheck(onResidualLeak)
    this.#repair = createPartRepair(repairOptions, { emit: (part) => this.#emit(part) })
  }

  get residualLeaks(): number {
    return this.#residual.leaks
  }

  get stopped(): boolean {
    return this.#repair.stopped
  }

  feed(chunk: string | Uint8Array): string {
    for (const part of this.#decoder.feed(chunk)) this.#repair.feed(part)
    return this.#take()
  }

  end(): string {
    if (this.#repair.stopped) return this.#take()
    for (const part of this.#decoder.end()) this.#repair.feed(part)
    this.#repair.end()
    this.#write(this.#encoder.end())
    return this.#take()
  }

  #take(): string {
    const out = this.#out
    this.#out = ''
    return out
  }

  #emit(part: Part): void {
    switch (part.type) {
      case 'diagnostic':
        this.#onDiagnostic?.(part.diagnostic)
        return
      case 'passthrough':
        this.#dropped.add(part.origin)
        return
      case 'chunk-end':
        if (part.origin !== undefined && this.#dropped.delete(part.origin)) return
        break
      case 'text':
        this.#residual.inspect(part.text, 'text')
        break
      case 'reasoning':
        this.#residual.inspect(part.text, 'reasoning')
        break
      default:
        break
    }
    this.#write(this.#encoder.feed(part))
  }

  #write(messages: readonly SseMessage[]): void {
    for (const message of messages) this.#out += encodeSseMessage(message)
  }
}
