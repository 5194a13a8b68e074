/**
 * `DsmlSanitizerStream`: the engine as a `TransformStream` — strings in,
 * sanitizer events out. A thin wrapper: the core does the work.
 */
import type { DsmlSanitizerOptions } from './options.ts'
import { createDsmlSanitizer } from './sanitizer.ts'
import type { DsmlSanitizer, SanitizerEvent } from './types.ts'

export interface DsmlSanitizerStreamOptions extends DsmlSanitizerOptions {}

/**
 * @example
 * ```ts
 * const events = textStream.pipeThrough(new DsmlSanitizerStream({ knownTools: ['bash'] }))
 * ```
 */
export class DsmlSanitizerStream extends TransformStream<string, SanitizerEvent> {
  /** The engine, for `noteNativeToolCall` and `heldChars`. */
  readonly sanitizer: DsmlSanitizer

  constructor(options: DsmlSanitizerStreamOptions = {}) {
    const sanitizer = createDsmlSanitizer(options)
    super({
      transform(chunk, controller) {
        for (const event of sanitizer.feed(chunk)) controller.enqueue(event)
      },
      flush(controller) {
        for (const event of sanitizer.end()) controller.enqueue(event)
      },
    })
    this.sanitizer = sanitizer
  }
}
