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
import { countersFor, DiagnosticReporter } from '../dsml/diagnostic-counters.ts'
import type { Channel, Part } from './part.ts'
import { createDsmlPartSanitizerCore, type DsmlPartSanitizerCore, type DsmlPartSanitizerOptions } from './part-sanitizer.ts'
import { createToolCallSynthesizer, type ToolCallSynthesizer, type ToolCallSynthesizerOptions } from './synthesizer.ts'

export interface PartRepairOptions extends DsmlPartSanitizerOptions, ToolCallSynthesizerOptions {
  /** The finish reason that means "cut short by the length limit": a runaway (`runawayRepeat`) ends the message with it. @default 'length' */
  lengthFinishReason?: string
}

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
  /**
   * Would an answer-text part of `text`, fed now, come out as it is and
   * alone (the sanitizer passes it: `DsmlPartSanitizerCore.passesAsItIs`;
   * the synthesizer passes any text part)? Changes nothing.
   */
  passesAsItIs(text: string): boolean
  /** An answer text `passesAsItIs` just accepted went by as it is, not fed: the pipeline reads it as it would its part. */
  passedText(text: string): void
  /**
   * The runaway guard stopped the message (`runawayRepeat`): it was ended
   * with a `length` finish and the terminator, and nothing fed from now on
   * comes out. The upstream should be cancelled.
   */
  readonly stopped: boolean
}

export function createPartRepair(options: PartRepairOptions, sink: PartRepairSink): PartRepair {
  return new Repair(options, sink)
}

/** A class, so that one per open stream pays for its fields only and every instance shares one map. */
class Repair implements PartRepair {
  #sanitizer: DsmlPartSanitizerCore
  #synthesizer: ToolCallSynthesizer
  #sink: PartRepairSink
  #lengthFinishReason: string
  #stopped = false
  /** Where diagnostics go out (`onDiagnostic`, `meter`), when anything listens. */
  #reporter: DiagnosticReporter | undefined = undefined

  constructor(options: PartRepairOptions, sink: PartRepairSink) {
    // The engines report nothing: what the pipeline gives out is reported once, after the settlement decided it.
    const { onDiagnostic: hook, meter } = options
    const reports = hook !== undefined || meter !== undefined
    this.#sanitizer = createDsmlPartSanitizerCore(reports ? { ...options, onDiagnostic: undefined, meter: undefined } : options)
    this.#synthesizer = createToolCallSynthesizer(options)
    this.#lengthFinishReason = options.lengthFinishReason ?? 'length'
    if (!reports) {
      this.#sink = sink
    } else {
      const reporter = new DiagnosticReporter(hook, meter === undefined ? undefined : countersFor(meter))
      this.#reporter = reporter
      this.#sink = {
        emit(part) {
          if (part.type === 'diagnostic') reporter.report(part.diagnostic)
          sink.emit(part)
        },
        ...(sink.recovered === undefined ? {} : { recovered: (part: RecoveredCallPart) => sink.recovered!(part) }),
      }
    }
  }

  feed(part: Part): void {
    if (!this.#stopped) this.#settle(this.#sanitizer.feed(part))
  }

  flush(): void {
    if (!this.#stopped) this.#settle(this.#sanitizer.flush())
  }

  endChannel(channel: Channel): void {
    if (!this.#stopped) this.#settle(this.#sanitizer.endChannel(channel))
  }

  end(): void {
    if (this.#stopped) return
    this.#settle(this.#sanitizer.end())
    for (const part of this.#synthesizer.end()) this.#sink.emit(part)
  }

  get idle(): boolean {
    return this.#sanitizer.idle
  }

  passesAsItIs(text: string): boolean {
    return !this.#stopped && this.#sanitizer.passesAsItIs(text)
  }

  passedText(text: string): void {
    this.#sanitizer.passedText(text)
  }

  get stopped(): boolean {
    return this.#stopped
  }

  #settle(parts: readonly Part[]): void {
    const sink = this.#sink
    for (const part of parts) {
      if (this.#stopped) return
      this.#countRead(part)
      for (const next of this.#synthesizer.feed(part)) sink.emit(next)
      // After the synthesizer took it: its call then has the id it is emitted and reported under.
      if (part.type === 'tool-call') sink.recovered?.(part)
      if (part.type === 'diagnostic' && part.diagnostic.kind === 'runaway-markup' && part.diagnostic.text === '') this.#stop()
    }
  }

  /** A runaway: the message ends here, cut short, as a length limit ends it (calls held are settled so: withheld). */
  #stop(): void {
    this.#stopped = true
    // The finish ends both channels first: text the other channel held comes out before it.
    const ending = [...this.#sanitizer.feed({ type: 'finish', reason: this.#lengthFinishReason }), { type: 'done' } as const, { type: 'chunk-end' } as const]
    for (const part of ending) {
      this.#countRead(part)
      for (const next of this.#synthesizer.feed(part)) this.#sink.emit(next)
    }
  }

  /** The markup read, as the engines give it out (the settlement's diagnostics repeat a withheld call's): counted once, here. */
  #countRead(part: Part): void {
    if (part.type === 'tool-call') this.#reporter?.removed(part.source.length)
    else if (part.type === 'diagnostic') this.#reporter?.removed(part.diagnostic.text.length)
  }
}
