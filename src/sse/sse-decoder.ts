/**
 * `createSseDecoder`: bytes or strings in, SSE messages out, on
 * `eventsource-parser` (which follows WHATWG HTML §9.2.5–9.2.6: any line
 * ending, one leading space stripped, an event not ended by a blank line
 * discarded at the end of the stream).
 *
 * The decoder owns three rules itself, so that it never has to guess the
 * parser's private state: the one leading BOM a stream may start with is
 * stripped here (the parser is told at once that its own check is over);
 * line and event lengths are measured here (the parser checks its cap only
 * between reads); and line endings are made LF here (CRLF, even split across
 * reads, and CR alike), so the parser never holds a CR to see whether an LF
 * follows, and an event ended by CR comes out at once. Knowing what it
 * holds, the decoder can say when a read of whole `data:` events may skip
 * the parser.
 *
 * Bytes are decoded as UTF-8 here, so a character split across reads is fine.
 * Comments are kept (a gateway forwards `: keep-alive` as a heartbeat).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
import { createParser, type EventSourceParser, type ParseError } from 'eventsource-parser'
import { StreamLimitError } from './errors.ts'
import type { SseEvent, SseMessage } from './types.ts'
import { encodesBackAsRead } from './utf8-round-trip.ts'
import { eventAroundTexts, isEventLine, LINE_FEED, readWholeEvents } from './one-line-events.ts'

export interface SseDecoderOptions {
  /**
   * Longest line or event the decoder buffers, in characters. Past it the
   * stream fails with a `StreamLimitError` (`type: 'sse-buffer-limit'`).
   * @default 8_388_608 (8 Mi characters)
   */
  maxBufferSize?: number
  /** Keep comment lines as `{ comment }` messages. @default true */
  comments?: boolean
}

export interface SseDecoder {
  feed(chunk: string | Uint8Array): SseMessage[]
  /** End of input: a trailing event without its blank line is discarded, as the spec says. */
  end(): SseMessage[]
}

export const DEFAULT_MAX_SSE_BUFFER = 8 * 1024 * 1024

/**
 * The decoder with what the fused Chat Completions repair needs to forward a
 * read as it came (internal; not exported from the package).
 */
export interface SseDecoderCore extends SseDecoder {
  /**
   * The last read was whole events of one `data: ` line each, ended by a
   * blank line (`data: X\n\n`…, LF only), from and to a state holding
   * nothing (no partial line, event, character or `retry`): encoding its
   * messages gives back its text exactly. For bytes, also: valid UTF-8, no
   * character carried in or out, so encoding that text gives back the bytes.
   */
  verbatim(): boolean
  /** The decoded text of the last read. */
  text(): string
  /** `feed` in two steps: the read as text (bytes decoded)… */
  decode(chunk: string | Uint8Array): string
  /** …then that text parsed. */
  parse(text: string): SseMessage[]
  /**
   * After `decode`: nothing is held (no partial line, event, `retry` or
   * character, the BOM check over) and the read carried no partial character
   * in or out. A caller that finds the text to be one event — an optional
   * `event: NAME` line (NAME not empty), then `data: X`, then a blank line,
   * NAME and X without line breaks or U+FFFD — that `withinCap` accepts may
   * then skip `parse`: it would give `{ data: X }` (or `{ event: NAME, data:
   * X }`) and leave everything as it is, and the read may be forwarded as it
   * came.
   */
  ready(): boolean
  /** For a text that is one such event: are its lines within `maxBufferSize`, as the parser counts them? */
  withinCap(text: string): boolean
  /**
   * Instead of `decode` and `parse`, for a read of bytes in which the caller
   * found, at each span (in order, none overlapping), the UTF-8 bytes of its
   * `text` (`bytesReadAs`), each span starting and ending with an ASCII
   * byte: when nothing is held or carried in and the read is one event as
   * `ready` describes it, every span inside its data and within
   * `maxBufferSize`, the read is taken as `decode` and `parse` would take it
   * (`verbatim`, `text`, the state after) without decoding the spans: the
   * one message, and the stretches of its data around the texts (one more
   * than the spans). Otherwise undefined, and nothing is changed.
   */
  eventAround(read: Uint8Array, spans: readonly BytesReadAs[]): EventAround | undefined
  readonly maxBufferSize: number
}

/** Bytes `[start, end)` of a read, which the decoder would read as `text`. */
export interface BytesReadAs {
  readonly start: number
  readonly end: number
  readonly text: string
}

/** A read taken by `eventAround`: its one message, whose data is `around[0]`, the first span's text, `around[1]`, …, `around[n]`. */
export interface EventAround {
  readonly message: SseEvent
  readonly around: readonly string[]
}

/**
 * The SSE decoder as a synchronous core: `feed` bytes or text and get the messages they complete,
 * then `end`.
 */
export function createSseDecoder(options: SseDecoderOptions = {}): SseDecoder {
  return createSseDecoderCore(options)
}

const CARRIAGE_RETURNS = /\r\n?/g

/**
 * The read with every line ending as LF: CRLF and a lone CR alike, and the
 * LF that completes a CRLF split across reads (the last read ended with its
 * CR) dropped. Only the read is rewritten, never held text.
 */
function lineFeedsOnly(text: string, afterCarriageReturn: boolean): string {
  const start = afterCarriageReturn && text.charCodeAt(0) === LINE_FEED ? 1 : 0
  if (text.indexOf('\r', start) === -1) return start === 0 ? text : text.slice(1)
  return text.slice(start).replace(CARRIAGE_RETURNS, '\n')
}
const STREAM: TextDecodeOptions = { stream: true }

/** `wholeEvents`: whether a read of whole `data:` events may skip the parser (internal; the bench turns it off). */
export function createSseDecoderCore(options: SseDecoderOptions = {}, wholeEvents = true): SseDecoderCore {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`Cannot create SSE decoder: options must be an object, got ${options === null ? 'null' : typeof options}`)
  }
  if (options.comments !== undefined && typeof options.comments !== 'boolean') {
    throw new TypeError(`Cannot use option "comments": expected a boolean, got ${typeof options.comments}`)
  }
  const maxBufferSize = options.maxBufferSize ?? DEFAULT_MAX_SSE_BUFFER
  if (!Number.isInteger(maxBufferSize) || maxBufferSize < 1) {
    throw new TypeError(`Cannot use option "maxBufferSize": expected a positive integer, got ${String(options.maxBufferSize)}`)
  }
  return new Decoder(maxBufferSize, options.comments ?? true, wholeEvents)
}

/**
 * The decoder's state. A class, so that one per open stream pays for its
 * fields only; the parser (closures of its own) is made on the first read
 * the fast path cannot take.
 */
class Decoder implements SseDecoderCore {
  readonly maxBufferSize: number
  #keepComments: boolean
  // One BOM at the start of the stream is stripped here (`#withoutBom`), none after it
  // (some runtimes drop a U+FEFF at the start of any chunk when asked to).
  #decoder: TextDecoder | undefined = undefined
  #parser: EventSourceParser | undefined = undefined
  #out: SseMessage[] = []
  #retry: number | undefined = undefined
  #failure: StreamLimitError | undefined = undefined

  // The parser checks its cap only against what it holds between reads; a line or
  // an event that starts and ends inside one huge read would pass. So lines and
  // events (their characters, line breaks not counted) are measured here, as the
  // text goes by (two cached indexOf scans).
  #lineLength = 0
  #eventLength = 0
  #previousWasCarriageReturn = false
  #lineIsComment = false

  #pendingBytes = false
  /** The byte decoder holds no partial character (the last bytes read ended on an ASCII byte). */
  #bytesClean = true
  /** The leading-BOM check: the text held as a possible BOM ('' at the start), undefined once the check is over. */
  #bomPrefix: string | undefined = ''
  /** Nothing held anywhere: no partial line or event, no pending CR or `retry` (the BOM check aside). */
  #clean = true
  #verbatim = false
  #lastText = ''
  /** The last read came as bytes. */
  #lastWasBytes = false
  /** The last read carried no partial character in or out (always so for a string). */
  #lastBytesClean = false

  #wholeEventsAllowed: boolean

  constructor(maxBufferSize: number, keepComments: boolean, wholeEvents: boolean) {
    this.maxBufferSize = maxBufferSize
    this.#keepComments = keepComments
    this.#wholeEventsAllowed = wholeEvents
  }

  feed(chunk: string | Uint8Array): SseMessage[] {
    return this.parse(this.decode(chunk))
  }

  end(): SseMessage[] {
    this.#verbatim = false
    this.#lastText = ''
    const rest = this.#pendingBytes ? this.#flushBytes() : ''
    // A held start of a BOM that never completed is ordinary text.
    const held = this.#bomPrefix ?? ''
    this.#bomPrefix = undefined
    return this.#run(held + rest)
  }

  // Methods, not getters: the fused repair reads them on every chunk.
  ready(): boolean {
    return this.#clean && this.#wholeEventsAllowed && this.#bomPrefix === undefined && this.#failure === undefined && this.#lastBytesClean
  }

  withinCap(text: string): boolean {
    // The event's lines without their line feeds: two after the data line, one after an `event:` line.
    return text.length - 2 - (isEventLine(text, 0) ? 1 : 0) <= this.maxBufferSize
  }

  verbatim(): boolean {
    return this.#verbatim
  }

  eventAround(read: Uint8Array, spans: readonly BytesReadAs[]): EventAround | undefined {
    const length = read.length
    if (!this.#clean || !this.#wholeEventsAllowed || this.#bomPrefix !== undefined || this.#failure !== undefined || !this.#bytesClean) return undefined
    if (spans.length === 0 || length < 8 || read[length - 1] !== LINE_FEED || read[length - 2] !== LINE_FEED) return undefined
    const decoder = (this.#decoder ??= new TextDecoder('utf-8', { ignoreBOM: true }))
    // The read's stretches around the spans, each decoded alone: every span starts and ends with an ASCII byte, so they read as the whole would.
    const stretches: string[] = []
    let at = 0
    for (const span of spans) {
      if (span.start < at) return undefined
      stretches.push(decoder.decode(read.subarray(at, span.start)))
      at = span.end
    }
    stretches.push(decoder.decode(read.subarray(at)))
    const event = eventAroundTexts(stretches, spans, this.maxBufferSize)
    if (event === undefined) return undefined
    // As `decode` and then the whole-event `parse` leave it: the read as it came, ending on an ASCII byte.
    this.#pendingBytes = true
    this.#bytesClean = true
    this.#lastWasBytes = true
    this.#lastBytesClean = true
    this.#lastText = event.text
    this.#verbatim = true
    return { message: event.message, around: event.around }
  }

  text(): string {
    return this.#lastText
  }

  decode(chunk: string | Uint8Array): string {
    this.#verbatim = false
    // A string after bytes: finish the bytes' last character first (U+FFFD if it was cut).
    if (typeof chunk === 'string') {
      this.#lastWasBytes = false
      this.#lastBytesClean = true
      return (this.#lastText = this.#pendingBytes ? this.#flushBytes() + chunk : chunk)
    }
    if (chunk instanceof Uint8Array) {
      this.#pendingBytes = true
      this.#lastWasBytes = true
      const wasClean = this.#bytesClean
      const length = chunk.length
      if (length > 0) this.#bytesClean = chunk[length - 1]! < 0x80
      this.#lastBytesClean = wasClean && this.#bytesClean
      const decoder = (this.#decoder ??= new TextDecoder('utf-8', { ignoreBOM: true }))
      // Nothing carried in and nothing to carry out (the last byte is ASCII): the same text
      // without stream mode, which is about twice as fast in V8 (no converter state to keep).
      return (this.#lastText = this.#lastBytesClean ? decoder.decode(chunk) : decoder.decode(chunk, STREAM))
    }
    throw new TypeError(`Cannot decode SSE: expected a string or Uint8Array chunk, got ${typeof chunk}`)
  }

  parse(read: string): SseMessage[] {
    const text = this.#bomPrefix === undefined ? read : this.#withoutBom(read)
    if (this.#clean && this.#wholeEventsAllowed && this.#failure === undefined) {
      const messages = readWholeEvents(text, this.maxBufferSize)
      if (messages !== undefined) {
        // Bytes as they came: nothing carried in or out, no BOM taken, and (read from bytes) encoding back to them.
        this.#verbatim = text === read && this.#lastBytesClean && (!this.#lastWasBytes || encodesBackAsRead(text))
        return messages
      }
    }
    return this.#run(text)
  }

  /**
   * The leading-BOM check: one U+FEFF, or its three bytes read as the
   * characters `\xEF\xBB\xBF`, is taken off the start of the stream, even
   * split across reads; anything else ends the check unchanged.
   */
  #withoutBom(read: string): string {
    const head = this.#bomPrefix + read
    if (head === '' || head === '\xEF' || head === '\xEF\xBB') {
      this.#bomPrefix = head
      return ''
    }
    this.#bomPrefix = undefined
    if (head.charCodeAt(0) === 0xfeff) return head.slice(1)
    return head.startsWith('\xEF\xBB\xBF') ? head.slice(3) : head
  }

  #flushBytes(): string {
    this.#pendingBytes = false
    this.#bytesClean = true
    return this.#decoder === undefined ? '' : this.#decoder.decode()
  }

  /** The parser, made when first needed, its own BOM check over (the decoder has done it). */
  #parserNow(): EventSourceParser {
    if (this.#parser !== undefined) return this.#parser
    const parser = createParser({
      maxBufferSize: this.maxBufferSize,
      onEvent: (event) => {
        const message: SseMessage = { data: event.data }
        if (event.event !== undefined) message.event = event.event
        if (event.id !== undefined) message.id = event.id
        if (this.#retry !== undefined) {
          message.retry = this.#retry
          this.#retry = undefined
        }
        this.#out.push(message)
      },
      onRetry: (value) => {
        this.#retry = value
      },
      onComment: this.#keepComments ? (comment) => this.#out.push({ comment }) : undefined,
      onError: (error: ParseError) => {
        if (error.type === 'max-buffer-size-exceeded') {
          this.#failure = new StreamLimitError(
            'sse-buffer-limit',
            this.maxBufferSize,
            `Cannot decode SSE: a line or event is longer than maxBufferSize (${this.maxBufferSize} characters)`,
          )
        }
        // Other parse errors (unknown fields, a bad retry) are ignored, as the spec says.
      },
    })
    // An empty line with no event before it dispatches nothing, and ends the parser's BOM check.
    parser.feed('\n')
    return (this.#parser = parser)
  }

  #run(text: string): SseMessage[] {
    if (this.#failure) throw this.#failure
    this.#out = []
    if (text.length > 0) {
      const afterCarriageReturn = this.#previousWasCarriageReturn
      this.#measure(text)
      this.#parserNow().feed(lineFeedsOnly(text, afterCarriageReturn))
    }
    if (this.#failure) throw this.#failure
    this.#clean = this.#lineLength === 0 && this.#eventLength === 0 && !this.#previousWasCarriageReturn && this.#retry === undefined
    return this.#out
  }

  #measure(text: string): void {
    const maxBufferSize = this.maxBufferSize
    let index = 0
    let nextLineFeed = text.indexOf('\n')
    let nextCarriageReturn = text.indexOf('\r')
    while (index < text.length) {
      if (nextLineFeed !== -1 && nextLineFeed < index) nextLineFeed = text.indexOf('\n', index)
      if (nextCarriageReturn !== -1 && nextCarriageReturn < index) nextCarriageReturn = text.indexOf('\r', index)
      const lineEnd =
        nextLineFeed === -1 ? nextCarriageReturn : nextCarriageReturn === -1 ? nextLineFeed : Math.min(nextLineFeed, nextCarriageReturn)
      const segment = (lineEnd === -1 ? text.length : lineEnd) - index
      if (this.#lineLength === 0 && segment > 0) this.#lineIsComment = text.charCodeAt(index) === 0x3a
      this.#lineLength += segment
      this.#eventLength += segment
      if (this.#lineLength > maxBufferSize || this.#eventLength > maxBufferSize) {
        this.#failure = new StreamLimitError(
          'sse-buffer-limit',
          maxBufferSize,
          `Cannot decode SSE: a line or event is longer than maxBufferSize (${maxBufferSize} characters)`,
        )
        throw this.#failure
      }
      if (lineEnd === -1) {
        if (segment > 0) this.#previousWasCarriageReturn = false
        return
      }
      const isLineFeed = text.charCodeAt(lineEnd) === 0x0a
      // The LF of a CRLF ends nothing new; any other empty line ends the event.
      if (!(isLineFeed && this.#previousWasCarriageReturn && segment === 0)) {
        if (this.#lineLength === 0) this.#eventLength = 0
        // Comments are not part of the event (heartbeats may come without blank lines).
        else if (this.#lineIsComment) this.#eventLength -= this.#lineLength
        this.#lineLength = 0
        this.#lineIsComment = false
      }
      this.#previousWasCarriageReturn = !isLineFeed
      index = lineEnd + 1
    }
  }
}
