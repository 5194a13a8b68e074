/**
 * Counters through the OpenTelemetry metrics API (the `meter` option): how
 * often the model leaks, and what was recovered, rejected and removed. Every
 * count is read off the diagnostics an entry point gives out, where its
 * `onDiagnostic` hook is called, so a pipeline counts what it reports: once,
 * after its own decisions.
 *
 * Names and units follow OpenTelemetry's conventions (dotted, lower case,
 * units in UCUM with `{…}` annotations). No attribute ever holds user text or
 * a tool argument: only the diagnostic's kind.
 *
 * `DsmlMeter` is the part of the API's `Meter` this uses, so a `Meter` from
 * `@opentelemetry/api` (an optional peer: nothing here imports it) is one.
 */
import type { Diagnostic } from './types.ts'

/** Attribute values as OpenTelemetry takes them. */
export type MetricAttributes = Record<string, string | number | boolean>

/** The part of OpenTelemetry's `Meter` the library records through: `metrics.getMeter('dsml-streams')` is one. */
export interface DsmlMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): { add(value: number, attributes?: MetricAttributes): void }
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): { record(value: number, attributes?: MetricAttributes): void }
}

/** Diagnostic kinds that mean "a call was written and not made" (with the call's tool named). */
const REJECTIONS: ReadonlySet<Diagnostic['kind']> = new Set(['unknown-tool', 'schema-mismatch', 'suppressed-call', 'duplicate-call'])

export class DiagnosticCounters {
  #leaks
  #recovered
  #rejected
  #removed
  #holdLimit
  #runaways

  constructor(meter: DsmlMeter) {
    this.#leaks = meter.createCounter('dsml.leaks', { description: 'Texts and streams in which leaked DSML markup was found', unit: '{leak}' })
    this.#recovered = meter.createCounter('dsml.calls.recovered', { description: 'Tool calls recovered from leaked markup and emitted', unit: '{call}' })
    this.#rejected = meter.createCounter('dsml.calls.rejected', { description: 'Tool calls written as markup and not emitted, by reason', unit: '{call}' })
    this.#removed = meter.createCounter('dsml.markup.removed', { description: 'Characters of leaked markup removed from the text', unit: '{char}' })
    this.#holdLimit = meter.createCounter('dsml.hold_limit.hits', { description: 'Held markup that passed the hold limit and was removed', unit: '{hit}' })
    this.#runaways = meter.createCounter('dsml.runaways', { description: 'Responses the runaway guard ended', unit: '{response}' })
  }

  /**
   * Counts one diagnostic given out. `firstOfLeak`: the first that shows this
   * text or stream leaked. Removed characters are counted apart (`removed`):
   * a withheld call's diagnostic repeats markup already read.
   */
  count(diagnostic: Diagnostic, firstOfLeak: boolean): void {
    if (firstOfLeak) this.#leaks.add(1)
    const kind = diagnostic.kind
    if (kind === 'recovered-call') this.#recovered.add(1)
    else if (REJECTIONS.has(kind) || (diagnostic.tool !== undefined && diagnostic.text.length > 0)) this.#rejected.add(1, { 'dsml.reason': kind })
    if (kind === 'hold-limit') this.#holdLimit.add(1)
    if (kind === 'runaway-markup' && diagnostic.text === '') this.#runaways.add(1)
  }

  /** Characters of markup removed from the text: removed with a diagnostic, or made into a call. */
  removed(characters: number): void {
    if (characters > 0) this.#removed.add(characters)
  }
}

const countersOf = new WeakMap<DsmlMeter, DiagnosticCounters>()

/** The counters of a meter, made once: every text and stream recording through it shares them. */
export function countersFor(meter: DsmlMeter): DiagnosticCounters {
  if (meter === null || typeof meter !== 'object' || typeof meter.createCounter !== 'function') {
    throw new TypeError('Cannot use option "meter": expected an OpenTelemetry Meter (metrics.getMeter(name))')
  }
  let counters = countersOf.get(meter)
  if (counters === undefined) countersOf.set(meter, (counters = new DiagnosticCounters(meter)))
  return counters
}

/** Does this diagnostic show a leak (markup removed, or a call recovered)? */
export function showsLeak(diagnostic: Diagnostic): boolean {
  return diagnostic.text.length > 0 || diagnostic.kind === 'recovered-call'
}

/**
 * Where one entry point gives its diagnostics out: to the `onDiagnostic`
 * hook, and counted through the `meter` (the first that shows a leak counts
 * the leak); and where it counts the markup it read. One per text or stream.
 */
export class DiagnosticReporter {
  #hook: ((diagnostic: Diagnostic) => void) | undefined
  #counters: DiagnosticCounters | undefined
  #leakSeen = false

  constructor(hook: ((diagnostic: Diagnostic) => void) | undefined, counters: DiagnosticCounters | undefined) {
    this.#hook = hook
    this.#counters = counters
  }

  /** Markup read from the text, as the engine gives it out: a diagnostic's removed text, or a call's source. */
  removed(characters: number): void {
    this.#counters?.removed(characters)
  }

  report(diagnostic: Diagnostic): void {
    const counters = this.#counters
    if (counters !== undefined) {
      const first = !this.#leakSeen && showsLeak(diagnostic)
      if (first) this.#leakSeen = true
      counters.count(diagnostic, first)
    }
    this.#hook?.(diagnostic)
  }
}
