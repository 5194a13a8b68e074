/**
 * `createChatCompletionsRepair`: the whole Chat Completions repair chain as one
 * synchronous core — SSE decode → chunk decode → DSML sanitize → tool-call
 * synthesis → chunk encode → SSE encode. The same cores as the composed
 * streams, so both give the same bytes (a test proves it); the fused form
 * saves five stream hops per chunk.
 */
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import { createDsmlPartSanitizer } from '../dsml/part-sanitizer.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { Part } from '../parts.ts'
import { createSseDecoder, type SseDecoderOptions } from '../sse/sse-decoder.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'
import { createToolCallSynthesizer, type ToolCallSynthesizerOptions } from '../tool-calls/synthesizer.ts'
import { decodeChatCompletionsMessage } from './decoder.ts'
import { createChatCompletionsEncoder } from './encoder.ts'

export interface ChatCompletionsRepairOptions extends DsmlSanitizerOptions, ToolCallSynthesizerOptions {
  /** Longest SSE line or event, in characters (see `SseDecoderOptions`). @default 8_388_608 */
  maxBufferSize?: number
  /** Called with every diagnostic (removed markup, recovered or suppressed calls, malformed chunks). */
  onDiagnostic?: (diagnostic: Diagnostic) => void
}

export interface ChatCompletionsRepair {
  /** Bytes or text of the upstream SSE body; returns repaired SSE text. */
  feed(chunk: string | Uint8Array): string
  end(): string
}

export function createChatCompletionsRepair(options: ChatCompletionsRepairOptions = {}): ChatCompletionsRepair {
  const sseOptions: SseDecoderOptions = options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize }
  const sse = createSseDecoder(sseOptions)
  const sanitizer = createDsmlPartSanitizer(options)
  const synthesizer = createToolCallSynthesizer(options)
  const encoder = createChatCompletionsEncoder()
  const onDiagnostic = options.onDiagnostic
  let out = ''

  function encode(part: Part): void {
    if (part.type === 'diagnostic') {
      onDiagnostic?.(part.diagnostic)
      return
    }
    for (const message of encoder.feed(part)) out += encodeSseMessage(message)
  }

  function synthesize(part: Part): void {
    for (const next of synthesizer.feed(part)) encode(next)
  }

  function sanitize(part: Part): void {
    for (const next of sanitizer.feed(part)) synthesize(next)
  }

  return {
    feed(chunk) {
      out = ''
      for (const message of sse.feed(chunk)) for (const part of decodeChatCompletionsMessage(message)) sanitize(part)
      return out
    },
    end() {
      out = ''
      for (const message of sse.end()) for (const part of decodeChatCompletionsMessage(message)) sanitize(part)
      const rest = sanitizer.end()
      for (const part of rest) synthesize(part)
      if (rest.length > 0) synthesize({ type: 'chunk-end' })
      for (const part of synthesizer.end()) encode(part)
      for (const message of encoder.end()) out += encodeSseMessage(message)
      return out
    },
  }
}
