/**
 * `createDialectRepair`: the fused repair of one SSE dialect as a synchronous
 * core — SSE decode → the dialect's decoder → the one part pipeline → the
 * dialect's encoder → SSE encode — for the dialects whose codecs have no
 * shortcuts of their own (Anthropic Messages, the OpenAI Responses API).
 *
 * Two shortcuts, each step asking the owner:
 * - a read of whole events that the SSE decoder can give back exactly
 *   (`verbatim`), each of which the encoder writes back as it came (one
 *   message, the same fields), comes out as the read itself: `feed` says so
 *   with `undefined`, and a stream forwards the read's own bytes instead of
 *   encoding the text again;
 * - text-delta shapes: when a text delta came out as it came, the decoder
 *   says where its text sits in the data (`textSpan`), and the event is kept
 *   as a shape cut around that text. The next event of the same name whose
 *   data is the shape with another string between, plain for an idle
 *   sanitizer (`PlainStringScanner`) while the pipeline is idle, is the same
 *   event with other text: every stage would pass it on unchanged and stay
 *   as it is, so it is forwarded without being parsed. A read that is one
 *   such event whole (the SSE decoder `ready` for it) skips the SSE parser
 *   too. Any other event drops the shape.
 */
import { isAsciiDigit } from '../json-text.ts'
import type { Diagnostic } from '../dsml/types.ts'
import { createPartRepair, type PartRepair, type PartRepairOptions } from '../parts/part-repair.ts'
import type { Part } from '../parts/part.ts'
import { BODY_PLAIN, BODY_PLAIN_ESCAPED, PlainStringScanner, stringBodyValue } from './plain-json-string.ts'
import { createSseDecoderCore, type SseDecoderCore } from '../sse/sse-decoder.ts'
import { encodeSseMessage, singleLineFrame } from '../sse/sse-encoder.ts'
import { isSseComment, type SseMessage } from '../sse/types.ts'

/** A dialect's decoder: one SSE message → its parts. */
export interface DialectDecoder {
  feed(message: SseMessage): Part[]
  /**
   * Just after `feed(message)`: when the message was a text delta (its parts
   * one text part), the span `[start, end)` of that text's string body in
   * `message.data`; otherwise undefined. A decoder without it gets no shapes.
   */
  textSpan?(message: SseMessage): readonly [number, number] | undefined
  /**
   * With `textSpan`, for formats that number their events: the span of the
   * event's number (its digits), after the text. A shape then has two
   * holes: the text, and the number.
   */
  counterSpan?(message: SseMessage): readonly [number, number] | undefined
}

/** A dialect's encoder: parts → SSE messages. */
export interface DialectEncoder {
  feed(part: Part): SseMessage[]
  end(): SseMessage[]
  /**
   * A text delta of the current shape, with this text (and number), is about
   * to go by as it came: an encoder that keeps state about what it wrote
   * (numbering, texts it repeats later) notes it and says yes, or says no
   * when it would not write the event as it came. Without it: yes.
   */
  forwarded?(text: string, counter: number | undefined): boolean
}

export interface DialectRepairOptions {
  /** Longest SSE line or event, in characters. */
  maxBufferSize?: number
  onDiagnostic?: (diagnostic: Diagnostic) => void
}

/** The shortcuts (internal: only the bench and the tests turn them off). */
export interface DialectShortcuts {
  textDeltaShapes: boolean
}

const ALL_DIALECT_SHORTCUTS: DialectShortcuts = { textDeltaShapes: true }

/** The last text delta forwarded as it came, cut around its text (and its number). */
interface Shape {
  event: string | undefined
  before: string
  /** How a whole read of the shape starts: its frame up to the data (`singleLineFrame`), then `before`. */
  readPrefix: string
  /** How it ends: the frame after the data. */
  readSuffix: string
  /** Between the text and the number (or, without a number, everything after the text). */
  middle: string
  /** After the number ('' without one). */
  after: string
  counted: boolean
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
  shortcuts: DialectShortcuts = ALL_DIALECT_SHORTCUTS,
): DialectRepair {
  return new Repair(decoder, encoder, partOptions, options, shortcuts)
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
  #shapes: boolean
  #shape: Shape | undefined = undefined
  #strings = new PlainStringScanner()

  constructor(decoder: DialectDecoder, encoder: DialectEncoder, partOptions: PartRepairOptions, options: DialectRepairOptions, shortcuts: DialectShortcuts) {
    this.#sse = createSseDecoderCore(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize })
    this.#decoder = decoder
    this.#encoder = encoder
    this.#parts = createPartRepair(partOptions, { emit: (part) => this.#encode(part) })
    this.#onDiagnostic = options.onDiagnostic
    this.#shapes = shortcuts.textDeltaShapes && decoder.textSpan !== undefined
  }

  feed(chunk: string | Uint8Array): string | undefined {
    const sse = this.#sse
    const text = sse.decode(chunk)
    if (this.#shape !== undefined && sse.ready() && this.#fitsRead(text)) return undefined
    const messages = sse.parse(text)
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
    if (this.#fitsMessage(message)) return [message]
    this.#written = []
    for (const part of this.#decoder.feed(message)) this.#parts.feed(part)
    if (this.#shapes) this.#learnShape(message, this.#written)
    return this.#written
  }

  /** Is the message the last shape with another text (see `#fitsShape`)? */
  #fitsMessage(message: SseMessage): boolean {
    const shape = this.#shape
    if (shape === undefined || isSseComment(message) || message.event !== shape.event || message.id !== undefined || message.retry !== undefined) return false
    const data = message.data
    const before = shape.before
    // Equality of substrings: faster than startsWith / endsWith in V8.
    if (data.substring(0, before.length) !== before || !this.#parts.idle) return false
    return this.#fitsShape(shape, data, before.length, data.length)
  }

  /**
   * Is the read one event of the last shape, whole: its frame, the shape's
   * data, a blank line? Its data has no line break (the shape's fixed parts
   * came from one data line, and a plain text and digits hold none), so the
   * SSE parser would give the same message.
   */
  #fitsRead(text: string): boolean {
    const shape = this.#shape!
    // The frame and the data's fixed start, compared as one.
    const prefix = shape.readPrefix
    const end = text.length - shape.readSuffix.length
    if (end < prefix.length || text.substring(end) !== shape.readSuffix) return false
    if (text.substring(0, prefix.length) !== prefix || !this.#parts.idle || !this.#sse.withinCap(text)) return false
    return this.#fitsShape(shape, text, prefix.length, end)
  }

  /**
   * The pipeline idle and `source` before `start` the shape's fixed start
   * (both checked by the caller): is `source` from `start` to `to` the rest
   * of the shape's data with another plain text (and its own number), and
   * does the encoder take it as it came?
   */
  #fitsShape(shape: Shape, source: string, start: number, to: number): boolean {
    let end: number
    let counter: number | undefined
    if (shape.counted) {
      const counterEnd = to - shape.after.length
      if (counterEnd < start || source.substring(counterEnd, to) !== shape.after) return false
      let counterStart = counterEnd
      while (counterStart > start && isAsciiDigit(source.charCodeAt(counterStart - 1))) counterStart--
      if (counterStart === counterEnd || counterEnd - counterStart > 15) return false
      end = counterStart - shape.middle.length
      if (end < start || source.substring(end, counterStart) !== shape.middle) return false
      counter = Number(source.substring(counterStart, counterEnd))
    } else {
      end = to - shape.middle.length
      if (end < start || source.substring(end, to) !== shape.middle) return false
    }
    const found = this.#strings.readBody(source, start, end)
    if (found > BODY_PLAIN_ESCAPED) return false
    const encoder = this.#encoder
    if (encoder.forwarded === undefined) return true
    const text = found === BODY_PLAIN ? source.substring(start, end) : stringBodyValue(source, start, end)
    return text !== undefined && encoder.forwarded(text, counter)
  }

  /** A text delta that came out as it came becomes the shape; anything else drops it. */
  #learnShape(message: SseMessage, written: readonly SseMessage[]): void {
    this.#shape = undefined
    if (isSseComment(message) || written.length !== 1 || !sameMessage(written[0]!, message)) return
    const span = this.#decoder.textSpan!(message)
    if (span === undefined) return
    const data = message.data
    // One data line (a fixed part of a later read must hold no line break), and no U+FFFD
    // (bytes that were not UTF-8 must not be forwarded as they came).
    if (data.indexOf('\n') !== -1 || data.indexOf('\r') !== -1 || data.indexOf('\uFFFD') !== -1) return
    const event = message.event
    if (event !== undefined && event.indexOf('\uFFFD') !== -1) return
    const frame = singleLineFrame(event)
    const counter = this.#decoder.counterSpan?.(message)
    if (counter === undefined) {
      const before = data.slice(0, span[0])
      this.#shape = { event, before, readPrefix: frame.before + before, readSuffix: frame.after, middle: data.slice(span[1]), after: '', counted: false }
    } else if (counter[0] >= span[1]) {
      const before = data.slice(0, span[0])
      this.#shape = { event, before, readPrefix: frame.before + before, readSuffix: frame.after, middle: data.slice(span[1], counter[0]), after: data.slice(counter[1]), counted: true }
    }
  }

  #encode(part: Part): void {
    if (part.type === 'diagnostic') {
      this.#onDiagnostic?.(part.diagnostic)
      return
    }
    for (const next of this.#encoder.feed(part)) this.#written.push(next)
  }
}
