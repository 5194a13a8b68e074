/**
 * `createDialectRepair`: the fused repair of one SSE dialect as a synchronous
 * core — SSE decode → the dialect's decoder → the one part pipeline → the
 * dialect's encoder → SSE encode — for the dialects whose codecs have no
 * shortcuts of their own (Anthropic Messages, the OpenAI Responses API).
 *
 * One shortcut, whose every step asks the owner: a read of whole events that
 * the SSE decoder can give back exactly (`verbatim`), each of which the
 * encoder writes back as it came (one message, the same fields), comes out
 * as the read itself: `feed` says so with `undefined`, and a stream forwards
 * the read's own bytes instead of encoding the text again.
 */
import type { Diagnostic } from '../dsml/types.ts'
import { createPartRepair, type PartRepair, type PartRepairOptions } from '../parts/part-repair.ts'
import type { Part } from '../parts/part.ts'
import { createSseDecoderCore, type SseDecoderCore } from './sse-decoder.ts'
import { encodeSseMessage } from './sse-encoder.ts'
import { isSseComment, type SseMessage } from './types.ts'

/** A dialect's decoder: one SSE message → its parts. */
export interface DialectDecoder {
  feed(message: SseMessage): Part[]
}

/** A dialect's encoder: parts → SSE messages. */
export interface DialectEncoder {
  feed(part: Part): SseMessage[]
  end(): SseMessage[]
}

export interface DialectRepairOptions {
  /** Longest SSE line or event, in characters. */
  maxBufferSize?: number
  onDiagnostic?: (diagnostic: Diagnostic) => void
}

export interface DialectRepair {
  /** Repaired SSE text of this read, or `undefined` when it is exactly the read as it came (`text()`). */
  feed(chunk: string | Uint8Array): string | undefined
  /** The decoded text of the last read. */
  text(): string
  end(): string
}

export function createDialectRepair(
  decoder: DialectDecoder,
  encoder: DialectEncoder,
  partOptions: PartRepairOptions,
  options: DialectRepairOptions,
): DialectRepair {
  return new Repair(decoder, encoder, partOptions, options)
}

/** Is `written` the message `read` as it came? */
function sameMessage(written: SseMessage, read: SseMessage): boolean {
  if (isSseComment(written) || isSseComment(read)) return isSseComment(written) && isSseComment(read) && written.comment === read.comment
  return written.data === read.data && written.event === read.event && written.id === read.id && written.retry === read.retry
}

/** A class, so that one per open stream pays for its fields only. */
class Repair implements DialectRepair {
  #sse: SseDecoderCore
  #decoder: DialectDecoder
  #encoder: DialectEncoder
  #parts: PartRepair
  #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined
  /** The messages the encoder wrote for the message being repaired. */
  #written: SseMessage[] = []

  constructor(decoder: DialectDecoder, encoder: DialectEncoder, partOptions: PartRepairOptions, options: DialectRepairOptions) {
    this.#sse = createSseDecoderCore(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize })
    this.#decoder = decoder
    this.#encoder = encoder
    this.#parts = createPartRepair(partOptions, { emit: (part) => this.#encode(part) })
    this.#onDiagnostic = options.onDiagnostic
  }

  feed(chunk: string | Uint8Array): string | undefined {
    const sse = this.#sse
    const messages = sse.parse(sse.decode(chunk))
    let unchanged = sse.verbatim()
    let out = ''
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!
      const written = this.#repair(message)
      if (unchanged && written.length === 1 && sameMessage(written[0]!, message)) continue
      if (unchanged) {
        // The read changes after all: the messages before this one, as they came, then this one's output.
        unchanged = false
        for (let before = 0; before < index; before++) out += encodeSseMessage(messages[before]!)
      }
      for (const next of written) out += encodeSseMessage(next)
    }
    return unchanged ? undefined : out
  }

  text(): string {
    return this.#sse.text()
  }

  end(): string {
    let out = ''
    for (const message of this.#sse.end()) for (const next of this.#repair(message)) out += encodeSseMessage(next)
    this.#written = []
    this.#parts.end()
    for (const next of this.#written) out += encodeSseMessage(next)
    for (const next of this.#encoder.end()) out += encodeSseMessage(next)
    return out
  }

  /** One message through the chain; returns what the encoder wrote for it. */
  #repair(message: SseMessage): SseMessage[] {
    this.#written = []
    for (const part of this.#decoder.feed(message)) this.#parts.feed(part)
    return this.#written
  }

  #encode(part: Part): void {
    if (part.type === 'diagnostic') {
      this.#onDiagnostic?.(part.diagnostic)
      return
    }
    for (const next of this.#encoder.feed(part)) this.#written.push(next)
  }
}
