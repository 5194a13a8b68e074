/**
 * The built-in replay upstream behind `npm start`: valid OpenAI SSE and JSON
 * built from the real captures, and, through the gateway, every capture's
 * expected calls and text. Portable (vitest, Deno, Bun): no sockets.
 */
import {
  createReplayUpstream,
  DEFAULT_REPLAY_CAPTURE,
  replayDeltas,
  tokenLikeChunks,
  type ReplayCapture,
} from '../../src/cli/replay-upstream.ts'
import { createChatCompletionsGateway } from '../../src/gateway/index.ts'
import { decodeLingmaBody, LINGMA_CHAT_PATH } from '../../src/lingma/index.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { fold, textOf, toolUses } from '../anthropic/support.ts'
import { foldResponses } from '../responses/support.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import { chatRequest, hasMarker, readSse, readSseText, recordingUpstream, shapes } from './support.ts'

interface Capture extends ReplayCapture {
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>
  expected_text: string
}

const captures = leaks as Array<Capture & { tools?: Array<{ name: string }> }>

/** The tools a capture's request declared, as a Chat Completions request spells them. */
const requestTools = (capture: (typeof captures)[number]): { tools?: unknown[] } =>
  capture.tools === undefined ? {} : { tools: capture.tools.map((tool) => ({ type: 'function', function: { name: tool.name } })) }

function post(body: unknown, path = '/v1/chat/completions'): Request {
  return new Request(`http://replay.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

const replay = createReplayUpstream(captures, { created: 1_700_000_000 })
const gateway = createChatCompletionsGateway({ upstream: 'http://replay.test/v1', fetch: replay })

export const suite = defineSuite('gateway/replay-upstream', (test) => {
  test('stream: valid chat.completion.chunk SSE — role chunk, the capture as content deltas, finish stop, usage chunk, [DONE]', async () => {
    for (const capture of captures) {
      const response = await replay(post({ model: capture.id, stream: true, messages: [{ role: 'user', content: 'hi' }] }))
      assertEqual(response.status, 200)
      const text = await response.text()
      assert(text.endsWith('data: [DONE]\n\n'), `${capture.id}: ends with [DONE]`)
      for (const event of text.split('\n\n').slice(0, -1)) assert(/^data: [^\n]*$/.test(event), `${capture.id}: one data line per event`)
      const seen = readSseText(text)
      const first = seen.chunks[0] as { choices: Array<{ delta: unknown }> }
      assertEqual(first.choices[0]!.delta, { role: 'assistant', content: '' }, `${capture.id}: role chunk`)
      assertEqual(seen.content, capture.input, `${capture.id}: deltas join to the capture`)
      assertEqual(seen.finishReasons, ['stop'])
      const last = seen.chunks[seen.chunks.length - 1] as { choices: unknown[]; usage: { completion_tokens: number } }
      assertEqual(last.choices, [])
      assertEqual(last.usage.completion_tokens, replayDeltas(capture).length)
      for (const chunk of seen.chunks) {
        assertEqual([chunk.id, chunk.object, chunk.created, chunk.model], [`chatcmpl-replay-${capture.id}`, 'chat.completion.chunk', 1_700_000_000, capture.id])
      }
      assert(seen.done && seen.afterDone === 0, `${capture.id}: [DONE] last`)
    }
  })

  test('cherry-14747-captured-sse-deltas is replayed as its real captured deltas', async () => {
    const cherry = captures.find((capture) => capture.id === 'cherry-14747-captured-sse-deltas')!
    const seen = readSseText(await (await replay(post({ model: cherry.id, stream: true, messages: [] }))).text())
    const contents = seen.chunks.slice(1, -2).map((chunk) => (chunk as { choices: Array<{ delta: { content: string } }> }).choices[0]!.delta.content)
    assertEqual(contents, cherry.chunks)
  })

  test('captures without real deltas are cut into deterministic token-like pieces of 4–12 characters', () => {
    for (const capture of captures.filter((entry) => entry.chunks === undefined)) {
      const cut = replayDeltas(capture)
      assertEqual(cut.join(''), capture.input)
      assertEqual(replayDeltas(capture), cut, `${capture.id}: deterministic`)
      cut.slice(0, -1).forEach((piece, index) => assert(piece.length >= 4 && piece.length <= 13, `${capture.id}: piece ${index} has ${piece.length} units`))
    }
    const emoji = '😀'.repeat(40)
    for (const piece of tokenLikeChunks(emoji, 'seed')) assertEqual(piece.length % 2, 0, 'never inside a surrogate pair')
  })

  test('every capture, streamed through the gateway, gives its expected calls and text', async () => {
    for (const capture of captures) {
      const seen = await readSse(await gateway(chatRequest({ model: capture.id, stream: true, ...requestTools(capture), messages: [{ role: 'user', content: 'go' }] })))
      assertEqual(shapes(seen.calls), capture.expected_calls, `${capture.id}: calls`)
      assertEqual(seen.content.trimEnd(), capture.expected_text.trimEnd(), `${capture.id}: text`)
      assertEqual(seen.finishReasons, [capture.expected_calls.length > 0 ? 'tool_calls' : 'stop'], `${capture.id}: finish`)
      assert(!hasMarker(seen.content), `${capture.id}: no marker in the text`)
      assert(seen.done, `${capture.id}: [DONE]`)
    }
  })

  test('every capture, as JSON (stream false) through the gateway, gives its expected calls', async () => {
    for (const capture of captures) {
      const response = await gateway(chatRequest({ model: capture.id, ...requestTools(capture), messages: [{ role: 'user', content: 'go' }] }))
      const body = (await response.json()) as {
        object: string
        choices: Array<{ message: { content: string; tool_calls?: Array<{ function: { name: string; arguments: string } }> }; finish_reason: string }>
      }
      assertEqual(body.object, 'chat.completion')
      const choice = body.choices[0]!
      const calls = (choice.message.tool_calls ?? []).map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }))
      assertEqual(calls, capture.expected_calls, `${capture.id}: calls`)
      assertEqual(choice.message.content.trimEnd(), capture.expected_text.trimEnd(), `${capture.id}: text`)
      assertEqual(choice.finish_reason, capture.expected_calls.length > 0 ? 'tool_calls' : 'stop')
    }
  })

  test('every capture through POST /v1/messages (Anthropic Messages), streamed and as JSON: its expected calls as tool_use blocks, no marker, history repaired', async () => {
    for (const capture of captures) {
      const tools = capture.tools === undefined ? {} : { tools: capture.tools.map((tool) => ({ name: tool.name, input_schema: { type: 'object' } })) }
      const body = { model: capture.id, max_tokens: 1024, ...tools, messages: [{ role: 'user', content: 'go' }] }
      const streamed = await gateway(post({ ...body, stream: true }, '/v1/messages'))
      assertEqual(streamed.headers.get('content-type')?.startsWith('text/event-stream'), true, `${capture.id}: SSE`)
      const folded = fold(await streamed.text())
      assertEqual(folded.faults, [], `${capture.id}: block structure`)
      assertEqual(toolUses(folded.content).map((call) => ({ name: call.name, arguments: call.input })), capture.expected_calls, `${capture.id}: calls (stream)`)
      assertEqual(textOf(folded.content).trimEnd(), capture.expected_text.trimEnd(), `${capture.id}: text`)
      assertEqual(folded.stopReason, capture.expected_calls.length > 0 ? 'tool_use' : 'end_turn', `${capture.id}: stop_reason`)
      assert(!hasMarker(textOf(folded.content)), `${capture.id}: no marker`)
      const json = (await (await gateway(post(body, '/v1/messages'))).json()) as { content: Array<{ type: string; name?: string; input?: unknown; text?: string }>; stop_reason: string }
      const calls = json.content.filter((block) => block.type === 'tool_use').map((block) => ({ name: block.name, arguments: block.input }))
      assertEqual(calls, capture.expected_calls, `${capture.id}: calls (JSON)`)
    }
    const upstream = recordingUpstream(() => new Response('{}', { headers: { 'content-type': 'application/json' } }))
    const recorded = createChatCompletionsGateway({ upstream: 'http://up.test/v1', anthropicUpstream: 'http://up.test/anthropic', fetch: upstream.fetch })
    const history = { model: 'x', max_tokens: 10, messages: [{ role: 'assistant', content: [{ type: 'text', text: `Run it. ${captures[0]!.input}` }] }] }
    await recorded(post(history, '/v1/messages?beta=true'))
    assertEqual(upstream.calls[0]!.url, 'http://up.test/anthropic/v1/messages?beta=true', 'the Messages base, the query kept')
    assert(!hasMarker(JSON.stringify(upstream.calls[0]!.body)), 'history repaired before it is forwarded')
    const refused = await gateway(new Request('http://replay.test/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'not json' }))
    assertEqual([refused.status, ((await refused.json()) as { type: string }).type], [400, 'error'], 'errors in the Anthropic shape')
  })

  test('every capture through POST /v1/responses (OpenAI Responses API), streamed and as JSON: its expected calls as function_call items, no marker', async () => {
    for (const capture of captures) {
      const tools = capture.tools === undefined ? {} : { tools: capture.tools.map((tool) => ({ type: 'function', name: tool.name })) }
      const body = { model: capture.id, ...tools, input: 'go' }
      const streamed = foldResponses(await (await gateway(post({ ...body, stream: true }, '/v1/responses'))).text())
      assertEqual(streamed.faults, [], `${capture.id}: sequence numbers`)
      assertEqual(streamed.calls.map((call) => ({ name: call.name, arguments: call.arguments })), capture.expected_calls, `${capture.id}: calls (stream)`)
      assertEqual(streamed.text.trimEnd(), capture.expected_text.trimEnd(), `${capture.id}: text`)
      assert(!hasMarker(streamed.allText), `${capture.id}: no marker in any event`)
      const json = (await (await gateway(post(body, '/v1/responses'))).json()) as { output: Array<{ type: string; name?: string; arguments?: string }> }
      const calls = json.output.filter((item) => item.type === 'function_call').map((item) => ({ name: item.name, arguments: JSON.parse(item.arguments!) as unknown }))
      assertEqual(calls, capture.expected_calls, `${capture.id}: calls (JSON)`)
    }
  })

  test('upstreamDialect lingma: every capture through POST /v1/chat/completions to a Lingma upstream (the replay in the Lingma wire), streamed and as JSON: its expected calls as tool_calls, no marker; the upstream reads an Encode=1 Lingma body', async () => {
    const prepared: Request[] = []
    const lingmaGateway = createChatCompletionsGateway({
      upstream: 'http://replay.test',
      upstreamDialect: 'lingma',
      fetch: replay,
      prepareUpstream: (request) => {
        prepared.push(request.clone())
        return request
      },
    })
    for (const capture of captures) {
      const body = { model: capture.id, ...requestTools(capture), messages: [{ role: 'user', content: 'go' }] }
      const seen = await readSse(await lingmaGateway(chatRequest({ ...body, stream: true })))
      assertEqual(shapes(seen.calls), capture.expected_calls, `${capture.id}: calls (stream)`)
      assertEqual(seen.content.trimEnd(), capture.expected_text.trimEnd(), `${capture.id}: text (stream)`)
      assertEqual(seen.finishReasons, [capture.expected_calls.length > 0 ? 'tool_calls' : 'stop'], `${capture.id}: finish (stream)`)
      assert(!hasMarker(seen.content) && seen.done, `${capture.id}: no marker, [DONE]`)
      const json = (await (await lingmaGateway(chatRequest(body))).json()) as {
        object: string
        choices: Array<{ message: { content: string | null; tool_calls?: Array<{ type: string; function: { name: string; arguments: string } }> }; finish_reason: string }>
      }
      assertEqual(json.object, 'chat.completion', `${capture.id}: a chat.completion`)
      const choice = json.choices[0]!
      assertEqual((choice.message.tool_calls ?? []).map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown })), capture.expected_calls, `${capture.id}: calls (JSON)`)
      assertEqual((choice.message.content ?? '').trimEnd(), capture.expected_text.trimEnd(), `${capture.id}: text (JSON)`)
      assertEqual(choice.finish_reason, capture.expected_calls.length > 0 ? 'tool_calls' : 'stop', `${capture.id}: finish (JSON)`)
    }
    const request = prepared[0]!
    const url = new URL(request.url)
    assertEqual([url.pathname, url.searchParams.get('AgentId'), url.searchParams.get('Encode')], [LINGMA_CHAT_PATH, 'agent_chat', '1'], 'the Lingma endpoint')
    const sent = JSON.parse(decodeLingmaBody(await request.text())) as { model_config: { key: string }; messages: unknown[]; stream: boolean }
    assertEqual([sent.model_config.key, sent.messages, sent.stream], [captures[0]!.id, [{ role: 'user', content: 'go' }], true], 'the body prepareUpstream sees is the encoded Lingma body')
    assertThrows(() => createChatCompletionsGateway({ upstream: 'http://replay.test', upstreamDialect: 'grpc' as never }), TypeError, /"upstreamDialect"/)
  })

  test('the request model picks the capture; any other model gets the default (the Cherry real-delta capture)', async () => {
    assertEqual(DEFAULT_REPLAY_CAPTURE, 'cherry-14747-captured-sse-deltas')
    const other = await replay(post({ model: 'deepseek-v4-flash', stream: false, messages: [] }))
    const body = (await other.json()) as { id: string; model: string; choices: Array<{ message: { content: string } }> }
    assertEqual(body.id, `chatcmpl-replay-${DEFAULT_REPLAY_CAPTURE}`)
    assertEqual(body.model, 'deepseek-v4-flash')
    assertEqual(body.choices[0]!.message.content, captures.find((capture) => capture.id === DEFAULT_REPLAY_CAPTURE)!.input)
    const custom = createReplayUpstream(captures, { defaultCapture: 'opensquilla-985-parallel-exec' })
    const picked = (await (await custom(post({ messages: [] }))).json()) as { id: string }
    assertEqual(picked.id, 'chatcmpl-replay-opensquilla-985-parallel-exec')
  })

  test('GET /captures lists every capture id and the default', async () => {
    const response = await replay(new Request('http://replay.test/v1/captures'))
    const list = (await response.json()) as { default: string; data: Array<{ id: string; real_deltas: boolean }> }
    assertEqual(list.default, DEFAULT_REPLAY_CAPTURE)
    assertEqual(list.data.map((entry) => entry.id), captures.map((capture) => capture.id))
    assertEqual(list.data.filter((entry) => entry.real_deltas).map((entry) => entry.id), ['cherry-14747-captured-sse-deltas', 'genericagent-804-double-vertical-line-split'])
  })

  test('errors: unknown path 404, wrong method 405, bad JSON 400; bad captures throw', async () => {
    assertEqual((await replay(new Request('http://replay.test/v1/models'))).status, 404)
    assertEqual((await replay(new Request('http://replay.test/v1/chat/completions'))).status, 405)
    assertEqual((await replay(new Request('http://replay.test/v1/chat/completions', { method: 'POST', body: '{' }))).status, 400)
    // Gateway siege row 7: JSON nested 10^5 deep is not JSON here either (it was a 500: the replay overflowed the stack walking it).
    const deep = `{"messages":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    assertEqual((await replay(new Request('http://replay.test/v1/chat/completions', { method: 'POST', body: deep }))).status, 400)
    assertThrows(() => createReplayUpstream([]), TypeError, /non-empty array/)
    assertThrows(() => createReplayUpstream([{ id: 'a' } as never]), TypeError, /"input"/)
    assertThrows(() => createReplayUpstream(captures, { defaultCapture: 'nope' }), TypeError, /not among the captures/)
  })

  test('delayMs spaces the events, and cancelling the stream stops the replay', async () => {
    const slow = createReplayUpstream(captures, { delayMs: 5 })
    const response = await slow(post({ model: 'opensquilla-985-parallel-exec', stream: true, messages: [] }))
    const reader = response.body!.getReader()
    const started = Date.now()
    await reader.read()
    await reader.read()
    await reader.read()
    assert(Date.now() - started >= 8, 'two delayed events take at least ~10 ms')
    await reader.cancel()
  })

  test('delayMs is a fixed schedule: the events a reader comes late for are due already, and come without waiting', async () => {
    const slow = createReplayUpstream(captures, { delayMs: 20 })
    const reader = (await slow(post({ model: 'opensquilla-985-parallel-exec', stream: true, messages: [] }))).body!.getReader()
    await reader.read()
    await new Promise((resolve) => setTimeout(resolve, 120))
    // Events 1 to 4 were due 20 to 80 ms after the first: waiting 20 ms before each would take 80 ms more.
    const started = Date.now()
    for (let event = 1; event <= 4; event++) assert(!(await reader.read()).done, `event ${event}`)
    assert(Date.now() - started < 40, `the four due events took ${Date.now() - started} ms`)
    await reader.cancel()
  })
})
