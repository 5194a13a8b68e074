/**
 * `DsmlSanitizerStream`: the engine as a `TransformStream`.
 *
 * - Strings in → sanitizer events out (`text`, `tool-call`, `diagnostic`).
 * - Neutral parts in (from a dialect decoder) → parts out: answer and
 *   reasoning text cleaned by one engine each, everything else passed
 *   through after the held text is resolved (see `part-sanitizer.ts`).
 */
import type { Part } from '../parts.ts'
import type { DsmlSanitizerOptions } from './options.ts'
import { createDsmlPartSanitizer, type DsmlPartSanitizer } from './part-sanitizer.ts'
import type { SanitizerEvent } from './types.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'

export interface DsmlSanitizerStreamOptions extends DsmlSanitizerOptions {}

/** What the stream emits for its input type. */
export type DsmlSanitizerStreamOutput<Input> = [Input] extends [string] ? SanitizerEvent : Part

/**
 * @example
 * ```ts
 * const events = textDeltas.pipeThrough(new DsmlSanitizerStream({ knownTools: ['bash'] }))
 * ```
 */
export class DsmlSanitizerStream<Input extends string | Part = string> extends TransformStream<
  Input,
  DsmlSanitizerStreamOutput<Input>
> {
  /** The engines behind the stream, for `noteNativeToolCall` and `heldChars`. */
  readonly sanitizer: DsmlPartSanitizer

  constructor(options: DsmlSanitizerStreamOptions = {}) {
    const sanitizer = createDsmlPartSanitizer(options)
    let sawParts = false
    super({
      transform(chunk, controller) {
        let part: Part
        if (typeof chunk === 'string') {
          part = { type: 'text', text: chunk }
        } else {
          part = chunk
          sawParts = true
        }
        for (const out of sanitizer.feed(part)) controller.enqueue(out as DsmlSanitizerStreamOutput<Input>)
      },
      flush(controller) {
        const rest = sanitizer.end()
        for (const out of rest) controller.enqueue(out as DsmlSanitizerStreamOutput<Input>)
        // Parts downstream are written per chunk: close what was resolved at the end.
        if (sawParts && rest.length > 0) controller.enqueue({ type: 'chunk-end' } as DsmlSanitizerStreamOutput<Input>)
      },
    }, undefined, ONE_CHUNK_AHEAD)
    this.sanitizer = sanitizer
  }
}
