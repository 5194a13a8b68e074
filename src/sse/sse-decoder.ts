/**
 * `createSseDecoder`: bytes or strings in, SSE messages out, on
 * `eventsource-parser` (which follows WHATWG HTML §9.2.5–9.2.6: any line
 * ending, one leading space stripped, BOM ignored, an event not ended by a
 * blank line discarded at the end of the stream).
 *
 * Bytes are decoded as UTF-8 here, so a character split across reads is fine.
 * Comments are kept (a gateway forwards `: keep-alive` as a heartbeat).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
import { createParser, type ParseError } from 'eventsource-parser'
import { StreamLimitError } from './errors.ts'
import type { SseMessage } from './types.ts'

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

export function createSseDecoder(options: SseDecoderOptions = {}): SseDecoder {
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
  const keepComments = options.comments ?? true
  // The parser strips the one BOM a stream may start with; the decoder must not strip
  // others (some runtimes drop a U+FEFF at the start of any chunk when asked to).
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  let out: SseMessage[] = []
  let retry: number | undefined
  let failure: StreamLimitError | undefined
  const parser = createParser({
    maxBufferSize,
    onEvent(event) {
      const message: SseMessage = { data: event.data }
      if (event.event !== undefined) message.event = event.event
      if (event.id !== undefined) message.id = event.id
      if (retry !== undefined) {
        message.retry = retry
        retry = undefined
      }
      out.push(message)
    },
    onRetry(value) {
      retry = value
    },
    onComment: keepComments ? (comment) => out.push({ comment }) : undefined,
    onError(error: ParseError) {
      if (error.type === 'max-buffer-size-exceeded') {
        failure = new StreamLimitError(
          'sse-buffer-limit',
          maxBufferSize,
          `Cannot decode SSE: a line or event is longer than maxBufferSize (${maxBufferSize} characters)`,
        )
      }
      // Other parse errors (unknown fields, a bad retry) are ignored, as the spec says.
    },
  })

  // The parser checks its cap only against what it holds between reads; a line or
  // an event that starts and ends inside one huge read would pass. So lines and
  // events (their characters, line breaks not counted) are measured here, as the
  // text goes by (two cached indexOf scans).
  let lineLength = 0
  let eventLength = 0
  let previousWasCarriageReturn = false
  let lineIsComment = false

  function measure(text: string): void {
    let index = 0
    let nextLineFeed = text.indexOf('\n')
    let nextCarriageReturn = text.indexOf('\r')
    while (index < text.length) {
      if (nextLineFeed !== -1 && nextLineFeed < index) nextLineFeed = text.indexOf('\n', index)
      if (nextCarriageReturn !== -1 && nextCarriageReturn < index) nextCarriageReturn = text.indexOf('\r', index)
      const lineEnd =
        nextLineFeed === -1 ? nextCarriageReturn : nextCarriageReturn === -1 ? nextLineFeed : Math.min(nextLineFeed, nextCarriageReturn)
      const segment = (lineEnd === -1 ? text.length : lineEnd) - index
      if (lineLength === 0 && segment > 0) lineIsComment = text.charCodeAt(index) === 0x3a
      lineLength += segment
      eventLength += segment
      if (lineLength > maxBufferSize || eventLength > maxBufferSize) {
        failure = new StreamLimitError(
          'sse-buffer-limit',
          maxBufferSize,
          `Cannot decode SSE: a line or event is longer than maxBufferSize (${maxBufferSize} characters)`,
        )
        throw failure
      }
      if (lineEnd === -1) {
        if (segment > 0) previousWasCarriageReturn = false
        return
      }
      const isLineFeed = text.charCodeAt(lineEnd) === 0x0a
      // The LF of a CRLF ends nothing new; any other empty line ends the event.
      if (!(isLineFeed && previousWasCarriageReturn && segment === 0)) {
        if (lineLength === 0) eventLength = 0
        // Comments are not part of the event (heartbeats may come without blank lines).
        else if (lineIsComment) eventLength -= lineLength
        lineLength = 0
        lineIsComment = false
      }
      previousWasCarriageReturn = !isLineFeed
      index = lineEnd + 1
    }
  }

  let pendingBytes = false

  function flushBytes(): string {
    pendingBytes = false
    return decoder.decode()
  }

  function run(text: string): SseMessage[] {
    if (failure) throw failure
    out = []
    if (text.length > 0) {
      measure(text)
      parser.feed(text)
    }
    if (failure) throw failure
    return out
  }

  return {
    feed(chunk) {
      // A string after bytes: finish the bytes' last character first (U+FFFD if it was cut).
      if (typeof chunk === 'string') return run(pendingBytes ? flushBytes() + chunk : chunk)
      if (chunk instanceof Uint8Array) {
        pendingBytes = true
        return run(decoder.decode(chunk, { stream: true }))
      }
      throw new TypeError(`Cannot decode SSE: expected a string or Uint8Array chunk, got ${typeof chunk}`)
    },
    end() {
      return run(pendingBytes ? flushBytes() : '')
    },
  }
}
