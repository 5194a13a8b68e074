/**
 * Shared oracles for the DSML engine suites: run one input through every
 * public entry point (sanitizeText, parseDsml, the incremental engine) and
 * check that they agree with each other before a case checks its own
 * expectations.
 */
import { parseDsml, sanitizeText } from '../../src/dsml/index.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import type { Diagnostic, DiagnosticKind, SanitizerEvent, ToolCall } from '../../src/dsml/types.ts'
import { assert, assertEqual } from './assert.ts'
import { assertChunkInvariant, callsOf, normalizeEvents, reassemble, runChunks, textOf } from './chunking.ts'
import { leaksMarkup } from './dsml-builders.ts'

export type Range = [start: number, end: number]

export interface CallShape {
  name: string
  arguments: Record<string, unknown>
}

/** A call without its id. */
export function shapeOf(call: ToolCall): CallShape {
  return { name: call.name, arguments: { ...call.arguments } }
}

export function shapesOf(calls: readonly ToolCall[]): CallShape[] {
  return calls.map(shapeOf)
}

/** `input` with `ranges` cut out. */
export function removeRanges(input: string, ranges: readonly Range[]): string {
  let out = ''
  let at = 0
  for (const [start, end] of ranges) {
    out += input.slice(at, start)
    at = end
  }
  return out + input.slice(at)
}

/** Ranges are sorted, in bounds, non-empty, and merged (no two touch or overlap). */
export function assertWellFormedRanges(ranges: readonly Range[], length: number): void {
  let previousEnd = -1
  for (const range of ranges) {
    assert(Array.isArray(range) && range.length === 2, `range ${JSON.stringify(range)} is not a [start, end] pair`)
    const [start, end] = range
    assert(Number.isInteger(start) && Number.isInteger(end), `range ${JSON.stringify(range)} has non-integer bounds`)
    assert(start >= 0 && end <= length, `range ${JSON.stringify(range)} is outside the input (length ${length})`)
    assert(start < end, `range ${JSON.stringify(range)} is empty or reversed`)
    assert(start > previousEnd, `range ${JSON.stringify(range)} touches or overlaps the previous one (ranges must be sorted and merged)`)
    previousEnd = end
  }
}

export function diagnosticsOf(events: readonly SanitizerEvent[]): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const event of events) if (event.type === 'diagnostic') out.push(event.diagnostic)
  return out
}

export function kindsOf(diagnostics: readonly Diagnostic[]): DiagnosticKind[] {
  return diagnostics.map((diagnostic) => diagnostic.kind)
}

/** A diagnostic without its free-text message. */
export function essentials(diagnostic: Diagnostic): { kind: DiagnosticKind; text: string; tool: string | undefined } {
  return { kind: diagnostic.kind, text: diagnostic.text, tool: diagnostic.tool }
}

export interface Outcome {
  input: string
  text: string
  calls: CallShape[]
  rawCalls: ToolCall[]
  diagnostics: Diagnostic[]
  ranges: Range[]
  events: SanitizerEvent[]
}

/**
 * Runs `input` through sanitizeText, parseDsml and the engine fed once, and
 * asserts what must hold for every input:
 * - conservation: text + call sources + diagnostic texts, in order, is the input;
 * - sanitizeText is the engine fed once (same text, calls, diagnostics);
 * - parseDsml agrees on the calls, its ranges are well formed, and the input
 *   minus its ranges is exactly sanitizeText's text;
 * - chunk invariance: whole, every two-way split and one code point at a
 *   time give the same normalised events (skip with `chunked = false`).
 */
export function analyse(input: string, options: DsmlSanitizerOptions = {}, chunked = true): Outcome {
  const whole = sanitizeText(input, options)
  const parsed = parseDsml(input, options)
  const events = runChunks([input], options)
  assertEqual(reassemble(events), input, 'conservation: text + call sources + diagnostic texts must rebuild the input')
  assertEqual(textOf(events), whole.text, 'sanitizeText text differs from the engine fed the whole input once')
  assertEqual(callsOf(events), shapesOf(whole.calls), 'sanitizeText calls differ from the engine fed once')
  // Messages are free text (they may name call ids), so compare kind, text and tool only.
  assertEqual(
    diagnosticsOf(normalizeEvents(events)).map(essentials),
    whole.diagnostics.map(essentials),
    'sanitizeText diagnostics differ from the engine fed once',
  )
  assertEqual(shapesOf(parsed.calls), shapesOf(whole.calls), 'parseDsml calls differ from sanitizeText calls')
  assertWellFormedRanges(parsed.ranges, input.length)
  assertEqual(removeRanges(input, parsed.ranges), whole.text, 'input minus parseDsml ranges differs from sanitizeText text')
  if (chunked) assertChunkInvariant(input, options, assertEqual)
  for (const call of whole.calls) {
    assert(typeof call.id === 'string' && call.id.length > 0, `call ${call.name} has no id`)
  }
  return {
    input,
    text: whole.text,
    calls: shapesOf(whole.calls),
    rawCalls: whole.calls,
    diagnostics: whole.diagnostics,
    ranges: parsed.ranges as Range[],
    events,
  }
}

export interface Expectation {
  calls: CallShape[]
  /** Exact output text. */
  text?: string
  /** Output text compared after `trimEnd()` on both sides. */
  textTrimmed?: string
  /** Exact parseDsml ranges. */
  ranges?: Range[]
  /** Diagnostic kinds that must appear (at least once each). */
  diagnostics?: DiagnosticKind[]
  /** The output may legitimately hold markup (code fences). */
  allowMarkupInText?: boolean
}

/** `analyse` plus the case's own expectations. */
export function expectOutcome(input: string, expected: Expectation, options: DsmlSanitizerOptions = {}): Outcome {
  const outcome = analyse(input, options)
  assertEqual(outcome.calls, expected.calls, 'calls')
  if (expected.text !== undefined) assertEqual(outcome.text, expected.text, 'text')
  if (expected.textTrimmed !== undefined) assertEqual(outcome.text.trimEnd(), expected.textTrimmed.trimEnd(), 'text (trimEnd)')
  if (expected.ranges !== undefined) assertEqual(outcome.ranges, expected.ranges, 'ranges')
  for (const kind of expected.diagnostics ?? []) {
    assert(outcome.diagnostics.some((diagnostic) => diagnostic.kind === kind), `expected a ${kind} diagnostic, got ${JSON.stringify(kindsOf(outcome.diagnostics))}`)
  }
  if (!expected.allowMarkupInText) assert(!leaksMarkup(outcome.text), `markup leaked into the output text: ${JSON.stringify(outcome.text)}`)
  return outcome
}

/** The single range covering all of `input`. */
export function whole(input: string): Range[] {
  return [[0, input.length]]
}

/** The range of `part`, found at its first occurrence in `input` at or after `from`. */
export function rangeOf(input: string, part: string, from = 0): Range {
  const start = input.indexOf(part, from)
  assert(start >= 0, `test bug: ${JSON.stringify(part.slice(0, 40))} not found in input`)
  return [start, start + part.length]
}
