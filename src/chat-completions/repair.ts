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
 * - a read that is one such chunk whole, in its SSE frame (`CHUNK_FRAME`),
 *   comes out as it went in: the core says so instead of building the text
 *   again, and `ChatCompletionsRepairStream` forwards the read's own bytes;
 * - a chunk of the same shape as the last plain one but other content is
 *   read without `JSON.parse`, and written again (if it changed) without
 *   `JSON.stringify` of the whole chunk.
 */
import { withRequestDefaults } from './request-tools.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { Part } from '../parts/part.ts'
import { createPartRepair, type PartRepair, type PartRepairOptions } from '../parts/part-repair.ts'
import { createSseDecoderCore, type SseDecoderCore } from '../sse/sse-decoder.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'
import { isSseComment, type SseEvent, type SseMessage } from '../sse/types.ts'
import { decodeChatCompletionsMessage, isErrorEvent } from './decoder.ts'
import { type ChatCompletionsEncoderCore, createChatCompletionsEncoderCore, ShapedOrigin, type ShapeFacts, shapeFacts } from './encoder.ts'
import { CHUNK_FRAME, CHUNK_PLAIN, CHUNK_SHAPED, type ChunkShape, createChunkReader } from './plain-chunk.ts'

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

/**
 * The shortcuts of the fused core, each exact (the same bytes as without it)
 * and each kept because `bench/pipeline.ts` measures its gain (its ablation
 * table). Internal: only the bench and the tests turn them off.
 */
export interface RepairShortcuts {
  /** A plain chunk, met while the sanitizer is idle, is forwarded as it came without being parsed. */
  plainChunks: boolean
  /** A chunk of the last plain chunk's shape is read and written again without `JSON.parse` / `JSON.stringify`. */
  shapedChunks: boolean
  /** A read of whole `data:` events skips the SSE parser (`SseDecoderCore`). */
  wholeEvents: boolean
}

export const ALL_SHORTCUTS: Readonly<RepairShortcuts> = { plainChunks: true, shapedChunks: true, wholeEvents: true }

export function createChatCompletionsRepairCore(
  options: ChatCompletionsRepairOptions = {},
  shortcuts: Readonly<RepairShortcuts> = ALL_SHORTCUTS,
): ChatCompletionsRepairCore {
  return new Repair(options, shortcuts)
}

/** A class, so that one per open stream pays for its fields only and every instance shares one map. */
class Repair implements ChatCompletionsRepairCore {
  #sse: SseDecoderCore
  #parts: PartRepair
  #encoder: ChatCompletionsEncoderCore
  #reader = createChunkReader()
  /** The facts of the reader's current shape, once asked. */
  #facts: ShapeFacts | undefined = undefined
  #usable: ((shape: ChunkShape) => boolean) | undefined = (shape) => (this.#facts = shapeFacts(shape)) !== undefined
  #plainChunks: boolean
  #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined
  #out = ''
  /** The sanitizer would pass a plain text part through and stay as it is (`DsmlPartSanitizer.idle`). */
  #quiet: boolean

  constructor(given: ChatCompletionsRepairOptions, shortcuts: Readonly<RepairShortcuts>) {
    const options = withRequestDefaults(given)
    this.#sse = createSseDecoderCore(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize }, shortcuts.wholeEvents)
    this.#plainChunks = shortcuts.plainChunks
    if (!shortcuts.shapedChunks) this.#usable = undefined
    this.#parts = createPartRepair(options, { emit: (part) => this.#encode(part) })
    this.#encoder = createChatCompletionsEncoderCore()
    this.#onDiagnostic = options.onDiagnostic
    this.#quiet = this.#parts.idle
  }

  feed(chunk: string | Uint8Array): string | undefined {
    const sse = this.#sse
    const text = sse.decode(chunk)
    this.#out = ''
    // One whole `data:` event of the last plain chunk's shape: no SSE parsing, no message.
    if (this.#plainChunks && sse.ready() && sse.withinCap(text)) {
      const found = this.#reader.readEvent(text, this.#quiet, this.#usable)
      if (found === CHUNK_PLAIN) {
        this.#encoder.forwarded(text, CHUNK_FRAME.before.length, text.length - CHUNK_FRAME.after.length)
        return undefined
      }
      if (found === CHUNK_SHAPED) {
        this.#repairShaped({ data: text.slice(CHUNK_FRAME.before.length, text.length - CHUNK_FRAME.after.length) })
        return this.#out
      }
    }
    const messages = sse.parse(text)
    let unchanged = sse.verbatim()
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!
      if (!unchanged) {
        if (this.#repair(message)) this.#out += encodeSseMessage(message)
      } else if (!this.#repair(message)) {
        // The read changes after all: the messages before this one, then this one's output.
        unchanged = false
        const own = this.#out
        this.#out = ''
        for (let before = 0; before < index; before++) this.#out += encodeSseMessage(messages[before]!)
        this.#out += own
      }
    }
    return unchanged ? undefined : this.#out
  }

  text(): string {
    return this.#sse.text()
  }

  end(): string {
    this.#out = ''
    for (const message of this.#sse.end()) if (this.#repair(message)) this.#out += encodeSseMessage(message)
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

  #settle(): void {
    this.#quiet = this.#parts.idle
  }

  /** The chain for a chunk of the reader's shape (CHUNK_SHAPED): what decodeChatCompletionsMessage gives, without parsing. */
  #repairShaped(message: SseEvent): void {
    const origin = new ShapedOrigin(message, this.#facts!)
    const part: Part = { type: 'text', text: this.#reader.content, origin }
    origin.parts.push(part)
    this.#parts.feed(part)
    this.#parts.feed({ type: 'chunk-end', origin })
    this.#settle()
  }

  /**
   * One message through the chain. Returns true, doing nothing, when the
   * chain would forward it as it came and leave every stage as it was.
   */
  #repair(message: SseMessage): boolean {
    if (this.#plainChunks && !isSseComment(message) && !isErrorEvent(message)) {
      const found = this.#reader.read(message.data, this.#quiet, this.#usable)
      if (found === CHUNK_PLAIN) {
        this.#encoder.forwarded(message.data, 0, message.data.length)
        return true
      }
      if (found === CHUNK_SHAPED) {
        this.#repairShaped(message)
        return false
      }
    }
    for (const part of decodeChatCompletionsMessage(message)) this.#parts.feed(part)
    this.#settle()
    return false
  }
}
