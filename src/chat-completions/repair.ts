/**
 * `createChatCompletionsRepair`: the Chat Completions repair as one
 * synchronous core — SSE decode → chunk decode → the one part pipeline →
 * chunk encode → SSE encode: the one fused machine (`createDialectRepair`)
 * with the chat codecs. The same cores as the composed streams, so both give
 * the same bytes (a test proves it, with each shortcut on and off).
 *
 * The chat codecs answer every hook the machine asks, so chat chunks take
 * every shortcut: a plain chunk is known plain without `JSON.parse`
 * (`PlainJsonScanner`, the decoder's `plainSpan`) and goes by as it came; a
 * chunk of the last plain chunk's shape with other content is read without
 * `JSON.parse` (`shapedParts`) and written again, if it changed, without
 * `JSON.stringify` of the whole chunk (`shapeFacts`).
 */
import { withRequestDefaults } from './request-tools.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { PartRepairOptions } from '../parts/part-repair.ts'
import { ALL_SHORTCUTS, createDialectRepair } from '../dialect-kit/dialect-repair.ts'
import { keepForProcess } from '../kept-for-process.ts'
import type { DialectRepair, DialectShortcuts } from '../dialect-kit/dialect-repair.ts'
import { createChatCompletionsDecoderCore } from './decoder.ts'
import { createChatCompletionsEncoderCore } from './encoder.ts'
import { repairBody } from '../dialect-kit/repair-body.ts'

export interface ChatCompletionsRepairOptions extends PartRepairOptions {
  /** Longest SSE line or event, and the largest JSON body a `repair…Response` reads, in characters (see `SseDecoderOptions`). @default 8_388_608 */
  maxBufferSize?: number
  /** Called with every diagnostic (removed markup, recovered or suppressed calls, malformed chunks). */
  onDiagnostic?: (diagnostic: Diagnostic) => void
  /**
   * The Chat Completions request body this response answers. Its declared
   * tools, with their JSON Schemas (`tools[].function.parameters`), become
   * `tools` (unless `tools` or `knownTools` is given), and `tool_choice:
   * "none"` makes the mode `strip` (unless it is `off`).
   */
  request?: unknown
}

export interface ChatCompletionsRepair {
  /** Bytes or text of the upstream SSE body; returns repaired SSE text. */
  feed(chunk: string | Uint8Array): string
  end(): string
}

/**
 * The Chat Completions repair as a synchronous core (`feed`, `end`): what
 * `ChatCompletionsRepairStream` runs.
 */
export function createChatCompletionsRepair(options: ChatCompletionsRepairOptions = {}): ChatCompletionsRepair {
  const core = createChatCompletionsRepairCore(options)
  return {
    feed(chunk) {
      const out = core.feed(chunk)
      return out === undefined ? core.text() : out
    },
    end: () => core.end(),
  }
}

/** The fused core as the streams use it (internal; not exported from the package): a read that comes out as it came is `undefined`. */
export function createChatCompletionsRepairCore(given: ChatCompletionsRepairOptions = {}, shortcuts: Readonly<DialectShortcuts> = ALL_SHORTCUTS): DialectRepair {
  const options = withRequestDefaults(given)
  return createDialectRepair(createChatCompletionsDecoderCore(), createChatCompletionsEncoderCore(), options, options, shortcuts)
}

// One fresh repair kept for the process (`keepForProcess`): a full collection between streams keeps this dialect's shapes.
keepForProcess(createChatCompletionsRepairCore())

/**
 * The fused repair over a whole upstream body, as one pull-based
 * `ReadableStream` that reads the upstream itself (`repairBody`): the same
 * bytes as `body.pipeThrough(new ChatCompletionsRepairStream(options))`,
 * without the pipe.
 */
export function repairChatCompletionsBody(upstream: ReadableStream<string | Uint8Array>, options: ChatCompletionsRepairOptions = {}): ReadableStream<Uint8Array> {
  return repairBody(upstream, createChatCompletionsRepairCore(options))
}
