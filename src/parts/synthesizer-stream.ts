/** `ToolCallSynthesizerStream`: parts in, parts out (a thin wrapper over `createToolCallSynthesizer`). */
import type { Part } from './part.ts'
import { createToolCallSynthesizer, type ToolCallSynthesizerOptions } from './synthesizer.ts'
import { ONE_CHUNK_AHEAD } from '../queuing.ts'
import { StandardTransformStream } from '../standard-stream.ts'

export interface ToolCallSynthesizerStreamOptions extends ToolCallSynthesizerOptions {}

/**
 * Settles recovered calls at the finish and writes them as synthesized tool-call parts:
 * `createToolCallSynthesizer` as a stream.
 */
export class ToolCallSynthesizerStream extends StandardTransformStream<Part, Part> {
  constructor(options: ToolCallSynthesizerStreamOptions = {}) {
    const synthesizer = createToolCallSynthesizer(options)
    super({
      transform(part, controller) {
        for (const out of synthesizer.feed(part)) controller.enqueue(out)
      },
      flush(controller) {
        for (const out of synthesizer.end()) controller.enqueue(out)
      },
    }, undefined, ONE_CHUNK_AHEAD)
  }
}
