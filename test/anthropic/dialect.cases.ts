/**
 * The Anthropic Messages dialect (src/anthropic/): every real capture framed
 * as DeepSeek's `/anthropic` stream, whole, one event per read and one byte at
 * a time, gives the Chat Completions path's calls and text as `tool_use`
 * blocks with dense indexes; then the dialect's own behaviour: native and
 * leaked duplicates in either order, a leak in thinking (its signature kept
 * byte for byte), an `error` event mid-stream, a stream cut early, finish
 * reasons that fail closed, emptied text blocks, fused ≡ composed, JSON
 * bodies and request history.
 */
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import { SseDecoderStream, SseEncoderStream } from '../../src/sse/index.ts'
import { DsmlPartSanitizerStream, ToolCallSynthesizerStream } from '../../src/parts/index.ts'
import {
  AnthropicDecoderStream,
  AnthropicEncoderStream,
  AnthropicRepairStream,
  anthropicRequestOptions,
  createAnthropicRepair,
  repairAnthropicMessage,
  repairAnthropicResponse,
  sanitizeAnthropicRequest,
} from '../../src/anthropic/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { collectText, streamOf } from '../support/streams.ts'
import { captures, declaredOptions } from '../support/captures.ts'
import { block, eos, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, readRepaired, repair } from '../chat-completions/support.ts'
import {
  event,
  fold,
  message,
  MESSAGE_START,
  PING,
  repairAnthropic,
  textBlock,
  textOf,
  thinkingBlock,
  toolUseBlock,
  toolUseIds,
  toolUses,
} from './support.ts'

const BASH = block([invoke('bash', [param('command', 'ls')])])
const utf8 = new TextEncoder()

function perEvent(sse: string): string[] {
  return sse.split(/(?<=\n\n)/)
}

export const suite = defineSuite('anthropic/dialect', (test) => {
  for (const capture of captures) {
    test(`capture ${capture.id}: framed as /anthropic SSE, whole, per event and byte by byte: the Chat Completions path's calls and text, as tool_use blocks`, () => {
      const tools = declaredOptions(capture).tools ?? capture.expected_calls.map((call) => ({ name: call.name }))
      const sse = message(textBlock(0, tokenChunks(capture.input)))
      const whole = repairAnthropic([sse], { tools })
      const folded = fold(whole.output)
      assertEqual(folded.faults, [], 'block structure')
      const viaChatCompletions = readRepaired(repair(answer(tokenChunks(capture.input)), { tools }).output)
      assertEqual(toolUses(folded.content).map((call) => ({ name: call.name, arguments: call.input })), capture.expected_calls, 'the expected calls')
      assertEqual(textOf(folded.content), viaChatCompletions.content, 'the Chat Completions path\'s text')
      assert(!containsDsmlSentinel(textOf(folded.content)), 'no marker')
      assertEqual(folded.stopReason, capture.expected_calls.length > 0 ? 'tool_use' : 'end_turn', 'stop_reason')
      assert(toolUses(folded.content).every((call) => /^toolu_\d+$/.test(String(call.id))), 'toolu_ ids')
      assertEqual(repairAnthropic(perEvent(sse), { tools }).output, whole.output, 'one event per read')
      const bytes = utf8.encode(sse)
      assertEqual(repairAnthropic([...bytes].map((byte) => Uint8Array.of(byte)), { tools }).output, whole.output, 'one byte at a time')
    })
  }

  test('split at every byte offset (the two shortest captures with a call): the same output', () => {
    const shortest = captures.filter((capture) => capture.expected_calls.length > 0).sort((a, b) => a.input.length - b.input.length).slice(0, 2)
    for (const capture of shortest) {
      const bytes = utf8.encode(message(textBlock(0, tokenChunks(capture.input))))
      const whole = repairAnthropic([bytes]).output
      for (let cut = 0; cut <= bytes.length; cut++) {
        const out = repairAnthropic([bytes.subarray(0, cut), bytes.subarray(cut)]).output
        if (out !== whole) assertEqual(out, whole, `${capture.id}: cut at ${cut}`)
      }
    }
  })

  test('plain text passes byte for byte — read by read, reads forwarded as they came (feed says undefined); default ids are toolu_ + 24 alphanumerics', () => {
    const plain = message(textBlock(0, ['Hello ', 'world.']))
    assertEqual(repairAnthropic([plain]).output, plain, 'unchanged')
    const repair = createAnthropicRepair()
    const reads = perEvent(plain)
    const forwarded = reads.filter((read) => repair.feed(utf8.encode(read)) === undefined).length
    // All but two: the text block's start is held until its first clean text, which then carries it.
    assertEqual([forwarded, repair.end()], [reads.length - 2, ''], 'the reads of plain events are forwarded as they came')
    const leaky = createAnthropicRepair()
    assert(leaky.feed(message(textBlock(0, [`a ${BASH}`]))) !== undefined, 'a read that changes is written anew')
    const leak = message(textBlock(0, tokenChunks(`Listing. ${BASH}`)))
    const folded = fold(repairAnthropic([leak], { generateId: undefined }).output)
    assert(/^toolu_[A-Za-z0-9]{24}$/.test(String(toolUses(folded.content)[0]?.id)), `id ${String(toolUses(folded.content)[0]?.id)}`)
  })

  test('a text block that ends up empty is not written; the blocks after it are renumbered, dense', () => {
    const sse = message(textBlock(0, tokenChunks(BASH)) + thinkingBlock(1, ['Thinking.']) + textBlock(2, ['Done.']))
    const folded = fold(repairAnthropic([sse]).output)
    assertEqual(folded.faults, [], 'dense and well formed')
    assertEqual(folded.content.map((entry) => entry.type), ['thinking', 'text', 'tool_use'], 'the emptied block is gone, the call last')
    assertEqual(folded.stopReason, 'tool_use', 'end_turn → tool_use')
  })

  test('native tool_use wins, in either order; the same call is a duplicate-call, the block indexes stay dense', () => {
    const native = (index: number): string => toolUseBlock(index, 'toolu_native', 'bash', '{"command":"ls"}')
    for (const [label, blocks] of [
      ['leak first', textBlock(0, tokenChunks(`Run: ${BASH}`)) + native(1)],
      ['native first', native(0) + textBlock(1, tokenChunks(BASH))],
    ] as const) {
      const run = repairAnthropic([message(blocks, 'tool_use')])
      const folded = fold(run.output)
      assertEqual(folded.faults, [], `${label}: well formed`)
      assertEqual(toolUses(folded.content), [{ id: 'toolu_native', name: 'bash', input: { command: 'ls' } }], `${label}: the native call only`)
      assert(!containsDsmlSentinel(textOf(folded.content)), `${label}: no marker`)
      assertEqual(folded.stopReason, 'tool_use', `${label}: stop_reason as sent`)
      assert(run.diagnostics.some((diagnostic) => diagnostic.kind === 'duplicate-call'), `${label}: duplicate-call`)
    }
  })

  test('a leak in thinking: thinking cleaned, the call recovered, the signature kept byte for byte', () => {
    const sse = message(thinkingBlock(0, tokenChunks(`Plan: ${BASH}`), 'EqQBCkYIBhgCKkD+/=') + textBlock(1, ['Running it.']))
    const run = repairAnthropic([sse])
    const folded = fold(run.output)
    assertEqual(folded.faults, [], 'well formed')
    assertEqual(folded.content[0], { type: 'thinking', thinking: 'Plan: ', signature: 'EqQBCkYIBhgCKkD+/=' }, 'thinking cleaned, signature kept')
    assert(run.output.includes(event({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCkYIBhgCKkD+/=' } })), 'the signature event byte for byte')
    assertEqual(toolUses(folded.content).map((call) => call.name), ['bash'], 'recovered from thinking')
  })

  test('an error event mid-stream: held text resolved before it, the error forwarded as it came, no call', () => {
    const error = event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
    const sse = MESSAGE_START + event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      tokenChunks(`Hi ${BASH.slice(0, 40)}`).map((text) => event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })).join('') + error
    const run = repairAnthropic([sse])
    assert(run.output.endsWith(error), 'the error event is last, unchanged')
    const folded = fold(run.output)
    assertEqual(textOf(folded.content), 'Hi ', 'clean text')
    assertEqual(toolUses(folded.content), [], 'no call')
  })

  test('a stream cut early (no message_delta): no call, suppressed-call; recoverOnTruncation emits it', () => {
    const sse = MESSAGE_START + textBlock(0, tokenChunks(`Go. ${BASH}`))
    const run = repairAnthropic([sse])
    assertEqual(toolUses(fold(run.output).content), [], 'no call')
    assert(run.diagnostics.some((diagnostic) => diagnostic.kind === 'suppressed-call'), 'suppressed-call')
    assertEqual(toolUses(fold(repairAnthropic([sse], { recoverOnTruncation: true }).output).content).map((call) => call.name), ['bash'], 'recovered on request')
  })

  test('max_tokens, refusal and stop_sequence fail closed; the stop_reason is kept', () => {
    for (const reason of ['max_tokens', 'refusal', 'stop_sequence']) {
      const folded = fold(repairAnthropic([message(textBlock(0, tokenChunks(`a ${BASH}`)), reason)]).output)
      assertEqual([toolUses(folded.content).length, folded.stopReason, textOf(folded.content)], [0, reason, 'a '], reason)
    }
  })

  test('ping, unknown events and comments pass as they came; a held block spans them', () => {
    const unknown = event({ type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: { cited_text: 'x' } } })
    const pieces = tokenChunks(BASH)
    const middle = Math.floor(pieces.length / 2)
    const deltas = (list: string[]): string => list.map((text) => event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })).join('')
    const sse = message(
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
        deltas(pieces.slice(0, middle)) + PING + ': keep-alive\n\n' + event({ type: 'future_event', x: 1 }) + unknown + deltas(pieces.slice(middle)) +
        event({ type: 'content_block_stop', index: 0 }),
    )
    const output = repairAnthropic([sse]).output
    for (const kept of [PING, ': keep-alive\n\n', event({ type: 'future_event', x: 1 }), unknown]) assert(output.includes(kept), `kept: ${kept.trim()}`)
    assertEqual(toolUses(fold(output).content).map((call) => call.name), ['bash'], 'the call, whole')
  })

  test('fused ≡ composed: the six stages give the same bytes on every capture', async () => {
    for (const capture of captures) {
      const pieces = perEvent(message(textBlock(0, tokenChunks(capture.input))))
      const fused = await collectText(streamOf(pieces).pipeThrough(new AnthropicRepairStream({ generateId: toolUseIds() })))
      const composed = await collectText(
        streamOf(pieces)
          .pipeThrough(new SseDecoderStream())
          .pipeThrough(new AnthropicDecoderStream())
          .pipeThrough(new DsmlPartSanitizerStream({ generateId: toolUseIds() }))
          .pipeThrough(new ToolCallSynthesizerStream({ stopFinishReason: 'end_turn', toolCallsFinishReason: 'tool_use' }))
          .pipeThrough(new AnthropicEncoderStream())
          .pipeThrough(new SseEncoderStream()),
      )
      assertEqual(composed, fused, capture.id)
    }
  })

  test('JSON message: text cleaned (an emptied block dropped), thinking kept with its signature, the call appended, end_turn → tool_use; native wins', async () => {
    const body = {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'deepseek-v4-flash',
      content: [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig' }, { type: 'text', text: `Listing.${eos()}` }, { type: 'text', text: BASH }],
      stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 2 },
    }
    const repaired = repairAnthropicMessage(body, { generateId: toolUseIds() }) as typeof body
    assertEqual(repaired.content, [
      { type: 'thinking', thinking: 'Hmm.', signature: 'sig' },
      { type: 'text', text: 'Listing.' },
      { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } },
    ] as never, 'content')
    assertEqual(repaired.stop_reason, 'tool_use', 'stop_reason')
    const withNative = { ...body, content: [...body.content, { type: 'tool_use', id: 'toolu_n', name: 'read', input: { path: 'a' } }], stop_reason: 'tool_use' }
    const nativeWins = repairAnthropicMessage(withNative) as typeof body
    assertEqual(nativeWins.content.filter((entry) => entry.type === 'tool_use').length, 1, 'only the native call')
    assertEqual(repairAnthropicMessage({ ...body, content: [{ type: 'text', text: 'Plain.' }] }), undefined, 'nothing to change')
    const response = await repairAnthropicResponse(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'content-length': '1' } }))
    assertEqual(response.headers.get('content-length'), null, 'content-length dropped')
    assertEqual(((await response.json()) as typeof body).stop_reason, 'tool_use', 'the Response path')
  })

  test('repairAnthropicResponse: an SSE body streams through the repair; the request\'s declared tools gate the calls', async () => {
    const sse = message(textBlock(0, tokenChunks(`a ${BASH}`)))
    const request = { model: 'deepseek-v4-flash', tools: [{ name: 'read', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }], messages: [] }
    const gated = await repairAnthropicResponse(new Response(sse, { headers: { 'content-type': 'text/event-stream' } }), { request })
    assertEqual(toolUses(fold(await gated.text()).content), [], 'bash is not declared: removed, no call')
    const allowed = await repairAnthropicResponse(new Response(sse, { headers: { 'content-type': 'text/event-stream' } }))
    assertEqual(toolUses(fold(await allowed.text()).content).map((call) => call.name), ['bash'], 'no request: no gate')
    const failed = new Response('{"type":"error"}', { status: 529, headers: { 'content-type': 'application/json' } })
    assert((await repairAnthropicResponse(failed)) === failed, 'non-2xx untouched')
  })

  test('request: assistant text loses markup (a note in place of the call), tool_use / tool_result / thinking untouched; declared tools from input_schema', () => {
    const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } }
    const thinking = { type: 'thinking', thinking: `x ${BASH}`, signature: 'sig' }
    const body = {
      model: 'deepseek-v4-flash',
      messages: [
        { role: 'user', content: `quote: ${BASH}` },
        { role: 'assistant', content: [thinking, { type: 'text', text: `I will run it. ${BASH}` }, toolUse] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: BASH }] },
        { role: 'assistant', content: `Done.${eos()}` },
      ],
    }
    const repaired = sanitizeAnthropicRequest(body)
    assert(repaired.messages[0] === body.messages[0] && repaired.messages[2] === body.messages[2], 'user messages untouched')
    const assistant = repaired.messages[1]!.content as unknown[]
    assertEqual(assistant, [thinking, { type: 'text', text: 'I will run it. [removed leaked tool call: bash]' }, toolUse], 'text repaired, the rest untouched')
    assertEqual(repaired.messages[3]!.content, 'Done.', 'string content')
    assert(sanitizeAnthropicRequest({ messages: [{ role: 'assistant', content: 'fine' }] }).messages[0]!.content === 'fine', 'unchanged')
    assertEqual(anthropicRequestOptions({ tools: [{ name: 'read', input_schema: { type: 'object' } }, { type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'none' } }), {
      tools: [{ name: 'read', parameters: { type: 'object' } }],
      knownTools: ['web_search'],
      mode: 'strip',
    })
  })

  test('text in a content_block_start is text: kept when plain (even with no delta), cleaned when it holds markup; server_tool_use is native', () => {
    const start = (text: string): string => event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text } })
    const plain = message(start('Hello') + event({ type: 'content_block_stop', index: 0 }))
    assertEqual(textOf(fold(repairAnthropic([plain]).output).content), 'Hello', 'kept')
    const leaky = message(start(`Hi ${BASH}`) + event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' x' } }) + event({ type: 'content_block_stop', index: 0 }))
    const out = repairAnthropic([leaky]).output
    assert(!containsDsmlSentinel(out), 'no marker in any event')
    const folded = fold(out)
    assertEqual([folded.faults, textOf(folded.content), toolUses(folded.content).map((call) => call.name)], [[], 'Hi  x', ['bash']], 'cleaned, the call recovered')
    const server = event({ type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } } }) + event({ type: 'content_block_stop', index: 1 })
    assertEqual(toolUses(fold(repairAnthropic([message(textBlock(0, tokenChunks(BASH)) + server, 'tool_use')]).output).content), [], 'a server tool call wins like a native one')
  })

  test('a repeated message_delta after emitted calls says tool_use too; an error ends the message: nothing is written after it', () => {
    const twice = MESSAGE_START + textBlock(0, tokenChunks(BASH)) + event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } }) +
      event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }) + event({ type: 'message_stop' })
    const reasons = fold(repairAnthropic([twice]).output).events.filter((entry) => entry.data.type === 'message_delta').map((entry) => (entry.data.delta as { stop_reason: string }).stop_reason)
    assertEqual(reasons, ['tool_use', 'tool_use'])
    const error = event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
    const out = repairAnthropic([MESSAGE_START + textBlock(0, tokenChunks(BASH)) + error], { recoverOnTruncation: true }).output
    assert(out.endsWith(error), 'the error is the last event')
    assertEqual(toolUses(fold(out).content).map((call) => call.name), ['bash'], 'the call (opted in) before it')
  })

  test('request: a turn left with no content keeps a placeholder (the API refuses empty turns); the nudge never adds an empty block', () => {
    const emptied = sanitizeAnthropicRequest({ messages: [{ role: 'assistant', content: eos() }, { role: 'user', content: 'x' }] })
    assertEqual(emptied.messages[0], { role: 'assistant', content: '[removed leaked markup]' })
    const blocks = sanitizeAnthropicRequest({ messages: [{ role: 'assistant', content: [{ type: 'text', text: eos() }] }] })
    assertEqual(blocks.messages[0]!.content, [{ type: 'text', text: '[removed leaked markup]' }])
    const nudged = sanitizeAnthropicRequest({ messages: [{ role: 'assistant', content: `ok ${BASH}` }, { role: 'user', content: '' }] }, { recoveryNudge: true })
    assert((nudged.messages[1]!.content as unknown as Array<{ text: string }>).every((block) => block.text !== ''), 'no empty text block')
  })

  test('message_delta usage and the finish: one event, stop_reason rewritten, every other field kept', () => {
    const out = repairAnthropic([message(textBlock(0, tokenChunks(BASH)))]).output
    const delta = fold(out).events.find((entry) => entry.data.type === 'message_delta')!.data
    assertEqual(delta, { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } })
    assert(out.indexOf('"type":"tool_use"') < out.indexOf('message_delta'), 'the tool_use block comes before message_delta')
  })
})
