/**
 * `createRepairFetch` over the replay upstream and a recording `fetch`: a
 * POST to each dialect's route (under any prefix) comes back repaired,
 * streamed and JSON, its history repaired on the way out; everything else
 * goes to the wrapped `fetch` exactly as it came. Web-standard only (these
 * cases also run under Deno and Bun); the official SDKs on top of it are in
 * sdk-clients.test.ts.
 */
import { createReplayUpstream } from '../../src/cli/replay-upstream.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import { createRepairFetch, type FetchFunction } from '../../src/repair-fetch/index.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { captures } from '../support/captures.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { hasMarker, readSse } from '../gateway/support.ts'

const replay = createReplayUpstream(captures)
/** The replay behind a `fetch`, recording each request it got (its URL, method and body text). */
function recorded(): { fetch: FetchFunction; seen: Array<{ url: string; method: string; body: string; contentLength: string | null }> } {
  const seen: Array<{ url: string; method: string; body: string; contentLength: string | null }> = []
  return {
    seen,
    fetch: async (input, init) => {
      const request = new Request(input, init)
      const body = request.method === 'GET' ? '' : await request.clone().text()
      seen.push({ url: request.url, method: request.method, body, contentLength: request.headers.get('content-length') })
      return replay(request)
    },
  }
}

const withCalls = captures.filter((capture) => capture.expected_calls.length > 0)
const capture = withCalls[0]!
const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const toolsOf = (names: string[]) => names.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }))
const names = capture.expected_calls.map((call) => call.name)

export const suite = defineSuite('repair-fetch', (test) => {
  test('Chat Completions, streamed and JSON, under any prefix: the recovered calls, finish tool_calls, no marker', async () => {
    const upstream = recorded()
    const repairFetch = createRepairFetch({ fetch: upstream.fetch })
    for (const path of ['/v1/chat/completions', '/api/v1/chat/completions']) {
      const request = { model: capture.id, messages: [{ role: 'user', content: 'go' }], tools: toolsOf(names) }
      const streamed = await readSse(await repairFetch(`http://api.test${path}`, post({ ...request, stream: true })))
      assertEqual(streamed.calls.map((call) => ({ name: call.name, arguments: call.arguments })), capture.expected_calls, `${path} streamed`)
      assertEqual(streamed.finishReasons.at(-1), 'tool_calls')
      assert(!hasMarker(streamed.content), 'no marker')
      const completion = (await (await repairFetch(`http://api.test${path}`, post(request))).json()) as { choices: Array<{ message: { content: string; tool_calls: Array<{ function: { name: string; arguments: string } }> }; finish_reason: string }> }
      const message = completion.choices[0]!.message
      assertEqual(message.tool_calls.map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown })), capture.expected_calls, `${path} JSON`)
      assertEqual(completion.choices[0]!.finish_reason, 'tool_calls')
      assert(!hasMarker(message.content ?? ''), 'no marker')
    }
  })

  test('Anthropic Messages and the Responses API, streamed and JSON: each in its own wire, the recovered calls', async () => {
    const repairFetch = createRepairFetch({ fetch: recorded().fetch })
    const anthropic = { model: capture.id, max_tokens: 64, messages: [{ role: 'user', content: 'go' }], tools: names.map((name) => ({ name, input_schema: { type: 'object' } })) }
    const message = (await (await repairFetch('http://api.test/anthropic/v1/messages', post(anthropic))).json()) as { content: Array<{ type: string; name?: string; input?: unknown; text?: string }>; stop_reason: string }
    assertEqual(message.content.filter((block) => block.type === 'tool_use').map((block) => ({ name: block.name, arguments: block.input })), capture.expected_calls, 'Messages JSON')
    assertEqual(message.stop_reason, 'tool_use')
    const anthropicStream = await (await repairFetch('http://api.test/v1/messages', post({ ...anthropic, stream: true }))).text()
    assert(anthropicStream.includes('"stop_reason":"tool_use"') && !hasMarker(anthropicStream.replace(/\\u[0-9a-f]{4}/g, '')), 'Messages streamed: tool_use, no marker')
    const responses = { model: capture.id, input: 'go', tools: names.map((name) => ({ type: 'function', name, parameters: { type: 'object' } })) }
    const response = (await (await repairFetch('http://api.test/v1/responses', post(responses))).json()) as { output: Array<{ type: string; name?: string; arguments?: string }> }
    assertEqual(response.output.filter((item) => item.type === 'function_call').map((item) => ({ name: item.name, arguments: JSON.parse(item.arguments!) as unknown })), capture.expected_calls, 'Responses JSON')
    const responsesStream = await (await repairFetch('http://api.test/v1/responses', post({ ...responses, stream: true }))).text()
    assert(responsesStream.includes('"type":"function_call"') && !hasMarker(responsesStream), 'Responses streamed: function_call items, no marker')
  })

  test('the request history is repaired before it is sent (a note in place of the leaked call); an unchanged body goes as it came, byte for byte', async () => {
    const upstream = recorded()
    const repairFetch = createRepairFetch({ fetch: upstream.fetch })
    const leak = block([invoke('bash', [param('command', 'ls')])])
    await (await repairFetch('http://api.test/v1/chat/completions', post({ model: capture.id, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: `On it.${leak}` }, { role: 'user', content: 'and?' }] }))).text()
    const sent = JSON.parse(upstream.seen.at(-1)!.body) as { messages: Array<{ content: string }> }
    assertEqual(sent.messages[1]!.content, 'On it.[removed leaked tool call: bash]', 'history repaired')
    assertEqual(upstream.seen.at(-1)!.contentLength, null, 'no stale content-length')
    const clean = '{ "model" : "m",  "messages": [{"role":"user","content":"hi"}] }'
    await (await repairFetch('http://api.test/v1/chat/completions', { method: 'POST', body: clean })).text()
    assertEqual(upstream.seen.at(-1)!.body, clean, 'sent as it came')
    const off = createRepairFetch({ fetch: upstream.fetch, repairHistory: false })
    const leaked = JSON.stringify({ model: capture.id, messages: [{ role: 'assistant', content: leak }] })
    await (await off('http://api.test/v1/chat/completions', { method: 'POST', body: leaked })).text()
    assertEqual(upstream.seen.at(-1)!.body, leaked, 'repairHistory: false leaves it')
  })

  test('everything else goes to the wrapped fetch exactly as it came: other routes and methods, bodies that are not a JSON object', async () => {
    const calls: Array<[unknown, unknown]> = []
    const answer = new Response('as sent')
    const repairFetch = createRepairFetch({ fetch: async (input, init) => (calls.push([input, init]), answer) })
    const init = { method: 'POST', body: '{}' }
    for (const [input, given] of [['http://api.test/v1/embeddings', init], ['http://api.test/v1/chat/completions', { method: 'GET' }], ['http://api.test/v1/responses/resp_1', undefined], [new URL('http://api.test/v1/models'), undefined]] as const) {
      assert((await repairFetch(input, given)) === answer, `${String(input)}: the wrapped fetch's own response`)
      assert(calls.at(-1)![0] === input && calls.at(-1)![1] === given, `${String(input)}: called with the caller's own arguments`)
    }
    const upstream = recorded()
    const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])
    const response = await createRepairFetch({ fetch: upstream.fetch })('http://api.test/v1/chat/completions', { method: 'POST', body: bytes })
    assertEqual(response.status, 400, 'the upstream\'s own answer to a body that is not JSON')
    assertEqual(upstream.seen.length, 1, 'sent on')
  })

  test('a Request as input, a relative URL, a lowercase method; diagnostics with the request they belong to', async () => {
    const diagnostics: Array<[Diagnostic, Request]> = []
    const upstream = recorded()
    const repairFetch = createRepairFetch({
      fetch: (input, init) => upstream.fetch(new URL(input instanceof Request ? input.url : String(input), 'http://api.test').href, { ...init, method: input instanceof Request ? input.method : init?.method, body: input instanceof Request ? input.body : init?.body, headers: input instanceof Request ? input.headers : init?.headers, duplex: 'half' } as RequestInit),
      onDiagnostic: (diagnostic, request) => void diagnostics.push([diagnostic, request]),
    })
    const request = new Request('http://api.test/v1/chat/completions', { ...post({ model: capture.id, stream: true, messages: [{ role: 'user', content: 'go' }], tools: toolsOf(names) }), method: 'post' })
    const seen = await readSse(await repairFetch(request))
    assertEqual(seen.calls.length, capture.expected_calls.length, 'repaired')
    assert(diagnostics.some(([diagnostic, from]) => diagnostic.kind === 'recovered-call' && from.url === request.url), 'recovered calls reported with their request')
  })

  test('misuse is a TypeError at creation: the fetch, the flags, the engine options', () => {
    assertThrows(() => createRepairFetch({ fetch: 'x' as unknown as FetchFunction }), TypeError, /fetch/)
    assertThrows(() => createRepairFetch({ repairHistory: 'yes' as unknown as boolean }), TypeError, /repairHistory/)
    assertThrows(() => createRepairFetch({ preventiveDirective: 1 as unknown as boolean }), TypeError, /preventiveDirective/)
    assertThrows(() => createRepairFetch({ mode: 'fix' as unknown as 'recover' }), TypeError, /mode/)
  })
})
