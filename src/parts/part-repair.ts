/**
 * `createPartRepair`: the one pipeline every entry point runs once its input
 * is translated into parts — the part sanitizer (one engine per channel),
 * then the synthesizer (recovered calls held until the finish and decided by
 * `settleRecoveredCalls`). The fused Chat Completions stream, the JSON
 * response, and the AI SDK middleware's stream and generate paths all drive
 * it; only the translation of shapes differs between them.
 *
 * Parts go out through the sink as soon as they are known. The sink may also
 * watch each recovered call on its way from the sanitizer to the settlement
 * (the AI SDK reports which part a call came from).
 */
import type { Channel, Part } from './part.ts'
import { createDsmlPartSanitizer, type DsmlPartSanitizer, type DsmlPartSanitizerOptions } from './part-sanitizer.ts'
import { createToolCallSynthesizer, type ToolCallSynthesizer, type ToolCallSynthesizerOptions } from './synthesizer.ts'

export interface PartRepairOptions extends DsmlPartSanitizerOptions, ToolCallSynthesizerOptions {}

export type RecoveredCallPart = Extract<Part, { type: 'tool-call' }>

export interface PartRepairSink {
  /** Every part the pipeline gives out, in order. */
  emit(part: Part): void
  /** A call recovered from markup, before the settlement decides it. */
  recovered?(part: RecoveredCallPart): void
}

export interface PartRepair {
  feed(part: Part): void
  /** Both channels interrupted (`DsmlPartSanitizer.flush`). */
  flush(): void
  /** The channel's text ends (`DsmlPartSanitizer.endChannel`). */
  endChannel(channel: Channel): void
  /** End of input: both channels resolved (closed by a `chunk-end`), calls without a finish settled. */
  end(): void
  /** The sanitizer would pass a plain answer-text part through and stay as it is (`DsmlPartSanitizer.idle`). */
  readonly idle: boolean
}

export function createPartRepair(options: PartRepairOptions, sink: PartRepairSink): PartRepair {
  return new Repair(options, sink)
}

/** A class, so that one per open stream pays for its fields only and every instance shares one map. */
class Repair implements PartRepair {
  #sanitizer: DsmlPartSanitizer
  #synthesizer: ToolCallSynthesizer
  #sink: PartRepairSink

  constructor(options: PartRepairOptions, sink: PartRepairSink) {
    // The engines report nothing: what the pipeline gives out is reported once, after the settlement decided it.
    const hook = options.onDiagnostic
    this.#sanitizer = createDsmlPartSanitizer(hook === undefined ? options : { ...options, onDiagnostic: undefined })
    this.#synthesizer = createToolCallSynthesizer(options)
    this.#sink =
      hook === undefined
        ? sink
        : {
            emit(part) {
              if (part.type === 'diagnostic') hook(part.diagnostic)
              sink.emit(part)
            },
            ...(sink.recovered === undefined ? {} : { recovered: (part: RecoveredCallPart) => sink.recovered!(part) }),
          }
  }

  feed(part: Part): void {
    this.#settle(this.#sanitizer.feed(part))
  }

  flush(): void {
    this.#settle(this.#sanitizer.flush())
  }

  endChannel(channel: Channel): void {
    this.#settle(this.#sanitizer.endChannel(channel))
  }

  end(): void {
    this.#settle(this.#sanitizer.end())
    for (const part of this.#synthesizer.end()) this.#sink.emit(part)
  }

  get idle(): boolean {
    return this.#sanitizer.idle
  }

  #settle(parts: readonly Part[]): void {
    const sink = this.#sink
    for (const part of parts) {
      for (const next of this.#synthesizer.feed(part)) sink.emit(next)
      // After the synthesizer took it: its call then has the id it is emitted and reported under.
      if (part.type === 'tool-call') sink.recovered?.(part)
    }
  }
}
