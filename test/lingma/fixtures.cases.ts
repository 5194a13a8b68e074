/**
 * Every stream fixture of lingma-fixtures.json, replayed as it says through
 * `createLingmaToChatCompletions` and read as a Chat Completions client
 * reads it: whole, one fixture read per feed, and split at every byte offset
 * (all fixtures are small, so every offset of every one), with the same
 * bytes out each way and no markup in the text.
 *
 * Replay: `sse_stream` raw bodies as they are; `sse_chunks` one line per
 * read; `sse_frame` payloads as a bare line; `content_chunks` (delta.content
 * strings of the Go sanitizer's tests) one frame each, the frame carrying a
 * native call when the fixture is in native mode, then `[DONE]`. Textual
 * `<tool_call>` markup has no DSML marker, so our engine recovers it only
 * for declared tools: the replay declares the tools the request would.
 */
import fixtures from './fixtures/lingma-fixtures.json' with { type: 'json' }
import { createThoughtTagSplitter } from '../../src/lingma/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import { assertEverySplitGivesTheSame, assertNoMarkup, type ClientView, convertReads, frame, NATIVE_CALL, readClientView, testOptions } from './support.ts'

interface Fixture {
  id: string
  kind: string
  raw?: string
  chunks?: string[]
  expected: Record<string, any>
}

const DECLARED = { knownTools: ['read_file', 'xml_tool', 'native_tool', 'search', 'get_weather'] }
const options = () => testOptions(DECLARED)
const NATIVE_MODE = new Set(['lingma_tap_native_mode_strips_without_recovery'])

/** The reads a fixture is replayed as. */
function readsOf(fixture: Fixture): string[] {
  switch (fixture.kind) {
    case 'sse_stream':
      return [fixture.raw!]
    case 'sse_chunks':
      return fixture.chunks!.map((chunk) => `${chunk}\n\n`)
    case 'sse_frame':
      return [`${fixture.raw!}\n`, 'data: [DONE]\n']
    case 'content_chunks': {
      const reads: string[] = []
      if (fixture.expected.initial_in_thought === true) reads.push(frame({ content: '<thought>' }))
      fixture.chunks!.forEach((chunk, index) => {
        const native = NATIVE_MODE.has(fixture.id) || (fixture.id === 'lingma_tap_native_mode_clears_pending_hold' && index === 1)
        reads.push(frame(native ? { content: chunk, tool_calls: [NATIVE_CALL] } : { content: chunk }))
      })
      reads.push('data: [DONE]\n\n')
      return reads
    }
    default:
      throw new Error(`fixture ${fixture.id}: unknown kind ${fixture.kind}`)
  }
}

const textOfRead = (sse: string): string => readClientView(sse).text
const callsWithoutIds = (view: ClientView) => view.calls.map(({ name, arguments: args }) => ({ name, arguments: JSON.parse(args) as unknown }))
const expectedCalls = (calls: { name: string; arguments?: string; arguments_derived?: string }[]) =>
  calls.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments ?? call.arguments_derived ?? '{}') as unknown }))
const eof = (view: ClientView) => view.errors.length === 1 && view.errors[0]!.code === 'unexpected_eof' && !view.done

/** What each fixture asserts, in our terms; `perRead` is the output of each read (then of `end()`). */
const CHECKS: Record<string, (view: ClientView, perRead: string[], fixture: Fixture) => void> = {
  lingmawire_tool_call_stream(view, _perRead, fixture) {
    const [call] = fixture.expected.calls_assembled_derived
    assertEqual(view.calls, [{ index: call.index, id: call.id, name: call.name, arguments: call.arguments }])
    assertEqual(view.text, fixture.expected.clean_text)
    assertEqual(view.finishReasons, ['tool_calls'], '[DONE] with no finish_reason after a native call finishes as tool_calls')
    assert(view.done, 'done')
  },
  lingma_tap_chatstream_basic(view, _perRead, fixture) {
    assertEqual(view.text, fixture.expected.clean_text)
    assertEqual(view.finishReasons, [fixture.expected.finish_reason])
    assertEqual(view.usage, { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 })
    assert(view.done && view.errors.length === 0 && view.calls.length === 0, 'done, no error, no call')
  },
  cliproxy_nonstream_aggregate(view, _perRead, fixture) {
    assert(view.chunks.every((chunk) => chunk.id === fixture.expected.id), 'the upstream id on every chunk')
    assertEqual(view.text, fixture.expected.clean_text)
    assertEqual(view.finishReasons, ['stop'], 'the timing frame after event:finish adds no second finish')
    assertEqual((view.usage as { total_tokens: number }).total_tokens, fixture.expected['usage.total_tokens'])
    assert(eof(view), 'the fixture has no [DONE]: our stream ends with the unexpected-EOF error')
  },
  cliproxy_nonstream_native_tool_calls(view, _perRead, fixture) {
    assertEqual(view.finishReasons, [fixture.expected.finish_reason])
    assertEqual(callsWithoutIds(view), expectedCalls(fixture.expected.calls))
    assertEqual(view.text, fixture.expected.clean_text)
    assert(eof(view), 'no [DONE] in the fixture: unexpected EOF')
  },
  cliproxy_stream_tool_call_then_body_done(view, perRead, fixture) {
    assertEqual(readClientView(perRead[1]!).finishReasons, [fixture.expected.after_done_chunk['choices.0.finish_reason']])
    const [call] = fixture.expected.calls
    assertEqual(view.calls, [{ index: call.index, id: call.id, name: call.name, arguments: call.arguments }])
  },
  cliproxy_stream_tool_call_then_timing(_view, perRead, fixture) {
    assertEqual(readClientView(perRead[1]!).finishReasons, [fixture.expected.after_timing_chunk['choices.0.finish_reason']])
  },
  cliproxy_stream_tool_call_passthrough(view, perRead, fixture) {
    assertEqual(readClientView(perRead[0]!).chunks.length, fixture.expected.out_chunks)
    assertEqual(view.calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })), fixture.expected.calls)
  },
  cliproxy_stream_finish_then_timing_suppressed(_view, perRead, fixture) {
    assertEqual([readClientView(perRead[0]!).chunks.length, readClientView(perRead[1]!).chunks.length], fixture.expected.out_chunks_per_input)
  },
  cliproxy_nonstream_usage_from_finish_metadata(view, _perRead, fixture) {
    assertEqual(view.text, fixture.expected.clean_text)
    assertEqual(view.usage, fixture.expected.usage)
  },
  cliproxy_thought_nonstream(view, _perRead, fixture) {
    assertEqual([view.text, view.reasoning], [fixture.expected.clean_text, fixture.expected.reasoning_content])
  },
  cliproxy_thought_stream_single_chunk: checkThoughtOut,
  cliproxy_thought_stream_envelope: checkThoughtOut,
  cliproxy_thought_stream_split(_view, perRead, fixture) {
    fixture.expected.out_per_chunk.forEach((expected: Record<string, string>[], index: number) => {
      assertEqual(deltasOf(perRead[index]!), expected, `read ${index}`)
    })
  },
  real_provider_error_in_200_stream(view, _perRead, fixture) {
    assertEqual(view.errors.length, 1)
    const error = view.errors[0]!
    assertEqual(error.status, fixture.expected.mapped_status)
    assert(error.message.includes(fixture.expected.error_message_contains), 'the inner message')
    assert(!error.message.includes(fixture.expected.error_must_not_contain), 'not an EOF message')
    assertEqual([view.calls.length, view.text, view.done], [0, fixture.expected.clean_text, false])
  },
  lingma_tap_xml_tool_call_in_content: checkCleanAndCalls,
  lingma_tap_native_call_beats_textual_markup(view, _perRead, fixture) {
    assertEqual(callsWithoutIds(view), expectedCalls(fixture.expected.calls))
    assert(!view.text.includes(fixture.expected.clean_text_must_not_contain), 'the textual copy is stripped')
  },
  lingma_tap_open_marker_split(view, perRead, fixture) {
    checkCleanAndCalls(view, perRead, fixture)
    assertEqual(textOfRead(perRead[0]!), 'before ', 'the partial <tool_ is held, the text before it is not')
  },
  lingma_tap_direct_argument_fields: checkCleanAndCalls,
  lingma_tap_native_mode_strips_without_recovery(view, _perRead, fixture) {
    assertEqual(view.text, fixture.expected.clean_text)
    assertEqual(view.calls.map((call) => call.name), ['native_tool'], 'only the native call; the textual one is stripped')
  },
  lingma_tap_close_marker_split: checkCleanAndCalls,
  lingma_tap_lone_lt_starts_marker(view, perRead, fixture) {
    checkCleanAndCalls(view, perRead, fixture)
    assertEqual(textOfRead(perRead[0]!), 'before ')
  },
  lingma_tap_lone_lt_not_marker(view, perRead, fixture) {
    assertEqual([textOfRead(perRead[0]!), textOfRead(perRead[1]!)], fixture.expected.per_chunk.map((events: { content: string }[]) => events[0]!.content))
    assertEqual(view.text, fixture.expected.clean_text)
  },
  lingma_tap_lone_lt_flushed(view, perRead, fixture) {
    assertEqual(textOfRead(perRead[0]!), 'hello ')
    assertEqual(view.text, fixture.expected.clean_text, 'the held < is released at the end of the message')
  },
  lingma_tap_partial_then_eof_newer(view, _perRead, fixture) {
    assertEqual(view.text, fixture.expected.clean_text)
    assert(eof(view), 'unexpected EOF, no done')
    assertEqual(view.finishReasons, [], 'no made-up finish')
  },
  lingma_tap_partial_then_eof_older(view, _perRead, fixture) {
    assertEqual(view.text, fixture.expected.clean_text)
    assert(eof(view) && view.finishReasons.length === 0, 'superseded behaviour: we report unexpected EOF instead of injecting a done')
  },
  lingma_tap_reasoning_only_stall_recovery(view) {
    // The transport hold and retry are a gateway's policy: the stream itself passes the reasoning on and reports the cut.
    assertEqual(view.reasoning, 'stuck reasoning')
    assert(eof(view), 'unexpected EOF')
  },
}

function deltasOf(sse: string): Record<string, string>[] {
  const out: Record<string, string>[] = []
  for (const chunk of readClientView(sse).chunks) {
    const delta = chunk.choices[0]?.delta ?? {}
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') out.push({ reasoning_content: delta.reasoning_content })
    if (typeof delta.content === 'string' && delta.content !== '') out.push({ content: delta.content })
  }
  return out
}

function checkThoughtOut(_view: ClientView, perRead: string[], fixture: Fixture): void {
  assertEqual(deltasOf(perRead[0]!), fixture.expected.out)
}

function checkCleanAndCalls(view: ClientView, _perRead: string[], fixture: Fixture): void {
  assertEqual(view.text, fixture.expected.clean_text)
  // Some fixtures state their calls only per chunk.
  const stated = fixture.expected.calls ?? fixture.expected.per_chunk.flat().flatMap((event: { tool_calls?: unknown[] }) => event.tool_calls ?? [])
  assertEqual(callsWithoutIds(view), expectedCalls(stated))
}

/** The Go splitter's table cases, on our splitter directly: pieces per channel and the state after. */
function checkThoughtTable(fixture: Fixture): void {
  const splitter = createThoughtTagSplitter()
  if (fixture.expected.initial_in_thought === true) splitter.feed('<thought>')
  const pieces = fixture.chunks!.flatMap((chunk) => splitter.feed(chunk))
  assertEqual(pieces.filter((piece) => piece.channel === 'text').map((piece) => piece.text), fixture.expected.content)
  assertEqual(pieces.filter((piece) => piece.channel === 'reasoning').map((piece) => piece.text), fixture.expected.reasoning_content)
  assertEqual(splitter.inThought, fixture.expected.in_thought_after)
}

export const suite = defineSuite('lingma/fixtures', (test) => {
  for (const fixture of (fixtures as { fixtures: Fixture[] }).fixtures) {
    const thoughtTable = fixture.id.startsWith('lingma_tap_thought_')
    const name =
      fixture.id === 'lingma_tap_native_mode_clears_pending_hold'
        ? `${fixture.id}: the held "<tool_" is resolved, not dropped, when a native-call frame follows (the Go code dropped it: hazard H1)`
        : fixture.id
    test(name, () => {
      const check = CHECKS[fixture.id]
      assert(check !== undefined || thoughtTable || fixture.id === 'lingma_tap_native_mode_clears_pending_hold', `no check for fixture ${fixture.id}`)
      const reads = readsOf(fixture)
      const perRead = convertReads(reads, options())
      const whole = assertEverySplitGivesTheSame(reads.join(''), options)
      assertEqual(perRead.join(''), whole, 'one read per fixture read gives the same bytes as the whole body')
      const view = readClientView(whole)
      assertNoMarkup(view)
      if (thoughtTable) {
        checkThoughtTable(fixture)
        assertEqual(view.text, fixture.expected.content.join(''))
        assertEqual(view.reasoning, fixture.expected.reasoning_content.join(''))
      } else if (fixture.id === 'lingma_tap_native_mode_clears_pending_hold') {
        assertEqual(textOfRead(perRead[0]!), 'before ')
        assertEqual(view.text, 'before <tool_native text', '"<tool_native" is not markup: it reaches the client as text')
        assertEqual(view.calls.map((call) => call.name), ['native_tool'])
      } else {
        check!(view, perRead, fixture)
      }
    })
  }
})
