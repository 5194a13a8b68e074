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
  const maxBufferSize = options.maxBufferSize ?? DEFAULT_MAX_SSE_BUFFER
  if (!Number.isInteger(maxBufferSize) || maxBufferSize < 1) {
    throw new TypeError(`Cannot use option "maxBufferSize": expected a positive integer, got ${String(options.maxBufferSize)}`)
  }
  const keepComments = options.comments ?? true
  const decoder = new TextDecoder()
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

  function run(text: string): SseMessage[] {
    if (failure) throw failure
    out = []
    if (text.length > 0) parser.feed(text)
    if (failure) throw failure
    return out
  }

  return {
    feed(chunk) {
      if (typeof chunk === 'string') return run(chunk)
      if (chunk instanceof Uint8Array) return run(decoder.decode(chunk, { stream: true }))
      throw new TypeError(`Cannot decode SSE: expected a string or Uint8Array chunk, got ${typeof chunk}`)
    },
    end() {
      return run(decoder.decode())
    },
  }
}
