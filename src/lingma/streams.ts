/**
 * The Lingma dialect as streams: `LingmaToChatCompletionsStream` (a Lingma
 * upstream body in, repaired Chat Completions SSE bytes out) and
 * `LingmaDecoderStream` (a Lingma body → neutral parts, for composed chains).
 */
import type { Part } from '../parts/part.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { createLingmaDecoder, type LingmaDecoderOptions } from './decoder.ts'
import { createLingmaToChatCompletions, type LingmaToChatCompletionsOptions } from './to-chat-completions.ts'
import { StandardTransformStream } from '../standard-stream.ts'

/** Stateless, so every stream shares one. */
const ENCODER = new TextEncoder()

/**
 * A Lingma SSE body in, repaired Chat Completions SSE bytes out: `createLingmaToChatCompletions` as
 * a stream.
 *
 * @example
 * ```ts
 * const upstream = await fetch(lingmaUrl, { method: 'POST', headers, body })
 * return new Response(upstream.body!.pipeThrough(new LingmaToChatCompletionsStream({ knownTools: ['bash'] })), {
 *   headers: { 'content-type': 'text/event-stream' },
 * })
 * ```
 */
export class LingmaToChatCompletionsStream extends StandardTransformStream<string | Uint8Array, Uint8Array> {
  constructor(options: LingmaToChatCompletionsOptions = {}) {
    const converter = createLingmaToChatCompletions(options)
    super(
      {
        transform(chunk, controller) {
          const text = converter.feed(chunk)
          if (text.length > 0) controller.enqueue(ENCODER.encode(text))
          // A runaway ended the message: the readable side closes, and the writable side errors, which cancels a piped upstream.
          if (converter.stopped) controller.terminate()
        },
        flush(controller) {
          const text = converter.end()
          if (text.length > 0) controller.enqueue(ENCODER.encode(text))
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
  }
}

/** A Lingma SSE body (bytes or text) in, neutral parts out: `createLingmaDecoder` as a stream. */
export class LingmaDecoderStream extends StandardTransformStream<string | Uint8Array, Part> {
  constructor(options: LingmaDecoderOptions = {}) {
    const decoder = createLingmaDecoder(options)
    super(
      {
        transform(chunk, controller) {
          for (const part of decoder.feed(chunk)) controller.enqueue(part)
        },
        flush(controller) {
          for (const part of decoder.end()) controller.enqueue(part)
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
  }
}
