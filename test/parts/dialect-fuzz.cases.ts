/**
 * Model and upstream output never throws, in any dialect: random event
 * streams — real event types with fields of the wrong type, missing, null or
 * nested oddly, malformed JSON, comments, markup split anywhere — through
 * the Anthropic and Responses fused cores, read in random pieces. Each run
 * ends without an exception. And the fused shortcut is exact: with and
 * without text-delta shapes, the same bytes and diagnostics for every read
 * pattern — one event per read (text or bytes, where a whole read of the
 * shape skips the SSE parser too), `event:` lines read apart from their
 * data, and random pieces.
 */
import fc from 'fast-check'
import { createResponsesDecoder, createResponsesEncoder, createResponsesRepair } from '../../src/responses/index.ts'
import { createAnthropicDecoder, createAnthropicEncoder, createAnthropicRepair } from '../../src/anthropic/index.ts'
import { anthropicPartOptions } from '../../src/anthropic/repair.ts'
import { responsesPartOptions } from '../../src/responses/repair.ts'
import { ALL_SHORTCUTS, createDialectRepair, type DialectRepair, NO_SHORTCUTS } from '../../src/dialect-kit/dialect-repair.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { propertyRuns } from '../support/runs.ts'

const LEAK = block([invoke('bash', [param('command', 'ls')])])

const odd = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.string({ maxLength: 6 }),
  fc.constant(LEAK.slice(0, 20)),
  fc.constant(LEAK),
  fc.constant([]),
  fc.constant({}),
  fc.constant([null]),
)

const anthropicEvent = fc.oneof(
  fc.record({ type: fc.constant('content_block_start'), index: fc.oneof(fc.nat(3), odd), content_block: fc.oneof(odd, fc.record({ type: fc.constantFrom('text', 'thinking', 'tool_use', 'server_tool_use', 'other'), text: odd, id: odd, name: odd, input: odd })) }),
  fc.record({ type: fc.constant('content_block_delta'), index: fc.oneof(fc.nat(3), odd), delta: fc.oneof(odd, fc.record({ type: fc.constantFrom('text_delta', 'thinking_delta', 'input_json_delta', 'signature_delta'), text: fc.oneof(fc.constantFrom(LEAK.slice(0, 7), LEAK.slice(7), 'a <'), odd), thinking: odd, partial_json: odd })) }),
  fc.record({ type: fc.constant('content_block_stop'), index: fc.oneof(fc.nat(3), odd) }),
  fc.record({ type: fc.constant('message_delta'), delta: fc.oneof(odd, fc.record({ stop_reason: fc.oneof(fc.constantFrom('end_turn', 'tool_use', 'max_tokens'), odd) })), usage: odd }),
  fc.record({ type: fc.constantFrom('message_stop', 'ping', 'error', 'message_start', 'mystery') }),
)

const responsesEvent = fc.oneof(
  fc.record({ type: fc.constantFrom('response.output_text.delta', 'response.reasoning_summary_text.delta', 'response.function_call_arguments.delta'), item_id: fc.oneof(fc.constant('m'), odd), output_index: fc.oneof(fc.nat(2), odd), content_index: fc.oneof(fc.nat(1), odd), delta: fc.oneof(fc.constantFrom(LEAK.slice(0, 9), LEAK.slice(9), '<'), odd) }),
  fc.record({ type: fc.constantFrom('response.output_text.done', 'response.content_part.done', 'response.content_part.added', 'response.reasoning_summary_text.done'), item_id: fc.oneof(fc.constant('m'), odd), output_index: fc.oneof(fc.nat(2), odd), content_index: fc.oneof(fc.nat(1), odd), text: odd, part: odd }),
  fc.record({ type: fc.constantFrom('response.output_item.added', 'response.output_item.done'), output_index: fc.oneof(fc.nat(2), odd), item: fc.oneof(odd, fc.record({ type: fc.constantFrom('message', 'reasoning', 'function_call', 'custom_tool_call'), id: odd, call_id: odd, name: odd, arguments: odd, content: odd, summary: odd })) }),
  fc.record({ type: fc.constantFrom('response.completed', 'response.incomplete', 'response.failed'), response: fc.oneof(odd, fc.record({ status: odd, output: odd, incomplete_details: odd })) }),
  fc.record({ type: fc.constantFrom('error', 'response.created', 'response.mystery') }),
)

/** Text deltas that are mostly plain (non-ASCII, escapes, a tab), now and then markup or a `<`. */
const deltaText = fc.constantFrom('hello', ' world', ' é — ü 漢字', 'tab\there', 'q"uote\\', '😀', LEAK.slice(0, 9), LEAK.slice(9), ' <')

/** Now and then a field that nests the text's own key again (the shape must be cut at the text the decoder read). */
const echo = (key: string): fc.Arbitrary<Record<string, string> | undefined> => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.record({ [key]: deltaText }) })
const anthropicDelta = fc.record({ type: fc.constant('content_block_delta'), index: fc.constantFrom(0, 0, 0, 1), delta: fc.record({ type: fc.constant('text_delta'), text: deltaText }), meta: echo('text') })
const responsesDelta = fc.record({ type: fc.constant('response.output_text.delta'), item_id: fc.constant('m'), output_index: fc.constant(0), content_index: fc.constant(0), delta: deltaText, logprobs: fc.constant([]), meta: echo('delta') })

/** Events as SSE text, now and then malformed JSON or a comment, with or without the event name. */
function sse(events: Array<Record<string, unknown>>, named: boolean[]): string {
  return events
    .map((event, index) => {
      if (index % 7 === 6) return ': keep-alive\n\n'
      if (index % 11 === 10) return 'data: {"type":\n\n'
      const data = `data: ${JSON.stringify(event)}\n\n`
      return named[index] === true ? `event: ${String(event.type)}\n${data}` : data
    })
    .join('')
}

function runPieces(repair: { feed(chunk: string): string | undefined; text(): string; end(): string }, text: string, cuts: number[]): string {
  let out = ''
  let previous = 0
  for (const cut of [...new Set(cuts.map((at) => at % (text.length + 1)))].sort((a, b) => a - b)) {
    out += repair.feed(text.slice(previous, cut)) ?? repair.text()
    previous = cut
  }
  out += repair.feed(text.slice(previous)) ?? repair.text()
  return out + repair.end()
}

/** Numbers the events that carry `sequence_number` (Responses), so most come in step. */
function numbered(events: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return events.map((event, index) => (typeof event.type === 'string' && event.type.startsWith('response.') ? { ...event, sequence_number: index } : event))
}

const UTF8 = new TextEncoder()

/** Each read through the core; a read that comes out as it came is its own text. */
function runReads(repair: DialectRepair, reads: ReadonlyArray<string | Uint8Array>): string {
  let out = ''
  for (const read of reads) out += repair.feed(read) ?? repair.text()
  return out + repair.end()
}

export const suite = defineSuite('parts/dialect-fuzz', (test) => {
  for (const [name, make, arbitrary] of [
    ['Anthropic Messages', (shapes: boolean, onDiagnostic: (diagnostic: unknown) => void) => createDialectRepair(createAnthropicDecoder(), createAnthropicEncoder(), anthropicPartOptions({ recoverOnTruncation: true, generateId: () => 'toolu_x', onDiagnostic }), {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS), fc.oneof({ weight: 4, arbitrary: anthropicDelta }, { weight: 1, arbitrary: anthropicEvent })],
    ['OpenAI Responses', (shapes: boolean, onDiagnostic: (diagnostic: unknown) => void) => createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), responsesPartOptions({ recoverOnTruncation: true, generateId: () => 'call_x', onDiagnostic }), {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS), fc.oneof({ weight: 4, arbitrary: responsesDelta }, { weight: 1, arbitrary: responsesEvent })],
  ] as const) {
    test(`${name}: text-delta shapes are exact — with and without them, the same bytes and diagnostics, one event per read as text or bytes, event lines read apart, and random pieces`, () => {
      fc.assert(
        fc.property(fc.array(arbitrary as fc.Arbitrary<Record<string, unknown>>, { maxLength: 30 }), fc.array(fc.boolean(), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (events, named, cuts) => {
          const text = sse(numbered(events), named)
          const perEvent = text.split(/(?<=\n\n)/)
          // An event's `event:` line in a read of its own: the data line after it reads like an unnamed event.
          const eventLinesApart = text.split(/(?<=\n\n|^event: [^\n]*\n)/m)
          const run = (shapes: boolean, pattern: 'text' | 'bytes' | 'event lines apart' | 'pieces'): { output: string; diagnostics: unknown[] } => {
            const diagnostics: unknown[] = []
            const repair = make(shapes, (diagnostic) => diagnostics.push(diagnostic))
            const reads = pattern === 'text' ? perEvent : pattern === 'bytes' ? perEvent.map((event) => UTF8.encode(event)) : eventLinesApart
            const output = pattern === 'pieces' ? runPieces(repair, text, cuts) : runReads(repair, reads)
            return { output, diagnostics }
          }
          for (const pattern of ['text', 'bytes', 'event lines apart', 'pieces'] as const) assertEqual(run(true, pattern), run(false, pattern), pattern)
        }),
        { numRuns: propertyRuns(300) },
      )
    })
  }

  for (const [name, make, arbitrary] of [
    ['Anthropic Messages', () => createAnthropicRepair({ recoverOnTruncation: true }), anthropicEvent],
    ['OpenAI Responses', () => createResponsesRepair({ recoverOnTruncation: true }), responsesEvent],
  ] as const) {
    test(`${name}: random, odd event streams read in random pieces never throw`, () => {
      fc.assert(
        fc.property(fc.array(arbitrary as fc.Arbitrary<Record<string, unknown>>, { maxLength: 24 }), fc.array(fc.boolean(), { maxLength: 24 }), fc.array(fc.nat(), { maxLength: 8 }), (events, named, cuts) => {
          const out = runPieces(make(), sse(events, named), cuts)
          assert(typeof out === 'string', 'a string comes out')
        }),
        { numRuns: propertyRuns(400) },
      )
    })
  }
})
