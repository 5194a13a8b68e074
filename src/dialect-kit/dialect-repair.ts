/**
 * `createDialectRepair`: the one fused repair machine every SSE dialect is an
 * instance of (Chat Completions, Anthropic Messages, the OpenAI Responses
 * API) — SSE decode → the dialect's decoder → the one part pipeline → the
 * dialect's encoder → SSE encode, as one synchronous core. The same cores as
 * the composed streams, so both give the same bytes (the dialects' tests
 * prove it on every fixture, with each shortcut on and off).
 *
 * Its shortcuts, each exact, each step asking the owner:
 * - **verbatim reads.** A read of whole events that the SSE decoder can give
 *   back exactly (`verbatim`), each of which the encoder writes back as it
 *   came, comes out as the read itself: `feed` says so with `undefined`, and
 *   a stream forwards the read's own bytes instead of encoding the text again.
 * - **plain messages** (`plainMessages`). While the pipeline is idle, a
 *   message the decoder reads as plain without parsing it (`plainSpan`: it
 *   would decode to one answer text that no stage changes) goes by as it
 *   came. A text delta that came out as it came (`textSpan`, after decoding)
 *   or a plain message with a text becomes the *shape*: the message cut
 *   around its text's string body (and its number, `counterSpan`). The next
 *   message of the same event name whose data is the shape with another
 *   plain string (`PlainStringScanner`) is the same message with other text:
 *   every stage would pass it on and stay as it is, so it goes by as it came
 *   without being parsed. The encoder is told (`forwarded`) and may refuse.
 * - **shaped messages** (`shapedMessages`). A message of the shape whose
 *   string is not plain is read without parsing all the same, when the
 *   decoder can make its parts from the text (and number: `shapedParts`) and
 *   the encoder can write any message of the shape from them (`writesShape`;
 *   its `ShapedOrigin` parses the message only if the encoder asks). A
 *   whole read the encoder writes back as it came goes out as it came.
 * - **passed texts** (`passedTexts`). A message of the shape whose string
 *   is not plain by the scanner's reading (a line break, a backtick, a
 *   backslash, a `<`; or the pipeline not idle, at a line start) goes by as
 *   it came all the same when the sanitizer, reading its text, would pass
 *   that text as it is (`passesAsItIs`: nothing held before or after), the
 *   text encodes back as read, and the encoder agrees (`forwarded`). The
 *   pipeline then reads the text (`passedText`) without parts being made of
 *   it or written again.
 * - **whole events** (`wholeEvents`). A read that is one event of the shape,
 *   whole (the SSE decoder `ready` for it), skips the SSE parser too.
 * - **repeated texts** (`repeatedTexts`). A read of bytes that is one event
 *   holding long texts the decoder knows (`repeatedIn`, `eventAround`) is
 *   decoded around them and fed with where they are: compared as bytes,
 *   not decoded and parsed again.
 * Any other message decoded drops the shape.
 */
import { isAsciiDigit } from '../json-text.ts'
import { createPartRepair, type PartRepair, type PartRepairOptions } from '../parts/part-repair.ts'
import type { Part } from '../parts/part.ts'
import type { DialectDecoder, DialectEncoder } from './dialect-hooks.ts'
import { BODY_OTHER, BODY_PLAIN, BODY_PLAIN_ESCAPED, PlainStringScanner, stringBodyValue } from './plain-json-string.ts'
import { Forwarding } from './forwarded-message.ts'
import { makeShape, type Shape } from './text-shape.ts'
import { createSseDecoderCore, type SseDecoderCore } from '../sse/sse-decoder.ts'
import type { JsonAroundKnown } from '../json-known-strings.ts'
import { encodesBackAsRead } from '../sse/utf8-round-trip.ts'
import { encodeSseMessage, encodeSseMessages } from '../sse/sse-encoder.ts'
import { isSseComment, sameSseMessage, type SseEvent, type SseMessage } from '../sse/types.ts'

export interface DialectRepairOptions {
  /** Longest SSE line or event, in characters. */
  maxBufferSize?: number
}

/**
 * The shortcuts (see above), each exact and each kept because the pipeline
 * bench measures its gain (its ablation table). Internal: only the bench and
 * the tests turn them off.
 */
export interface DialectShortcuts {
  plainMessages: boolean
  shapedMessages: boolean
  passedTexts: boolean
  wholeEvents: boolean
  repeatedTexts: boolean
}

export const ALL_SHORTCUTS: Readonly<DialectShortcuts> = { plainMessages: true, shapedMessages: true, passedTexts: true, wholeEvents: true, repeatedTexts: true }
export const NO_SHORTCUTS: Readonly<DialectShortcuts> = { plainMessages: false, shapedMessages: false, passedTexts: false, wholeEvents: false, repeatedTexts: false }

/** The fused repair of one dialect: bytes or text of an upstream SSE body in, repaired SSE text out. */
export interface DialectRepair {
  /** Repaired SSE text of this read, or `undefined` when it is exactly the read as it came (`text()`). */
  feed(chunk: string | Uint8Array): string | undefined
  /** The decoded text of the last read. */
  text(): string
  end(): string
  /**
   * The runaway guard ended the message (`runawayRepeat`): its ending was
   * written, and every read from now on repairs to nothing. Whoever reads the
   * upstream should cancel it, so the tokens stop.
   */
  readonly stopped: boolean
}

export function createDialectRepair(
  decoder: DialectDecoder,
  encoder: DialectEncoder,
  partOptions: PartRepairOptions,
  options: DialectRepairOptions,
  shortcuts: Readonly<DialectShortcuts> = ALL_SHORTCUTS,
): DialectRepair {
  return new Repair(decoder, encoder, partOptions, options, shortcuts)
}

// What reading a message (or a read) against the shape found.
/** It does not have the shape. */
const NO_FIT = 0
/** It went by as it came. */
const FORWARDED = 1
/** It was read without parsing and went through the pipeline: `#written` holds what came out. */
const REPAIRED = 2

/** The digits of a number in a shape: more would not be a safe integer. */
const MAX_COUNTER_DIGITS = 15

/** A class, so that one per open stream pays for its fields only. */
class Repair implements DialectRepair {
  #sse: SseDecoderCore
  #decoder: DialectDecoder
  #encoder: DialectEncoder
  #parts: PartRepair
  /** The messages the encoder wrote for the message being repaired. */
  #written: SseMessage[] = []
  #plainMessages: boolean
  #shapedMessages: boolean
  #passedTexts: boolean
  /** Shapes are learned from decoded text deltas too (`textSpan`). */
  #learnsFromText: boolean
  /** Reads of bytes are searched for the decoder's repeated texts (`repeatedIn`). */
  #findsRepeated: boolean
  #shape: Shape | undefined = undefined
  #strings = new PlainStringScanner()
  #forwarding = new Forwarding()
  /** The message a whole read of the shape was read as (`#readShape`), until `#wroteRead` compares what the encoder wrote with it. */
  #wholeRead: SseEvent | undefined = undefined
  /** The number of the message `#bodyEnd` last read (undefined for an uncounted shape). */
  #counter: number | undefined = undefined

  constructor(decoder: DialectDecoder, encoder: DialectEncoder, partOptions: PartRepairOptions, options: DialectRepairOptions, shortcuts: Readonly<DialectShortcuts>) {
    const wholeEvents = shortcuts.plainMessages && shortcuts.wholeEvents
    this.#sse = createSseDecoderCore(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize }, wholeEvents)
    this.#decoder = decoder
    this.#encoder = encoder
    this.#parts = createPartRepair(partOptions, { emit: (part) => this.#encode(part) })
    this.#plainMessages = shortcuts.plainMessages
    this.#shapedMessages = shortcuts.plainMessages && shortcuts.shapedMessages && decoder.shapedParts !== undefined && encoder.writesShape !== undefined
    this.#passedTexts = this.#shapedMessages && shortcuts.passedTexts
    this.#learnsFromText = shortcuts.plainMessages && decoder.textSpan !== undefined
    this.#findsRepeated = wholeEvents && shortcuts.repeatedTexts && decoder.repeatedIn !== undefined
  }

  feed(chunk: string | Uint8Array): string | undefined {
    if (this.#parts.stopped) return ''
    if (this.#findsRepeated && chunk instanceof Uint8Array) {
      const found = this.#readRepeating(chunk)
      if (found === FORWARDED) return undefined
      if (found === REPAIRED) return encodeSseMessages(this.#written)
    }
    const sse = this.#sse
    const text = sse.decode(chunk)
    const shape = this.#shape
    if (shape !== undefined && sse.ready()) {
      const found = this.#readWhole(text, shape)
      if (found === FORWARDED) return undefined
      if (found === REPAIRED) return this.#wroteRead(shape) ? undefined : encodeSseMessages(this.#written)
    }
    const messages = sse.parse(text)
    let unchanged = sse.verbatim()
    let out = ''
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!
      const written = this.#repair(message)
      if (unchanged && (written === undefined || (written.length === 1 && sameSseMessage(written[0]!, message)))) continue
      if (unchanged) {
        // The read changes after all: the messages before this one, as they came, then this one's output.
        unchanged = false
        for (let before = 0; before < index; before++) out += encodeSseMessage(messages[before]!)
      }
      out += written === undefined ? encodeSseMessage(message) : encodeSseMessages(written)
      // Stopped by a runaway: the messages after it are not read.
      if (this.#parts.stopped) break
    }
    return unchanged ? undefined : out
  }

  get stopped(): boolean {
    return this.#parts.stopped
  }

  text(): string {
    return this.#sse.text()
  }

  end(): string {
    if (this.#parts.stopped) return ''
    let out = ''
    for (const message of this.#sse.end()) {
      const written = this.#repair(message)
      out += written === undefined ? encodeSseMessage(message) : encodeSseMessages(written)
    }
    this.#written = []
    this.#parts.end()
    out += encodeSseMessages(this.#written)
    out += encodeSseMessages(this.#encoder.end())
    return out
  }

  /** One message through the chain: undefined when it goes by as it came, else what the encoder wrote for it. */
  #repair(message: SseMessage): readonly SseMessage[] | undefined {
    if (this.#plainMessages && !isSseComment(message) && message.id === undefined && message.retry === undefined) {
      const data = message.data
      const shape = this.#shape
      if (shape !== undefined && message.event === shape.event) {
        const found = this.#readShape(shape, message, data, 0, data.length)
        if (found === FORWARDED) return undefined
        if (found === REPAIRED) return this.#written
      }
      if (this.#decoder.plainSpan !== undefined && this.#parts.idle && this.#forwardsPlain(message)) return undefined
    }
    return this.#decoded(message, undefined)
  }

  /** `message` decoded (its data given as the stretches around known strings, or not) and through the chain: what the encoder wrote for it. */
  #decoded(message: SseMessage, data: JsonAroundKnown | undefined): readonly SseMessage[] {
    this.#written = []
    for (const part of this.#decoder.feed(message, data)) this.#parts.feed(part)
    if (this.#learnsFromText) this.#learnFromText(message, this.#written)
    else this.#shape = undefined
    return this.#written
  }

  /**
   * A read of bytes that repeats texts the decoder knows, and is one whole
   * event: decoded around them (`eventAround`) and through the chain, fed
   * with where they are. FORWARDED when the encoder wrote it back as it came
   * (the same data string: the texts are never joined into it for a
   * comparison), REPAIRED when `#written` holds what it wrote instead.
   */
  #readRepeating(read: Uint8Array): number {
    const found = this.#decoder.repeatedIn!(read)
    if (found.length === 0) return NO_FIT
    const event = this.#sse.eventAround(read, found)
    if (event === undefined) return NO_FIT
    const written = this.#decoded(event.message, { around: event.around, known: found.map((at) => at.known) })
    return written.length === 1 && sameSseMessage(written[0]!, event.message) ? FORWARDED : REPAIRED
  }

  /**
   * A read that is one event of the shape, whole: its frame, the shape's
   * data, the frame's end. Its data has no line break (the shape's fixed
   * parts came from one data line, and a plain text and digits hold none),
   * so the SSE parser would give the same message.
   */
  #readWhole(text: string, shape: Shape): number {
    const prefix = shape.readPrefix
    const dataEnd = text.length - shape.readSuffix.length
    // Equality of substrings: faster than startsWith / endsWith in V8.
    if (dataEnd < prefix.length || text.substring(dataEnd) !== shape.readSuffix || text.substring(0, prefix.length) !== prefix) return NO_FIT
    if (!this.#sse.withinCap(text)) return NO_FIT
    return this.#readShape(shape, undefined, text, prefix.length - shape.before.length, dataEnd)
  }

  /**
   * After a whole read of the shape was read without parsing: did the
   * encoder write it back as it came — one message, of the shape's event,
   * with the read's data (`#wholeRead`'s, a slice of the read: when the
   * encoder wrote that very string, the comparison is immediate), which
   * holds no U+FFFD (bytes that were not UTF-8 would not come back the
   * same)? Its SSE text is then the read's (`readPrefix` and `readSuffix`
   * are the encoder's frame), so the read goes out as it came instead of
   * being encoded again.
   */
  #wroteRead(shape: Shape): boolean {
    const read = this.#wholeRead!
    this.#wholeRead = undefined
    const written = this.#written
    if (written.length !== 1) return false
    const only = written[0]!
    if (isSseComment(only) || only.event !== shape.event || only.id !== undefined || only.retry !== undefined) return false
    return only.data === read.data && encodesBackAsRead(only.data)
  }

  /**
   * `source` from `dataStart` to `dataEnd` is the data of a message of the
   * shape's event (`message`, or when undefined a whole read of one whose
   * data starts with the shape's `before`, checked by the caller): is it the
   * shape with another string body (and its own number)? When it is, the
   * message goes by as it came (a plain text, the pipeline idle, the encoder
   * agreeing), or is read without parsing (a shaped read).
   */
  #readShape(shape: Shape, message: SseEvent | undefined, source: string, dataStart: number, dataEnd: number): number {
    const bodyStart = dataStart + shape.before.length
    if (message !== undefined && source.substring(0, bodyStart) !== shape.before) return NO_FIT
    const bodyEnd = this.#bodyEnd(shape, source, bodyStart, dataEnd)
    if (bodyEnd === -1) return NO_FIT
    const found = this.#strings.readBody(source, bodyStart, bodyEnd)
    if (found === BODY_OTHER) return NO_FIT
    if (found <= BODY_PLAIN_ESCAPED && this.#parts.idle) {
      return this.#encoderTakes(source, dataStart, dataEnd, this.#counter, bodyStart, bodyEnd, found === BODY_PLAIN, undefined) ? FORWARDED : NO_FIT
    }
    if (!this.#shapedMessages || !this.#shapeWritten(shape)) return NO_FIT
    const text = found === BODY_PLAIN ? source.substring(bodyStart, bodyEnd) : stringBodyValue(source, bodyStart, bodyEnd)
    if (text === undefined) return NO_FIT
    if (this.#passedTexts && this.#passesAsItIs(source, dataStart, dataEnd, bodyStart, bodyEnd, found === BODY_PLAIN, text)) return FORWARDED
    const read: SseEvent = message ?? (this.#wholeRead = messageOf(shape.event, source.substring(dataStart, dataEnd)))
    this.#written = []
    for (const part of this.#decoder.shapedParts!(read, text, shape, this.#counter)) this.#parts.feed(part)
    return REPAIRED
  }

  /**
   * A message of the shape whose text is not plain by the scanner's reading
   * (see `passedTexts` above): it goes by as it came all the same when the
   * pipeline would pass its text as it is (`passesAsItIs`: the sanitizer
   * reads the text), the text encodes back as read, and the encoder agrees
   * (`forwarded`); the pipeline then reads the text as it would have read
   * its part.
   */
  #passesAsItIs(source: string, dataStart: number, dataEnd: number, bodyStart: number, bodyEnd: number, plain: boolean, text: string): boolean {
    if (!encodesBackAsRead(text) || !this.#parts.passesAsItIs(text)) return false
    if (!this.#encoderTakes(source, dataStart, dataEnd, this.#counter, bodyStart, bodyEnd, plain, text)) return false
    this.#parts.passedText(text)
    return true
  }

  /**
   * A message goes by as it came (its data `source[start, end)`, its text's
   * string body `[bodyStart, bodyEnd)`, `plain` when that has no escape,
   * `text` its value when already read): the encoder is told
   * (`forwarded`), and says whether it takes it so. Without the hook: yes.
   */
  #encoderTakes(source: string, start: number, end: number, counter: number | undefined, bodyStart: number, bodyEnd: number, plain: boolean, text: string | undefined): boolean {
    if (this.#encoder.forwarded === undefined) return true
    const forwarding = this.#forwarding
    forwarding.set(source, start, end, counter, bodyStart, bodyEnd, plain, text)
    return this.#encoder.forwarded(forwarding)
  }

  /**
   * Where the string body ends in data of the shape from `bodyStart` to
   * `dataEnd`: the data ends with the shape's `middle` (then, when counted,
   * digits and `after`); -1 when it does not. Leaves the number on `#counter`.
   */
  #bodyEnd(shape: Shape, source: string, bodyStart: number, dataEnd: number): number {
    if (!shape.counted) {
      this.#counter = undefined
      const bodyEnd = dataEnd - shape.middle.length
      return bodyEnd < bodyStart || source.substring(bodyEnd, dataEnd) !== shape.middle ? -1 : bodyEnd
    }
    const counterEnd = dataEnd - shape.after.length
    if (counterEnd < bodyStart || source.substring(counterEnd, dataEnd) !== shape.after) return -1
    let counterStart = counterEnd
    while (counterStart > bodyStart && isAsciiDigit(source.charCodeAt(counterStart - 1))) counterStart--
    if (counterStart === counterEnd || counterEnd - counterStart > MAX_COUNTER_DIGITS) return -1
    const bodyEnd = counterStart - shape.middle.length
    if (bodyEnd < bodyStart || source.substring(bodyEnd, counterStart) !== shape.middle) return -1
    this.#counter = Number(source.substring(counterStart, counterEnd))
    return bodyEnd
  }

  /** Does the encoder write every message of the shape from `shapedParts`? Asked once per shape. */
  #shapeWritten(shape: Shape): boolean {
    return (shape.shaped ??= this.#encoder.writesShape!(shape))
  }

  /**
   * The pipeline idle: is `message` plain by the decoder's reading, without
   * parsing (`plainSpan`)? Then it goes by as it came, if the encoder
   * agrees, and its text (if any) gives the shape.
   */
  #forwardsPlain(message: SseEvent): boolean {
    const span = this.#decoder.plainSpan!(message)
    if (span === undefined) return false
    const data = message.data
    // No text: an empty body, plain.
    if (!this.#encoderTakes(data, 0, data.length, undefined, span?.[0] ?? 0, span?.[1] ?? 0, span === null, undefined)) return false
    this.#shape = span === null ? undefined : makeShape(message.event, data, span, undefined)
    return true
  }

  /** A text delta that came out as it came becomes the shape; any other message drops it. */
  #learnFromText(message: SseMessage, written: readonly SseMessage[]): void {
    this.#shape = undefined
    if (isSseComment(message) || written.length !== 1 || !sameSseMessage(written[0]!, message)) return
    const span = this.#decoder.textSpan!(message)
    if (span === undefined) return
    this.#shape = makeShape(message.event, message.data, span, this.#decoder.counterSpan?.(message))
  }

  #encode(part: Part): void {
    // Diagnostics were reported by the part pipeline (`onDiagnostic` of its options); encoders write none.
    if (part.type === 'diagnostic') return
    for (const next of this.#encoder.feed(part)) this.#written.push(next)
  }
}

/** A message of `event` (or none) with `data`. */
function messageOf(event: string | undefined, data: string): SseEvent {
  return event === undefined ? { data } : { event, data }
}
