/**
 * `createChatCompletionsRepair`: the whole Chat Completions repair chain as one
 * synchronous core — SSE decode → chunk decode → DSML sanitize → tool-call
 * synthesis → chunk encode → SSE encode. The same cores as the composed
 * streams, so both give the same bytes (a test proves it); the fused form
 * saves five stream hops per chunk.
 *
 * Shortcuts keep the common chunk cheap, all exact (a test compares them with
 * the composed stages on random reads of every fixture):
 * - a chunk that cannot change (see `createChunkReader`), met while the
 *   sanitizer is quiet, is forwarded as it came without being parsed: the
 *   stages would have passed its one text part through untouched;
 * - a read made only of such chunks, each a `data: …` line and a blank line,
 *   comes out as it went in: the core says so instead of building the text
 *   again, and `ChatCompletionsRepairStream` forwards the read's own bytes;
 * - a chunk of the same shape as the last plain one but other content is
 *   read without `JSON.parse`, and written again (if it changed) without
 *   `JSON.stringify` of the whole chunk.
 */
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import { createDsmlPartSanitizer } from '../dsml/part-sanitizer.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { Part } from '../parts.ts'
import { createSseDecoderCore, type SseDecoderOptions } from '../sse/sse-decoder.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'
import { isSseComment, type SseEvent, type SseMessage } from '../sse/types.ts'
import { createToolCallSynthesizer, type ToolCallSynthesizerOptions } from '../tool-calls/synthesizer.ts'
import { decodeChatCompletionsMessage } from './decoder.ts'
import { createChatCompletionsEncoderCore, ShapedOrigin, type ShapeFacts, shapeFacts } from './encoder.ts'
import { CHUNK_PLAIN, CHUNK_SHAPED, type ChunkShape, createChunkReader } from './plain-chunk.ts'

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

/** The fused core as the stream uses it (internal; not exported from the package). */
export interface ChatCompletionsRepairCore {
  /**
   * Repaired SSE text of this read, or `undefined` when it is exactly the
   * read as it came: its text (`text`), and for bytes the bytes themselves.
   */
  feed(chunk: string | Uint8Array): string | undefined
  /** The decoded text of the last read. */
  text(): string
  end(): string
}

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

export function createChatCompletionsRepairCore(options: ChatCompletionsRepairOptions = {}): ChatCompletionsRepairCore {
  const sseOptions: SseDecoderOptions = options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize }
  const sse = createSseDecoderCore(sseOptions)
  const sanitizer = createDsmlPartSanitizer(options)
  const synthesizer = createToolCallSynthesizer(options)
  const encoder = createChatCompletionsEncoderCore()
  const reader = createChunkReader()
  /** The facts of the reader's current shape, once asked. */
  let facts: ShapeFacts | undefined
  const usable = (shape: ChunkShape): boolean => (facts = shapeFacts(shape)) !== undefined
  const onDiagnostic = options.onDiagnostic
  let out = ''
  /**
   * The sanitizer would pass a plain text part through and stay as it is:
   * idle, holding nothing, and the answer text it let out last does not end
   * with a backtick (its fence tracker would otherwise end that run on the
   * next text, which a skipped part would not do).
   */
  let quiet = true
  let endsWithBacktick = false

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
    for (const next of sanitizer.feed(part)) {
      if (next.type === 'text' && next.text.length > 0) endsWithBacktick = next.text.charCodeAt(next.text.length - 1) === 0x60
      synthesize(next)
    }
  }

  /** The chain for a chunk of the reader's shape (CHUNK_SHAPED): what decodeChatCompletionsMessage gives, without parsing. */
  function repairShaped(message: SseEvent): void {
    const origin = new ShapedOrigin(message, facts!)
    const part: Part = { type: 'text', text: reader.content, origin }
    origin.parts.push(part)
    sanitize(part)
    sanitize({ type: 'chunk-end', origin })
    quiet = !endsWithBacktick && sanitizer.idle && sanitizer.heldChars === 0
  }

  /**
   * One message through the chain. Returns true, doing nothing, when the
   * chain would forward it as it came and leave every stage as it was.
   */
  function repair(message: SseMessage): boolean {
    if (!isSseComment(message) && message.event !== 'error') {
      const found = reader.read(message.data, quiet, usable)
      if (found === CHUNK_PLAIN) {
        encoder.forwarded(message.data, 0, message.data.length)
        return true
      }
      if (found === CHUNK_SHAPED) {
        repairShaped(message)
        return false
      }
    }
    for (const part of decodeChatCompletionsMessage(message)) sanitize(part)
    quiet = !endsWithBacktick && sanitizer.idle && sanitizer.heldChars === 0
    return false
  }

  return {
    feed(chunk) {
      const text = sse.decode(chunk)
      out = ''
      // One whole `data:` event of the last plain chunk's shape: no SSE parsing, no message.
      if (sse.ready() && text.length - 2 <= sse.maxBufferSize) {
        const found = reader.readEvent(text, quiet, usable)
        if (found === CHUNK_PLAIN) {
          encoder.forwarded(text, 6, text.length - 2)
          return undefined
        }
        if (found === CHUNK_SHAPED) {
          repairShaped({ data: text.slice(6, -2) })
          return out
        }
      }
      const messages = sse.parse(text)
      let unchanged = sse.verbatim()
      for (let index = 0; index < messages.length; index++) {
        const message = messages[index]!
        if (!unchanged) {
          if (repair(message)) out += encodeSseMessage(message)
        } else if (!repair(message)) {
          // The read changes after all: the messages before this one, then this one's output.
          unchanged = false
          const own = out
          out = ''
          for (let before = 0; before < index; before++) out += encodeSseMessage(messages[before]!)
          out += own
        }
      }
      return unchanged ? undefined : out
    },
    text: () => sse.text(),
    end() {
      out = ''
      for (const message of sse.end()) if (repair(message)) out += encodeSseMessage(message)
      const rest = sanitizer.end()
      for (const part of rest) synthesize(part)
      if (rest.length > 0) synthesize({ type: 'chunk-end' })
      for (const part of synthesizer.end()) encode(part)
      for (const message of encoder.end()) out += encodeSseMessage(message)
      return out
    },
  }
}
