/**
 * `DsmlSanitizerStream`: the engine as a `TransformStream` over text. Strings
 * in, sanitizer events out (`text`, `tool-call`, `diagnostic`). For neutral
 * parts (a dialect decoder's output) use `DsmlPartSanitizerStream`.
 */
import type { DsmlSanitizerOptions } from './options.ts'
import { createDsmlSanitizer } from './sanitizer.ts'
import type { DsmlSanitizer, SanitizerEvent } from './types.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { StandardTransformStream } from '../standard-stream.ts'

export interface DsmlSanitizerStreamOptions extends DsmlSanitizerOptions {}

/**
 * The engine as a stream: text deltas in, `SanitizerEvent`s out (clean text as soon as it is known,
 * recovered calls, diagnostics).
 *
 * @example
 * ```ts
 * const events = textDeltas.pipeThrough(new DsmlSanitizerStream({ knownTools: ['bash'] }))
 * ```
 */
export class DsmlSanitizerStream extends StandardTransformStream<string, SanitizerEvent> {
  /** The engine behind the stream, for `noteNativeToolCall` and `heldChars`. */
  readonly sanitizer: DsmlSanitizer

  constructor(options: DsmlSanitizerStreamOptions = {}) {
    const sanitizer = createDsmlSanitizer(options)
    super(
      {
        transform(chunk, controller) {
          for (const event of sanitizer.feed(chunk)) controller.enqueue(event)
        },
        flush(controller) {
          for (const event of sanitizer.end()) controller.enqueue(event)
        },
      },
      undefined,
      ONE_CHUNK_AHEAD,
    )
    this.sanitizer = sanitizer
  }
}
