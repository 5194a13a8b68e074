/**
 * The `Transformer`s behind every dialect's streams, so each stream class is
 * its constructor only: a fused repair core (strings or bytes in, UTF-8 SSE
 * bytes out; a read that comes out as it came is forwarded as its own
 * bytes), a decoder (SSE messages → parts) and an encoder (parts → SSE
 * messages).
 */
import type { Part } from '../parts/part.ts'
import type { DialectRepair } from './dialect-repair.ts'
import type { SseMessage } from '../sse/types.ts'
import type { StageTransformer } from '../standard-stream.ts'


/** Stateless, so every stream shares one. */
const ENCODER = new TextEncoder()

export function repairTransformer(core: DialectRepair): StageTransformer<string | Uint8Array, Uint8Array> {
  return {
    transform(chunk, controller) {
      const text = core.feed(chunk)
      // A read that comes out as it came is forwarded as it came: the same bytes, not encoded again.
      if (text === undefined) controller.enqueue(typeof chunk === 'string' ? ENCODER.encode(chunk) : chunk)
      else if (text.length > 0) controller.enqueue(ENCODER.encode(text))
      // A runaway ended the message: the readable side closes, and the writable side errors, which cancels a piped upstream.
      if (core.stopped) controller.terminate()
    },
    flush(controller) {
      const text = core.end()
      if (text.length > 0) controller.enqueue(ENCODER.encode(text))
    },
  }
}

export function decoderTransformer(decoder: { feed(message: SseMessage): Part[] }): StageTransformer<SseMessage, Part> {
  return {
    transform(message, controller) {
      for (const part of decoder.feed(message)) controller.enqueue(part)
    },
  }
}

export function encoderTransformer(encoder: { feed(part: Part): SseMessage[]; end(): SseMessage[] }): StageTransformer<Part, SseMessage> {
  return {
    transform(part, controller) {
      for (const message of encoder.feed(part)) controller.enqueue(message)
    },
    flush(controller) {
      for (const message of encoder.end()) controller.enqueue(message)
    },
  }
}
