/**
 * `DsmlPartSanitizerStream`: the part sanitizer as a `TransformStream`.
 * Neutral parts in (a dialect decoder's output), parts out: answer and
 * reasoning text cleaned by one engine each, every other part passed through
 * (see `part-sanitizer.ts` for what resolves held text).
 */
import type { Part } from './part.ts'
import { createDsmlPartSanitizer, type DsmlPartSanitizer, type DsmlPartSanitizerOptions } from './part-sanitizer.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { StandardTransformStream } from '../standard-stream.ts'

export interface DsmlPartSanitizerStreamOptions extends DsmlPartSanitizerOptions {}

/**
 * Neutral parts in, the same with text and reasoning cleaned and recovered calls as `tool-call`
 * parts: `createDsmlPartSanitizer` as a stream.
 *
 * @example
 * ```ts
 * const parts = messages.pipeThrough(new ChatCompletionsDecoderStream()).pipeThrough(new DsmlPartSanitizerStream())
 * ```
 */
export class DsmlPartSanitizerStream extends StandardTransformStream<Part, Part> {
  /** The engines behind the stream, for `noteNativeToolCall` and `heldChars`. */
  readonly sanitizer: DsmlPartSanitizer

  constructor(options: DsmlPartSanitizerStreamOptions = {}) {
    const sanitizer = createDsmlPartSanitizer(options)
    super(
      {
        transform(part, controller) {
          for (const out of sanitizer.feed(part)) controller.enqueue(out)
        },
        flush(controller) {
          for (const out of sanitizer.end()) controller.enqueue(out)
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
    this.sanitizer = sanitizer
  }
}
