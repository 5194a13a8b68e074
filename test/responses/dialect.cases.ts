/**
 * The OpenAI Responses API dialect (src/responses/): every real capture
 * framed as a streamed response (the replay upstream's framing), whole, one
 * event per read and one byte at a time, gives the Chat Completions path's
 * calls and text, with recovered calls as `function_call` items, sequence
 * numbers monotonic and no marker in any event (done texts and the final
 * `output` included); then native calls in either order, an incomplete
 * response, an error mid-stream, fused ≡ composed, JSON objects and request
 * history.
 */
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import { SseDecoderStream, SseEncoderStream } from '../../src/sse/index.ts'
import { DsmlPartSanitizerStream, ToolCallSynthesizerStream } from '../../src/parts/index.ts'
import {
  createResponsesDecoder,
  createResponsesRepair,
  repairResponsesObject,
  repairResponsesResponse,
  ResponsesDecoderStream,
  ResponsesEncoderStream,
  ResponsesRepairStream,
  responsesRequestOptions,
  sanitizeResponsesRequest,
} from '../../src/responses/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { collectText, streamOf } from '../support/streams.ts'
import { captures, declaredOptions } from '../support/captures.ts'
import { block, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, readRepaired, repair } from '../chat-completions/support.ts'
import { callIds, foldResponses, repairResponses, responsesEvents } from './support.ts'

const BASH = block([invoke('bash', [param('command', 'ls')])])
const utf8 = new TextEncoder()

type Event = Record<string, unknown> & { type: string }

/** The replay framing as event objects, to splice. */
function eventsOf(text: string): Event[] {
  return responsesEvents('t', 'deepseek-v4-flash', tokenChunks(text), 5, 1).map((line) => JSON.parse(line.slice(line.indexOf('data: ') + 6)) as Event)
}

/** Event objects as SSE, numbered in order. */
function frame(events: readonly Event[]): string {
  return events.map((event, sequence) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`).join('')
}

function functionCallEvents(outputIndex: number, callId: string, name: string, args: string): Event[] {
  const item = { id: `fc_${callId}`, type: 'function_call', call_id: callId, name, arguments: '', status: 'in_progress' }
  return [
    { type: 'response.output_item.added', output_index: outputIndex, item },
    { type: 'response.function_call_arguments.delta', item_id: item.id, output_index: outputIndex, delta: args },
    { type: 'response.function_call_arguments.done', item_id: item.id, output_index: outputIndex, arguments: args },
    { type: 'response.output_item.done', output_index: outputIndex, item: { ...item, arguments: args, status: 'completed' } },
  ]
}

export const suite = defineSuite('responses/dialect', (test) => {
  for (const capture of captures) {
    test(`capture ${capture.id}: framed as a Responses stream, whole, per event and byte by byte: the Chat Completions path's calls and text, as function_call items`, () => {
      const tools = declaredOptions(capture).tools ?? capture.expected_calls.map((call) => ({ name: call.name }))
      const events = responsesEvents('t', 'deepseek-v4-flash', tokenChunks(capture.input), 5, 1)
      const whole = repairResponses([events.join('')], { tools })
      const folded = foldResponses(whole.output)
      assertEqual(folded.faults, [], 'sequence numbers and output indexes')
      assertEqual(folded.calls.map((call) => ({ name: call.name, arguments: call.arguments })), capture.expected_calls, 'the expected calls')
      const viaChatCompletions = readRepaired(repair(answer(tokenChunks(capture.input)), { tools }).output)
      assertEqual(folded.text, viaChatCompletions.content, 'the Chat Completions path\'s text')
      assert(!containsDsmlSentinel(folded.allText), 'no marker in any event')
      const message = folded.output?.find((item) => item.type === 'message') as { content: Array<{ text: string }> } | undefined
      assertEqual(message?.content[0]?.text, folded.text, 'response.completed carries the clean text')
      assertEqual(folded.output?.filter((item) => item.type === 'function_call').length, capture.expected_calls.length, 'and the new items')
      assertEqual(repairResponses(events, { tools }).output, whole.output, 'one event per read')
      const bytes = utf8.encode(events.join(''))
      assertEqual(repairResponses([...bytes].map((byte) => Uint8Array.of(byte)), { tools }).output, whole.output, 'one byte at a time')
    })
  }

  test('plain text passes byte for byte; each read of plain events is forwarded as it came (feed says undefined)', () => {
    const events = responsesEvents('t', 'm', ['Hello ', 'world.'], 1, 1)
    assertEqual(repairResponses([events.join('')]).output, events.join(''))
    const repair = createResponsesRepair()
    assertEqual(events.filter((read) => repair.feed(read) === undefined).length, events.length, 'every read forwarded')
    assertEqual(repair.end(), '', 'nothing at the end')
  })

  test('native function_call wins, in either order: the same call a duplicate-call, no item added, sequence numbers kept dense', () => {
    const base = eventsOf(`Run: ${BASH}`)
    const completed = base.pop()!
    const native = functionCallEvents(1, 'call_native', 'bash', '{"command":"ls"}')
    for (const [label, events] of [
      ['leak first', [...base, ...native, completed]],
      ['native first', [base[0]!, base[1]!, ...functionCallEvents(0, 'call_native', 'bash', '{"command":"ls"}'), ...base.slice(2).map((event) => ('output_index' in event ? { ...event, output_index: 1 } : event)), completed]],
    ] as const) {
      const run = repairResponses([frame(events)])
      const folded = foldResponses(run.output)
      assertEqual(folded.faults, [], `${label}: well formed`)
      assertEqual(folded.calls.map((call) => call.call_id), ['call_native'], `${label}: the native call only`)
      assert(!containsDsmlSentinel(folded.allText), `${label}: no marker`)
      assert(run.diagnostics.some((diagnostic) => diagnostic.kind === 'duplicate-call'), `${label}: duplicate-call`)
    }
  })

  test('response.incomplete fails closed; response.failed and error events mid-stream: held text resolved, the event forwarded', () => {
    const events = eventsOf(`a ${BASH}`)
    const completed = events.pop()!
    const incomplete = { type: 'response.incomplete', response: { ...(completed.response as object), status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } }
    const run = repairResponses([frame([...events, incomplete])])
    const folded = foldResponses(run.output)
    assertEqual([folded.calls.length, folded.status, folded.text], [0, 'incomplete', 'a '], 'no call, status kept, clean text')
    assert(run.diagnostics.some((diagnostic) => diagnostic.kind === 'suppressed-call'), 'suppressed-call')
    const cut = eventsOf(`b ${BASH.slice(0, 30)}`).slice(0, 8)
    const error = { type: 'error', code: 'server_error', message: 'boom', param: null }
    const failedRun = repairResponses([frame([...cut, error])]).output
    const failed = foldResponses(failedRun)
    const sent = cut.filter((event) => event.type === 'response.output_text.delta').map((event) => String(event.delta)).join('')
    assertEqual(failed.text, sent.slice(0, sent.indexOf('<')) + (sent.includes('DSML') ? '' : sent.slice(sent.indexOf('<'))), 'held text resolved before the error (a cut tag start released, markup removed)')
    const last = failedRun.trimEnd().split('\n\n').at(-1)!
    assert(last.startsWith('event: error\n') && last.includes('"message":"boom"'), `the error event last: ${last}`)
    assertEqual(failed.faults, [], 'sequence numbers dense')
    assert(!containsDsmlSentinel(failed.allText), 'no marker')
  })

  test('a part whose text comes whole in its .done (no delta, with or without content_part.added first): kept when plain, cleaned when it holds markup, in every event that repeats it', () => {
    for (const [text, expected] of [['Hello world', 'Hello world'], [`Hi ${BASH}`, 'Hi ']] as const) {
      for (const withPartAdded of [true, false]) {
        const events = eventsOf(text).filter((event) => event.type !== 'response.output_text.delta' && (withPartAdded || event.type !== 'response.content_part.added'))
        const folded = foldResponses(repairResponses([frame(events)]).output)
        assertEqual(folded.faults, [], 'well formed')
        assert(!containsDsmlSentinel(folded.allText), 'no marker in any event')
        const message = folded.output?.find((item) => item.type === 'message') as { content: Array<{ text: string }> }
        assertEqual(message.content[0]!.text, expected, `${JSON.stringify(text)}, content_part.added ${withPartAdded}`)
      }
    }
  })

  test('odd events never throw: null items and responses, non-array content, null output entries pass through', () => {
    const odd: Event[] = [
      { type: 'response.output_item.done', output_index: 0, item: null as unknown as Event },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'm', type: 'message', content: 'text' } },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'm', type: 'message', content: [null] } },
      { type: 'response.completed', response: null as unknown as Event },
      { type: 'response.completed', response: { output: [null] } },
      { type: 'response.incomplete', response: null as unknown as Event },
    ]
    for (const event of odd) {
      const sse = frame([event])
      assertEqual(repairResponses([sse]).output, sse, `passes: ${JSON.stringify(event)}`)
    }
    assertEqual(repairResponsesObject({ object: 'response', status: 'completed', output: [null, { type: 'message', content: [null] }] }), undefined, 'a JSON body with odd entries: nothing to change')
  })

  test('fused ≡ composed: the six stages give the same bytes on every capture', async () => {
    for (const capture of captures) {
      const pieces = responsesEvents('t', 'm', tokenChunks(capture.input), 5, 1)
      const fused = await collectText(streamOf(pieces).pipeThrough(new ResponsesRepairStream({ generateId: callIds() })))
      const composed = await collectText(
        streamOf(pieces)
          .pipeThrough(new SseDecoderStream())
          .pipeThrough(new ResponsesDecoderStream())
          .pipeThrough(new DsmlPartSanitizerStream({ generateId: callIds() }))
          .pipeThrough(new ToolCallSynthesizerStream({ stopFinishReason: 'completed', toolCallsFinishReason: 'completed' }))
          .pipeThrough(new ResponsesEncoderStream())
          .pipeThrough(new SseEncoderStream()),
      )
      assertEqual(composed, fused, capture.id)
    }
  })

  test('decoder: deltas to text and reasoning, done events to channel-end, function calls to native parts, unknown events passed', () => {
    const types = (event: Event): string[] => createResponsesDecoder().feed({ event: event.type, data: JSON.stringify(event) }).map((part) => part.type)
    assertEqual(types({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'x' }), ['text', 'chunk-end'])
    assertEqual(types({ type: 'response.reasoning_summary_text.delta', item_id: 'r', output_index: 0, summary_index: 0, delta: 'x' }), ['reasoning', 'chunk-end'])
    assertEqual(types({ type: 'response.output_text.done', item_id: 'm', output_index: 0, content_index: 0, text: '' }), ['channel-end', 'chunk-end'])
    assertEqual(types({ type: 'response.output_text.done', item_id: 'm', output_index: 0, content_index: 0, text: 'x' }), ['text', 'channel-end', 'chunk-end'], 'a part with no delta: its whole text')
    const decoder = createResponsesDecoder()
    decoder.feed({ data: JSON.stringify({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'x' }) })
    assertEqual(decoder.feed({ data: JSON.stringify({ type: 'response.output_text.done', item_id: 'm', output_index: 0, content_index: 0, text: 'x' }) }).map((part) => part.type), ['channel-end', 'chunk-end'], 'after deltas: only the end')
    assertEqual(types({ type: 'response.function_call_arguments.delta', item_id: 'f', output_index: 1, delta: '{' }), ['native-tool-call', 'chunk-end'])
    assertEqual(types({ type: 'response.web_search_call.in_progress', output_index: 2 }), ['passthrough', 'chunk-end'])
  })

  test('JSON response object: output_text cleaned, the call appended as a function_call item; native wins; incomplete fails closed', async () => {
    const body = {
      id: 'resp_1', object: 'response', status: 'completed', model: 'm',
      output: [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Listing. ${BASH}`, annotations: [] }] }],
    }
    const repaired = repairResponsesObject(body, { generateId: () => 'call_abc' }) as typeof body & { output: Array<Record<string, unknown>> }
    assertEqual((repaired.output[0]!.content as Array<{ text: string }>)[0]!.text, 'Listing. ', 'text cleaned')
    assertEqual(repaired.output[1], { type: 'function_call', id: 'fc_abc', call_id: 'call_abc', name: 'bash', arguments: '{"command":"ls"}', status: 'completed' })
    const native = { ...body, output: [...body.output, { id: 'fc_n', type: 'function_call', call_id: 'call_n', name: 'bash', arguments: '{"command":"ls"}', status: 'completed' }] }
    assertEqual(((repairResponsesObject(native) as { output: unknown[] }).output).length, 2, 'native wins: no item added')
    assertEqual(((repairResponsesObject({ ...body, status: 'incomplete' }) as { output: unknown[] }).output).length, 1, 'incomplete: no call')
    const response = await repairResponsesResponse(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }))
    assertEqual(((await response.json()) as { output: unknown[] }).output.length, 2, 'the Response path')
  })

  test('request: assistant output_text loses markup, function_call / function_call_output untouched; declared tools from tools[].parameters', () => {
    const call = { type: 'function_call', call_id: 'call_1', name: 'bash', arguments: '{"command":"ls"}' }
    const output = { type: 'function_call_output', call_id: 'call_1', output: BASH }
    const body = {
      model: 'm',
      input: [
        { role: 'user', content: `quote ${BASH}` },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `On it. ${BASH}` }] },
        call,
        output,
        { role: 'assistant', content: `Done ${BASH}` },
      ],
    }
    const repaired = sanitizeResponsesRequest(body)
    assert(repaired.input[0] === body.input[0] && repaired.input[2] === call && repaired.input[3] === output, 'user message and call items untouched')
    assertEqual((repaired.input[1] as { content: Array<{ text: string }> }).content[0]!.text, 'On it. [removed leaked tool call: bash]')
    assertEqual((repaired.input[4] as { content: string }).content, 'Done [removed leaked tool call: bash]')
    assert(sanitizeResponsesRequest({ input: 'just text' }).input === 'just text', 'a string input passes')
    assertEqual(responsesRequestOptions({ tools: [{ type: 'function', name: 'read', parameters: { type: 'object' } }, { type: 'custom', name: 'apply' }], tool_choice: 'none' }), {
      tools: [{ name: 'read', parameters: { type: 'object' } }],
      knownTools: ['apply'],
      mode: 'strip',
    })
  })
})
