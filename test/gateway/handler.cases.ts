/**
 * `createChatCompletionsGateway` with an injected upstream `fetch`: what the
 * upstream receives (repaired history, forwarded headers, URL) and what the
 * client gets back (repaired SSE and JSON, errors). No sockets: these cases
 * run under vitest, Deno and Bun; test/gateway/loopback.test.ts does sockets.
 */
import { StreamLimitError } from '../../src/sse/index.ts'
import { repairChatCompletionsResponse, sanitizeChatCompletionsRequest } from '../../src/chat-completions/index.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import {
  createChatCompletionsGateway,
  declaredToolNames,
  upstreamChatUrl,
  type GatewayForward,
} from '../../src/gateway/index.ts'
import { assert, assertEqual, assertThrows, thrownBy } from '../support/assert.ts'
import { type Capture, captures } from '../support/captures.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { fakeMeter } from '../support/fake-meter.ts'
import {
  chatRequest,
  completionResponse,
  hasMarker,
  readSse,
  recordingUpstream,
  shapes,
  sseResponse,
  sseText,
} from './support.ts'

const capture = (id: string): Capture => {
  const found = captures.find((entry) => entry.id === id)
  if (found === undefined) throw new Error(`no capture ${id}`)
  return found
}

const UPSTREAM = 'http://upstream.test/v1'
const readCall = block([invoke('read', [param('path', 'src/app.ts')])])
const bashCall = block([invoke('bash', [param('command', 'ls -la')])])

/** Cuts text into pieces of `size` (a streamed leak). */
function pieces(text: string, size = 7): string[] {
  const out: string[] = []
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size))
  return out
}

const userTurn = { role: 'user', content: 'Open src/app.ts' }

/** Can a `Request` made here carry an `Origin` header? Not in a browser, which forbids scripts to set it (and sets it itself). */
function carriesOrigin(): boolean {
  return new Request('http://gateway.test/', { headers: { origin: 'https://app.example' } }).headers.get('origin') !== null
}

/** A gateway to `UPSTREAM` over `fetch`, recording every diagnostic and every forwarded request. */
function observedGateway(fetch: (input: Request) => Promise<Response>): {
  gateway: ReturnType<typeof createChatCompletionsGateway>
  diagnostics: Diagnostic[]
  forwards: GatewayForward[]
} {
  const diagnostics: Diagnostic[] = []
  const forwards: GatewayForward[] = []
  const gateway = createChatCompletionsGateway({
    upstream: UPSTREAM,
    fetch,
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    onForward: (forward) => forwards.push(forward),
  })
  return { gateway, diagnostics, forwards }
}

export const suite = defineSuite('gateway/handler', (test) => {
  test('request history: leaked markup in assistant messages is removed before forwarding; user content passes byte for byte', async () => {
    const upstream = recordingUpstream(() => sseResponse(['Done.']))
    const { gateway, forwards } = observedGateway(upstream.fetch)
    const userWithMarkup = { role: 'user', content: `Why did you print ${readCall}?` }
    const body = {
      model: 'deepseek-v4-flash',
      stream: true,
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'You are terse.' },
        userTurn,
        { role: 'assistant', content: `Let me look.\n${readCall}` },
        userWithMarkup,
      ],
    }
    const response = await gateway(chatRequest(body))
    assertEqual(response.status, 200)
    await response.text()
    assertEqual(upstream.calls.length, 1)
    const sent = upstream.calls[0]!.body
    const messages = sent.messages as Array<{ role: string; content: string }>
    assertEqual(messages[2], { role: 'assistant', content: 'Let me look.\n[removed leaked tool call: read]' })
    assertEqual(messages[3], userWithMarkup, 'user content is not rewritten')
    assertEqual(messages[0], body.messages[0])
    assertEqual({ ...sent, messages: undefined }, { ...body, messages: undefined }, 'other fields are forwarded unchanged')
    assertEqual(forwards.length, 1)
    assertEqual(forwards[0]!.repairedMessages, 1)
    assertEqual(forwards[0]!.url, 'http://upstream.test/v1/chat/completions')
  })

  test('SSE response: a leaked call comes back as a real tool_calls entry, finish tool_calls, no markup', async () => {
    const leak = `I will read it.\n${readCall}`
    const upstream = recordingUpstream(() => sseResponse(pieces(leak)))
    const { gateway, diagnostics } = observedGateway(upstream.fetch)
    const seen = await readSse(await gateway(chatRequest({ model: 'deepseek-v4-flash', stream: true, messages: [userTurn] })))
    assertEqual(shapes(seen.calls), [{ name: 'read', arguments: { path: 'src/app.ts' } }])
    assert(/^call_[A-Za-z0-9]{24}$/.test(seen.calls[0]!.id), `call id ${seen.calls[0]!.id}`)
    assertEqual(seen.finishReasons, ['tool_calls'])
    assertEqual(seen.content.trimEnd(), 'I will read it.')
    assert(!hasMarker(seen.content), 'no marker in content')
    assert(seen.done && seen.afterDone === 0, '[DONE] is the last event')
    assertEqual(diagnostics.filter((diagnostic) => diagnostic.kind === 'recovered-call').length, 1)
  })

  test('onDiagnostic gets the client request each diagnostic belongs to', async () => {
    const upstream = recordingUpstream(() => sseResponse(pieces(readCall)))
    const seenRequests: Request[] = []
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch, onDiagnostic: (_diagnostic, request) => seenRequests.push(request) })
    const request = chatRequest({ model: 'm', stream: true, messages: [userTurn] })
    await (await gateway(request)).text()
    assert(seenRequests.length > 0, 'diagnostics reported')
    assert(seenRequests.every((seen) => seen === request), 'the same Request object')
  })

  test('unrecoveredNote: a call cut off upstream shows as a note in the reply; sent back as history, it stays and the nudge names the call', async () => {
    const cut = `Writing it.\n${readCall.slice(0, readCall.indexOf('src/app') + 4)}`
    const upstream = recordingUpstream((request) => (request.body.messages as unknown[]).length > 1 ? sseResponse(['ok']) : sseResponse(pieces(cut)))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch, unrecoveredNote: true, recoveryNudge: true })
    const seen = await readSse(await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] })))
    const note = '[tool call to "read" could not be recovered: the output was cut off]'
    assertEqual([seen.content, seen.calls.length], [`Writing it.\n${note}`, 0])
    await (await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn, { role: 'assistant', content: seen.content }, { role: 'user', content: 'and?' }] }))).text()
    const sent = upstream.calls[1]!.body.messages as Array<{ role: string; content: string }>
    assertEqual(sent[1]!.content, seen.content, 'the note is history as it is')
    const nudge = sent.at(-1)!
    assert(nudge.role === 'system' && nudge.content.includes('a call to "read"') && nudge.content.includes('did not run'), `the nudge names the call: ${JSON.stringify(nudge)}`)
    const off = await readSse(await createChatCompletionsGateway({ upstream: UPSTREAM, fetch: recordingUpstream(() => sseResponse(pieces(cut))).fetch })(chatRequest({ model: 'm', stream: true, messages: [userTurn] })))
    assertEqual(off.content, 'Writing it.\n', 'off by default')
  })

  test('the runaway guard is on in the gateway: a response repeating one tag ends with finish length, and the upstream is cancelled', async () => {
    const parameterCloser = readCall.slice(readCall.indexOf('</'), readCall.indexOf('>', readCall.indexOf('</')) + 1)
    const repeated = `Writing.\n${readCall.slice(0, readCall.indexOf('>') + 1)}\n${parameterCloser.repeat(300)}`
    const events = sseText(pieces(repeated)).split(/(?<=\n\n)/)
    let pulled = 0
    let cancelled = false
    const upstream = async (): Promise<Response> =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled < events.length) controller.enqueue(new TextEncoder().encode(events[pulled++]!))
            else controller.close()
          },
          cancel() {
            cancelled = true
          },
        }, { highWaterMark: 0 }),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    const seen = await readSse(await createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream })(chatRequest({ model: 'm', stream: true, messages: [userTurn] })))
    assertEqual([seen.content, seen.finishReasons, seen.done], ['Writing.\n', ['length'], true])
    assert(cancelled && pulled < events.length / 2, `the upstream cancelled after ${pulled} of ${events.length} events`)
    pulled = 0
    const off = await readSse(await createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream, runawayRepeat: 0 })(chatRequest({ model: 'm', stream: true, messages: [userTurn] })))
    assertEqual([off.finishReasons, pulled], [['stop'], events.length], 'runawayRepeat 0: off, read to the end')
  })

  test('meter: requests by route, method and status, the upstream\'s first byte and whole body timed, the repair counted; no path as written in a label', async () => {
    const meter = fakeMeter()
    const fetch = async (request: Request): Promise<Response> =>
      request.url.endsWith('/models') ? new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } }) : sseResponse(pieces(`Reading.\n${readCall}`))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch, meter })
    await (await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { path: '/secret-prefix-42/v1/chat/completions' }))).text()
    await (await gateway(new Request('http://gateway.test/secret-prefix-42/v1/models'))).text()
    await (await gateway(new Request('http://gateway.test/health'))).text()
    await (await gateway(chatRequest('not json' as never))).text()
    const requests = meter.recorded.get('http.server.request.duration')!.map((entry) => entry.attributes)
    assertEqual(requests, [
      { 'http.route': 'chat-completions', 'http.request.method': 'POST', 'http.response.status_code': 200 },
      { 'http.route': 'pass-through', 'http.request.method': 'GET', 'http.response.status_code': 200 },
      { 'http.route': 'health', 'http.request.method': 'GET', 'http.response.status_code': 200 },
      { 'http.route': 'chat-completions', 'http.request.method': 'POST', 'http.response.status_code': 400 },
    ])
    assertEqual(meter.recorded.get('dsml.gateway.requests')!.map((entry) => [entry.value, entry.attributes]), requests.map((attributes) => [1, attributes]))
    assertEqual(meter.recorded.get('dsml.upstream.time_to_first_byte')!.map((entry) => entry.attributes['http.route']), ['chat-completions', 'pass-through'])
    assertEqual(meter.recorded.get('dsml.upstream.duration')!.length, 2)
    assert([...meter.recorded.values()].flat().every((entry) => entry.value >= 0), 'times are not negative')
    assertEqual([meter.sum('dsml.leaks'), meter.sum('dsml.calls.recovered')], [1, 1])
    assert(!JSON.stringify([...meter.recorded.values()]).includes('secret'), 'no path as the client wrote it')
  })

  test('sglang-35736-tool-choice-none: with tool_choice "none" the gateway strips the markup and sends no call', async () => {
    const leak = capture('sglang-35736-tool-choice-none')
    const upstream = recordingUpstream(() => sseResponse(pieces(leak.input, 5)))
    const { gateway, diagnostics, forwards } = observedGateway(upstream.fetch)
    const tools = [{ type: 'function', function: { name: 'Bash', parameters: { type: 'object' } } }]
    const seen = await readSse(await gateway(chatRequest({ model: 'm', stream: true, tool_choice: 'none', tools, messages: [userTurn] })))
    assertEqual(seen.calls, [])
    assertEqual(seen.finishReasons, ['stop'])
    assertEqual(seen.content.trim(), '')
    assertEqual(forwards[0]!.mode, 'strip')
    assert(diagnostics.some((diagnostic) => diagnostic.kind === 'dropped-markup'), 'the removed markup is reported')
    assert(!diagnostics.some((diagnostic) => diagnostic.kind === 'recovered-call'), 'nothing recovered')

    // The same capture without tool_choice "none" is recovered.
    const recovered = await readSse(await gateway(chatRequest({ model: 'm', stream: true, tools, messages: [userTurn] })))
    assertEqual(shapes(recovered.calls), leak.expected_calls)
  })

  test('declared tools carry their schemas: the recovered call is fitted to tools[].function.parameters (streamed and JSON)', async () => {
    const fetchTool = { type: 'object', properties: { url: { type: 'string' }, max_length: { type: 'integer' } }, required: ['url'] }
    const tools = [{ type: 'function', function: { name: 'web_fetch', parameters: fetchTool } }]
    const leak = block([invoke('web_fetch', [param('url', 'https://x.test'), param('max_length', '6000')])])
    const upstream = recordingUpstream(() => sseResponse(pieces(leak)))
    const { gateway, diagnostics } = observedGateway(upstream.fetch)
    const seen = await readSse(await gateway(chatRequest({ model: 'm', stream: true, tools, messages: [userTurn] })))
    assertEqual(shapes(seen.calls), [{ name: 'web_fetch', arguments: { url: 'https://x.test', max_length: 6000 } }], '"6000" → 6000')
    const missing = block([invoke('web_fetch', [param('max_length', '10')])])
    const json = recordingUpstream(() => completionResponse(missing))
    const jsonGateway = observedGateway(json.fetch)
    const response = (await (await jsonGateway.gateway(chatRequest({ model: 'm', tools, messages: [userTurn] }))).json()) as { choices: Array<{ message: { tool_calls?: unknown[] } }> }
    assertEqual(response.choices[0]!.message.tool_calls, undefined, 'a required argument missing: no call')
    assert(jsonGateway.diagnostics.some((diagnostic) => diagnostic.kind === 'schema-mismatch' && diagnostic.tool === 'web_fetch'), 'schema-mismatch reported')
    assert(!diagnostics.some((diagnostic) => diagnostic.kind === 'schema-mismatch'), 'the complete call fits')
  })

  test('tools configured on the gateway win over the request’s, schemas included', async () => {
    const leak = block([invoke('read', [param('path', 'a.ts'), param('limit', '20')])])
    const upstream = recordingUpstream(() => sseResponse(pieces(leak)))
    const configured = createChatCompletionsGateway({
      upstream: UPSTREAM,
      fetch: upstream.fetch,
      tools: [{ name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } } } }],
    })
    const tools = [{ type: 'function', function: { name: 'bash' } }]
    const seen = await readSse(await configured(chatRequest({ model: 'm', stream: true, tools, messages: [userTurn] })))
    assertEqual(shapes(seen.calls), [{ name: 'read', arguments: { path: 'a.ts', limit: 20 } }])
  })

  test('declared tools gate recovered calls: an undeclared name is dropped and reported as unknown-tool', async () => {
    const upstream = recordingUpstream(() => sseResponse(pieces(block([invoke('read', [param('path', 'a.ts')]), invoke('bash', [param('command', 'rm -rf /')])]))))
    const { gateway, diagnostics, forwards } = observedGateway(upstream.fetch)
    const tools = [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }]
    const seen = await readSse(await gateway(chatRequest({ model: 'm', stream: true, tools, messages: [userTurn] })))
    assertEqual(shapes(seen.calls), [{ name: 'read', arguments: { path: 'a.ts' } }])
    assertEqual(seen.finishReasons, ['tool_calls'])
    assertEqual(diagnostics.filter((diagnostic) => diagnostic.kind === 'unknown-tool').map((diagnostic) => diagnostic.tool), ['bash'])
    assertEqual(forwards[0]!.knownTools, ['read'])
    assert(!hasMarker(seen.content), 'the dropped call is removed from the text too')
  })

  test('configured knownTools win over the request tools; no tools declared → no gate', async () => {
    const leak = `${readCall}${bashCall}`
    const upstream = recordingUpstream(() => sseResponse(pieces(leak)))
    const configured = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch, knownTools: ['bash'] })
    const tools = [{ type: 'function', function: { name: 'read' } }]
    const gated = await readSse(await configured(chatRequest({ model: 'm', stream: true, tools, messages: [userTurn] })))
    assertEqual(gated.calls.map((call) => call.name), ['bash'])

    const open = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const ungated = await readSse(await open(chatRequest({ model: 'm', stream: true, messages: [userTurn] })))
    assertEqual(ungated.calls.map((call) => call.name), ['read', 'bash'])
    const emptyTools = await readSse(await open(chatRequest({ model: 'm', stream: true, tools: [], messages: [userTurn] })))
    assertEqual(emptyTools.calls.map((call) => call.name), ['read', 'bash'], 'tools: [] declares nothing to gate with')
  })

  test('declaredToolNames reads function tools, other tool types and legacy functions', () => {
    assertEqual(
      declaredToolNames({
        tools: [{ type: 'function', function: { name: 'read' } }, { type: 'custom', custom: { name: 'apply_patch' } }, { type: 'function' }, null],
        functions: [{ name: 'legacy' }],
      })?.sort(),
      ['apply_patch', 'legacy', 'read'],
    )
    assertEqual(declaredToolNames({ messages: [] }), undefined)
    assertEqual(declaredToolNames({ tools: [] }), undefined)
  })

  test('JSON (non-stream) response: content cleaned, tool_calls added, finish tool_calls', async () => {
    const upstream = recordingUpstream(() => completionResponse(`Reading.\n${readCall}`))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const response = await gateway(chatRequest({ model: 'm', messages: [userTurn] }))
    assertEqual(response.status, 200)
    assert((response.headers.get('content-type') ?? '').includes('application/json'), 'JSON content type')
    const body = (await response.json()) as { choices: Array<{ message: { content: string; tool_calls: Array<{ type: string; function: { name: string; arguments: string } }> }; finish_reason: string }> }
    const choice = body.choices[0]!
    assertEqual(choice.finish_reason, 'tool_calls')
    assertEqual(choice.message.content.trimEnd(), 'Reading.')
    assertEqual(choice.message.tool_calls.map((call) => [call.type, call.function.name, JSON.parse(call.function.arguments)]), [['function', 'read', { path: 'src/app.ts' }]])
  })

  test('headers: client headers are forwarded, hop-by-hop and length/encoding headers are not, either way', async () => {
    const upstream = recordingUpstream(() =>
      sseResponse(['hi'], 'stop', { 'x-request-id': 'req-1', 'content-encoding': 'gzip', 'content-length': '999', 'keep-alive': 'timeout=5' }),
    )
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const request = chatRequest(
      { model: 'm', stream: true, messages: [userTurn] },
      {
        headers: {
          authorization: 'Bearer sk-test',
          accept: 'text/event-stream',
          'x-api-key': 'key-2',
          'user-agent': 'test-agent/1.0',
          host: 'gateway.test',
          'content-length': '12345',
          connection: 'keep-alive, x-hop',
          'x-hop': 'drop me',
          'keep-alive': 'timeout=5',
          'accept-encoding': 'gzip, br',
          te: 'trailers',
          'proxy-authorization': 'Basic abc',
        },
      },
    )
    // A browser's Request drops the headers it forbids scripts to set (user-agent in Chromium): what it carries is what can be forwarded.
    const carriedUserAgent = request.headers.get('user-agent') ?? undefined
    // …and connection: then x-hop is no longer named as hop-by-hop, and is an ordinary header.
    const carriesConnection = request.headers.get('connection') !== null
    const response = await gateway(request)
    await response.text()
    const sent = upstream.calls[0]!.headers
    assertEqual(sent.authorization, 'Bearer sk-test')
    assertEqual(sent['content-type'], 'application/json')
    assertEqual(sent.accept, 'text/event-stream')
    assertEqual(sent['x-api-key'], 'key-2')
    assertEqual(sent['user-agent'], carriedUserAgent)
    if (!('document' in globalThis)) assertEqual([carriedUserAgent, carriesConnection], ['test-agent/1.0', true], 'outside a browser the request carries both')
    for (const dropped of ['host', 'content-length', 'connection', ...(carriesConnection ? ['x-hop'] : []), 'keep-alive', 'accept-encoding', 'te', 'proxy-authorization']) {
      assertEqual(sent[dropped], undefined, `request header ${dropped} is not forwarded`)
    }
    assertEqual(response.headers.get('x-request-id'), 'req-1')
    assertEqual(response.headers.get('content-encoding'), null)
    assertEqual(response.headers.get('content-length'), null)
    assertEqual(response.headers.get('keep-alive'), null)
  })

  test('URL rule: /chat/completions is appended to the upstream base; both client paths accepted; query kept', async () => {
    const upstream = recordingUpstream(() => sseResponse(['ok']))
    const gateway = createChatCompletionsGateway({ upstream: 'http://upstream.test/openai/v1/', fetch: upstream.fetch })
    for (const path of ['/v1/chat/completions', '/chat/completions', '/v1/chat/completions/', '/chat/completions?api-version=2']) {
      const response = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { path }))
      assertEqual(response.status, 200, path)
      await response.text()
    }
    assertEqual(
      upstream.calls.map((call) => call.url),
      [
        'http://upstream.test/openai/v1/chat/completions',
        'http://upstream.test/openai/v1/chat/completions',
        'http://upstream.test/openai/v1/chat/completions',
        'http://upstream.test/openai/v1/chat/completions?api-version=2',
      ],
    )
    assertEqual(upstream.calls.map((call) => call.method), ['POST', 'POST', 'POST', 'POST'])
    assertEqual(upstreamChatUrl('https://api.deepseek.com'), 'https://api.deepseek.com/chat/completions')
    assertEqual(upstreamChatUrl('https://api.openai.com/v1'), 'https://api.openai.com/v1/chat/completions')
  })

  test('bad options throw a TypeError that says what to change', () => {
    assertThrows(() => createChatCompletionsGateway({ upstream: 'api.deepseek.com' }), TypeError, /absolute http\(s\) URL/)
    assertThrows(() => createChatCompletionsGateway({ upstream: 'ftp://example.test' }), TypeError, /http\(s\) URL/)
    assertThrows(() => createChatCompletionsGateway({} as never), TypeError, /base URL/)
    assertThrows(() => createChatCompletionsGateway({ upstream: UPSTREAM, fetch: 'nope' as never }), TypeError, /"fetch" must be a function/)
    assertThrows(() => createChatCompletionsGateway({ upstream: UPSTREAM, mode: 'fix' as never }), TypeError, /option "mode"/)
    assertThrows(() => createChatCompletionsGateway({ upstream: UPSTREAM, maxHoldChars: 3 }), TypeError, /maxHoldChars/)
  })

  test('400: a body that is not JSON, or not a JSON object, is refused without calling the upstream', async () => {
    const upstream = recordingUpstream(() => sseResponse(['never']))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    for (const body of ['{"model": ', '[1, 2]', 'null', '']) {
      const response = await gateway(chatRequest(body))
      assertEqual(response.status, 400, `body ${JSON.stringify(body)}`)
      const error = (await response.json()) as { error: { message: string; type: string } }
      assertEqual(error.error.type, 'invalid_request_error')
      assert(error.error.message.length > 0, 'message')
    }
    assertEqual(upstream.calls.length, 0)
  })

  test('mount anywhere: each route by its last segments under any prefix; a POST to a route is repaired, in its dialect', async () => {
    const upstream = recordingUpstream((request) => (request.url.endsWith('/messages') ? new Response('{}', { headers: { 'content-type': 'application/json' } }) : sseResponse(pieces(`Reading.${readCall}`))))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, anthropicUpstream: 'http://anthropic.test', fetch: upstream.fetch })
    for (const path of ['/v1/chat/completions', '/chat/completions', '/api/v1/chat/completions', '/api/chat/completions/', '/a/b/c/v1/chat/completions']) {
      const seen = await readSse(await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { path })))
      assertEqual([shapes(seen.calls), seen.finishReasons.at(-1)], [[{ name: 'read', arguments: { path: 'src/app.ts' } }], 'tool_calls'], path)
      assertEqual(upstream.calls.at(-1)!.url, 'http://upstream.test/v1/chat/completions', `${path}: to the upstream's own route`)
    }
    for (const path of ['/v1/messages', '/api/v1/messages', '/messages']) {
      await (await gateway(chatRequest({ model: 'm', max_tokens: 9, messages: [userTurn] }, { path }))).text()
      assertEqual(upstream.calls.at(-1)!.url, 'http://anthropic.test/v1/messages', path)
    }
  })

  test('every other path and method passes through to the upstream, untouched both ways, with the same header rules', async () => {
    const seen: Array<{ url: string; method: string; authorization: string | null; host: string | null; body: string }> = []
    const gateway = createChatCompletionsGateway({
      upstream: UPSTREAM,
      anthropicUpstream: 'http://anthropic.test',
      fetch: async (request) => {
        seen.push({ url: request.url, method: request.method, authorization: request.headers.get('authorization'), host: request.headers.get('host'), body: await request.text() })
        return new Response(`{"seen":${seen.length}}`, { status: 201, headers: { 'content-type': 'application/json', 'x-upstream': 'yes', connection: 'x-hop', 'x-hop': '1' } })
      },
    })
    const embeddings = JSON.stringify({ model: 'e', input: `leaks stay as sent: ${readCall}` })
    const cases: Array<[string, RequestInit, string]> = [
      ['/v1/embeddings?x=1', { method: 'POST', body: embeddings, headers: { 'content-type': 'application/json', authorization: 'Bearer k' } }, 'http://upstream.test/v1/embeddings?x=1'],
      ['/api/v1/models', { headers: { authorization: 'Bearer k' } }, 'http://upstream.test/v1/models'],
      ['/v1/chat/completions', { method: 'GET' }, 'http://upstream.test/v1/chat/completions'],
      ['/v1/responses/resp_1', { method: 'GET' }, 'http://upstream.test/v1/responses/resp_1'],
      ['/v1/threads/t/messages', { method: 'POST', body: '{}' }, 'http://upstream.test/v1/threads/t/messages'],
      ['/v1/messages/count_tokens', { method: 'POST', body: '{"messages":[]}' }, 'http://anthropic.test/v1/messages/count_tokens'],
      ['/completions', { method: 'POST', body: 'not json' }, 'http://upstream.test/v1/completions'],
    ]
    for (const [path, init, target] of cases) {
      const response = await gateway(new Request(`http://gateway.test${path}`, init))
      assertEqual([response.status, await response.text(), response.headers.get('x-upstream'), response.headers.get('x-hop')], [201, `{"seen":${seen.length}}`, 'yes', null], `${path}: the upstream's answer, less hop-by-hop headers`)
      const last = seen.at(-1)!
      assertEqual([last.url, last.method, last.body], [target, init.method ?? 'GET', typeof init.body === 'string' ? init.body : ''], `${path}: sent on as it came`)
      assert(last.host === null, 'no host header of the client')
      if (path === '/v1/embeddings?x=1') assertEqual(last.authorization, 'Bearer k', 'the client\'s credentials go on')
    }
    const failing = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: async () => { throw new TypeError('connect ECONNREFUSED') } })
    const failed = await failing(new Request('http://gateway.test/v1/models'))
    assertEqual([failed.status, ((await failed.json()) as { error: { type: string } }).error.type], [502, 'upstream_error'], 'an unreachable upstream: a JSON 502')
  })

  test('pass-through streams both ways: the request body goes on as a stream, the answer comes back as it arrives', async () => {
    const encoder = new TextEncoder()
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let received = ''
    const gateway = createChatCompletionsGateway({
      upstream: UPSTREAM,
      fetch: async (request) => {
        received = await request.text()
        return new Response(new ReadableStream({
          async start(controller) {
            controller.enqueue(encoder.encode('first '))
            await held
            controller.enqueue(encoder.encode('last'))
            controller.close()
          },
        }))
      },
    })
    const body = new ReadableStream({ start(controller) { controller.enqueue(encoder.encode('a ')); controller.enqueue(encoder.encode('b')); controller.close() } })
    const response = await gateway(new Request('http://gateway.test/v1/files', { method: 'POST', body, duplex: 'half' } as RequestInit))
    const reader = response.body!.getReader()
    const first = await reader.read()
    assertEqual([received, new TextDecoder().decode(first.value)], ['a b', 'first '], 'the first piece arrives before the upstream has finished')
    release()
    let rest = ''
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value)
    assertEqual(rest, 'last')
  })

  test('upstreamKey: sent as each route\'s own header, in place of the client\'s; the client needs none', async () => {
    const seen: Array<{ url: string; authorization: string | null; apiKey: string | null }> = []
    const gateway = createChatCompletionsGateway({
      upstream: UPSTREAM,
      anthropicUpstream: 'http://anthropic.test',
      upstreamKey: 'server-key',
      fetch: async (request) => {
        seen.push({ url: request.url, authorization: request.headers.get('authorization'), apiKey: request.headers.get('x-api-key') })
        return completionResponse('fine')
      },
    })
    await (await gateway(chatRequest({ model: 'm', messages: [userTurn] }))).text()
    await (await gateway(chatRequest({ model: 'm', messages: [userTurn] }, { headers: { authorization: 'Bearer client-key' } }))).text()
    await (await gateway(chatRequest({ model: 'm', max_tokens: 9, messages: [userTurn] }, { path: '/v1/messages', headers: { 'x-api-key': 'client-key' } }))).text()
    await (await gateway(chatRequest({ model: 'm', input: 'hi' }, { path: '/v1/responses' }))).text()
    await (await gateway(new Request('http://gateway.test/v1/models', { headers: { authorization: 'Bearer client-key' } }))).text()
    await (await gateway(new Request('http://gateway.test/v1/messages/count_tokens', { method: 'POST', body: '{}' }))).text()
    assertEqual(seen.map((entry) => [entry.url, entry.authorization, entry.apiKey]), [
      ['http://upstream.test/v1/chat/completions', 'Bearer server-key', null],
      ['http://upstream.test/v1/chat/completions', 'Bearer server-key', null],
      ['http://anthropic.test/v1/messages', null, 'server-key'],
      ['http://upstream.test/v1/responses', 'Bearer server-key', null],
      ['http://upstream.test/v1/models', 'Bearer server-key', null],
      ['http://anthropic.test/v1/messages/count_tokens', null, 'server-key'],
    ])
    for (const upstreamKey of ['', 'a\nb', 7]) {
      assertThrows(() => createChatCompletionsGateway({ upstream: UPSTREAM, upstreamKey: upstreamKey as string }), TypeError, /upstreamKey/)
    }
  })

  test('with an upstreamKey, a browser may use the gateway only from its own origin and allowedOrigins: others get a 403 and nothing goes upstream; preflights only for them', async () => {
    // A browser's Request drops the headers it forbids scripts to set, Origin among them: there the browser itself sends it.
    if (!carriesOrigin()) return
    const upstream = recordingUpstream(() => completionResponse('fine'))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, upstreamKey: 'k', allowedOrigins: ['https://app.example'], fetch: upstream.fetch })
    const post = (origin?: string): Request => chatRequest({ model: 'm', messages: [userTurn] }, origin === undefined ? {} : { headers: { origin } })
    const refused = await gateway(post('https://evil.example'))
    assertEqual([refused.status, ((await refused.json()) as { error: { type: string } }).error.type, upstream.calls.length], [403, 'forbidden_origin', 0], 'another origin: refused, not forwarded')
    const allowed = await gateway(post('https://app.example'))
    assertEqual([allowed.status, allowed.headers.get('access-control-allow-origin'), allowed.headers.get('vary')], [200, 'https://app.example', 'origin'], 'an allowed origin: served, with its CORS header')
    await allowed.text()
    for (const origin of [undefined, 'http://gateway.test']) {
      const served = await gateway(post(origin))
      assertEqual([served.status, served.headers.get('access-control-allow-origin')], [200, null], `${origin ?? 'no Origin'}: served as before`)
      await served.text()
    }
    const preflight = (origin: string): Request =>
      new Request('http://gateway.test/v1/chat/completions', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' } })
    const answered = await gateway(preflight('https://app.example'))
    assertEqual(
      [answered.status, answered.headers.get('access-control-allow-origin'), answered.headers.get('access-control-allow-headers'), answered.headers.get('access-control-allow-methods')],
      [204, 'https://app.example', 'content-type, authorization', 'GET, POST, OPTIONS'],
      'a preflight from an allowed origin',
    )
    assertEqual((await gateway(preflight('https://evil.example'))).status, 403, 'a preflight from another origin')
    const messages = await gateway(chatRequest({ model: 'm', max_tokens: 9, messages: [userTurn] }, { path: '/v1/messages', headers: { origin: 'https://evil.example' } }))
    assertEqual([messages.status, ((await messages.json()) as { type: string }).type], [403, 'error'], 'refused in the route\'s own shape')
    assertEqual(upstream.calls.length, 3, 'only what was served went upstream')
  })

  test('allowedOrigins alone guards too ("*" allows any page); with neither a key nor a list, no origin is checked', async () => {
    if (!carriesOrigin()) return
    const upstream = recordingUpstream(() => completionResponse('fine'))
    const evil = chatRequest({ model: 'm', messages: [userTurn] }, { headers: { origin: 'https://evil.example' } })
    assertEqual((await createChatCompletionsGateway({ upstream: UPSTREAM, allowedOrigins: [], fetch: upstream.fetch })(evil.clone())).status, 403, 'an empty list')
    const any = await createChatCompletionsGateway({ upstream: UPSTREAM, upstreamKey: 'k', allowedOrigins: ['*'], fetch: upstream.fetch })(evil.clone())
    assertEqual([any.status, any.headers.get('access-control-allow-origin')], [200, 'https://evil.example'], '"*"')
    await any.text()
    const open = await createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })(evil.clone())
    assertEqual([open.status, open.headers.get('access-control-allow-origin')], [200, null], 'no key, no list: as before')
    await open.text()
    assertThrows(() => createChatCompletionsGateway({ upstream: UPSTREAM, allowedOrigins: [''] }), TypeError, /allowedOrigins/)
  })

  test('GET / and /health: a small JSON status without the query (it may hold a key)', async () => {
    const gateway = createChatCompletionsGateway({ upstream: 'https://api.example.test/v1?key=1', fetch: async () => new Response('') })
    for (const path of ['/', '/health']) {
      const response = await gateway(new Request(`http://gateway.test${path}`))
      assertEqual(response.status, 200)
      const status = (await response.json()) as { ok: boolean; upstream: string }
      assertEqual(status.ok, true)
      assertEqual(status.upstream, 'https://api.example.test/v1')
    }
  })

  test('an upstream with credentials is refused with an error that does not print them; the base query is kept on every upstream request, before the client\'s', async () => {
    const thrown = thrownBy(() => createChatCompletionsGateway({ upstream: 'https://user:secret@api.example.test/v1?key=K' }))
    assert(thrown instanceof TypeError && /must not carry credentials/.test(thrown.message), String(thrown))
    assert(!String((thrown as Error).message).includes('secret') && !String((thrown as Error).message).includes('key=K'), 'nothing secret printed')
    // Gateway siege row 7: an upstream that is not a URL at all is printed without what would be its secrets.
    // (A port past 65535 fails in every runtime's URL parser; a space in the host does not: Chromium escapes it.)
    const unparsed = thrownBy(() => createChatCompletionsGateway({ upstream: 'https://user:secret@api.example.test:99999/v1?key=K#frag' }))
    assert(unparsed instanceof TypeError && /must be an absolute http\(s\) URL/.test(unparsed.message), String(unparsed))
    assert(unparsed.message.includes('"https://…@api.example.test:99999/v1"'), unparsed.message)
    const upstream = recordingUpstream(() => sseResponse(['hi']))
    const gateway = createChatCompletionsGateway({ upstream: 'https://api.example.test/openai/?api-version=2024-10-21', fetch: upstream.fetch })
    await (await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { path: '/v1/chat/completions?trace=1' }))).text()
    assertEqual(upstream.calls[0]!.url, 'https://api.example.test/openai/chat/completions?api-version=2024-10-21&trace=1')
  })

  test('an upstream JSON body past maxBufferSize: a 502 in the dialect\'s shape, the rest of the body unread; repairChatCompletionsResponse alone rejects with json-body-limit', async () => {
    const big = JSON.stringify({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(5000) }, finish_reason: 'stop' }] })
    const json = (): Response => new Response(big, { headers: { 'content-type': 'application/json' } })
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: async () => json(), maxBufferSize: 1000 })
    const response = await gateway(chatRequest({ model: 'm', messages: [userTurn] }))
    assertEqual(response.status, 502)
    const body = (await response.json()) as { error: { message: string; type: string } }
    assertEqual(body.error.type, 'upstream_error')
    assert(body.error.message.includes('longer than maxBufferSize (1000 characters)'), body.error.message)
    const thrown = await repairChatCompletionsResponse(json(), { maxBufferSize: 1000 }).then(() => undefined, (error: unknown) => error)
    assert(thrown instanceof StreamLimitError && thrown.type === 'json-body-limit', String(thrown))
    const within = await createChatCompletionsGateway({ upstream: UPSTREAM, fetch: async () => json() })(chatRequest({ model: 'm', messages: [userTurn] }))
    assertEqual(within.status, 200, 'within the default cap')
  })

  test('timeouts: an upstream that never answers gets a JSON 504 (headers timeout), its call aborted', async () => {
    let seen: AbortSignal | undefined
    const gateway = createChatCompletionsGateway({
      upstream: UPSTREAM,
      upstreamHeadersTimeoutMs: 30,
      fetch: (request) => {
        seen = request.signal
        return new Promise((_resolve, reject) => request.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
      },
    })
    const response = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }))
    assertEqual(response.status, 504)
    assertEqual(((await response.json()) as { error: { type: string } }).error.type, 'upstream_timeout')
    assertEqual(seen?.aborted, true)
  })

  test('timeouts: a stream whose upstream goes silent gets keep-alive comments, then an error event the client can read, and the upstream call is aborted', async () => {
    const encoder = new TextEncoder()
    let upstreamSignal: AbortSignal | undefined
    const stalling = (request: Request): Promise<Response> => {
      upstreamSignal = request.signal
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(sseText(['Hello']).split('\n\n').slice(0, 2).join('\n\n') + '\n\n'))
        },
      })
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }))
    }
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: stalling, keepAliveMs: 20, upstreamIdleTimeoutMs: 150 })
    const text = await (await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }))).text()
    assert(text.includes('"content":"Hello"'), 'what came before the silence')
    assert(text.includes(': keep-alive\n\n'), 'keep-alive comments while silent')
    assert(text.trimEnd().endsWith('"type":"upstream_timeout","param":null,"code":null}}'), `ends with the error event: ${text.slice(-200)}`)
    assertEqual(upstreamSignal?.aborted, true, 'the upstream call stopped')
    const anthropic = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: stalling, keepAliveMs: 0, upstreamIdleTimeoutMs: 50 })
    const messages = await (await anthropic(chatRequest({ model: 'm', max_tokens: 10, stream: true, messages: [userTurn] }, { path: '/v1/messages' }))).text()
    assert(messages.endsWith('event: error\ndata: {"type":"error","error":{"type":"upstream_timeout","message":' + JSON.stringify(`The upstream at ${UPSTREAM} sent nothing for 50 ms; the stream was ended.`) + '}}\n\n'), messages.slice(-200))
    assert(!messages.includes('keep-alive'), 'keepAliveMs 0: no comments')
    assertThrows(() => createChatCompletionsGateway({ upstream: UPSTREAM, keepAliveMs: -1 }), TypeError, /"keepAliveMs"/)
  })

  test('gateway siege row 4: the idle timeout measures the upstream\'s silence, not the repaired output\'s: a leaked call streaming slowly for longer than the timeout is recovered', async () => {
    const encoder = new TextEncoder()
    const leak = block([invoke('bash', [param('command', 'ls -la /some/long/path/to/list')])])
    const pieces: string[] = []
    for (let at = 0; at < leak.length; at += 8) pieces.push(leak.slice(at, at + 8))
    const events = sseText(['Let me look. ', ...pieces]).split('\n\n').slice(0, -1).map((event) => `${event}\n\n`)
    // One event every 20 ms: the markup is held for about three times the 200 ms timeout, while the upstream is never silent for long.
    const slow = (): Promise<Response> => {
      let index = 0
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (index >= events.length) return controller.close()
          await new Promise((resolve) => setTimeout(resolve, 20))
          controller.enqueue(encoder.encode(events[index++]!))
        },
      })
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }))
    }
    assert(pieces.length * 20 > 2 * 200, `the markup takes ${pieces.length * 20} ms to arrive`)
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: slow, keepAliveMs: 50, upstreamIdleTimeoutMs: 200 })
    const text = await (await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }))).text()
    assert(!text.includes('upstream_timeout'), `not cut: ${text.slice(-300)}`)
    assert(text.includes('"name":"bash"') && text.includes('data: [DONE]'), `the call recovered: ${text.slice(-300)}`)
    assert(text.includes(': keep-alive\n\n'), 'keep-alive comments while the markup is held')
  })

  test('gateway siege row 5: a JSON, text or error body that stalls after its headers ends at the idle timeout (a 504 before anything was sent; a cut body after), and the upstream call is stopped', async () => {
    const encoder = new TextEncoder()
    let upstreamSignal: AbortSignal | undefined
    const stalled = (contentType: string, status: number, start: string) => (request: Request): Promise<Response> => {
      upstreamSignal = request.signal
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (start !== '') controller.enqueue(encoder.encode(start))
        },
      })
      return Promise.resolve(new Response(body, { status, headers: { 'content-type': contentType } }))
    }
    const json = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: stalled('application/json', 200, '{"id":"c","object":"chat.completion",'), upstreamIdleTimeoutMs: 80 })
    const response = await json(chatRequest({ model: 'm', messages: [userTurn] }))
    assertEqual(response.status, 504)
    assertEqual(((await response.json()) as { error: { type: string } }).error.type, 'upstream_timeout')
    assertEqual(upstreamSignal?.aborted, true, 'the upstream call stopped')
    for (const [contentType, status] of [['text/plain', 200], ['application/json', 500]] as const) {
      const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: stalled(contentType, status, 'partial '), upstreamIdleTimeoutMs: 80 })
      const answered = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }))
      const outcome = answered.status === 504 ? 'timed out' : await answered.text().then(() => 'ended', () => 'cut')
      assert(outcome === 'timed out' || outcome === 'cut', `${contentType} ${status}: ${outcome}`)
      assertEqual(upstreamSignal?.aborted, true, `${contentType} ${status}: the upstream call stopped`)
    }
  })

  test('gateway siege row 3: a body not typed JSON (text/plain from a foreign page, a form, none) gets a 415 in each route, and never reaches the upstream', async () => {
    const upstream = recordingUpstream(() => completionResponse('hi'))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const body = JSON.stringify({ model: 'm', max_tokens: 10, messages: [userTurn], input: 'hi' })
    for (const path of ['/v1/chat/completions', '/v1/messages', '/v1/responses']) {
      for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
        const headers: Record<string, string> = { origin: 'https://evil.example' }
        if (type !== undefined) headers['content-type'] = type
        // A Blob with no type sends no Content-Type at all.
        const response = await gateway(new Request(`http://gateway.test${path}`, { method: 'POST', headers, body: type === undefined ? new Blob([body]) : body }))
        assertEqual(response.status, 415, `${path} ${type ?? 'no type'}`)
        const error = (await response.json()) as { error: { type: string; message: string } }
        assertEqual(error.error.type, 'invalid_request_error', `${path}: the dialect's error shape`)
        assert(error.error.message.includes('application/json'), `${path}: says what to send`)
      }
    }
    assertEqual(upstream.calls.length, 0, 'nothing forwarded')
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json']) {
      assertEqual((await gateway(chatRequest({ model: 'm', messages: [userTurn] }, { headers: { 'content-type': type } }))).status, 200, type)
    }
  })

  test('gateway siege row 3: a body whose history needs no repair is forwarded as the client wrote it; a repaired one is written again', async () => {
    const upstream = recordingUpstream(() => completionResponse('hi'))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const asWritten = '{ "model": "m",\n  "messages": [ {"role": "assistant", "content": "a < b, \\u00e9"}, {"role": "user", "content": "go"} ] }'
    await gateway(chatRequest(asWritten))
    assertEqual(upstream.calls[0]!.bodyText, asWritten)
    await gateway(chatRequest({ model: 'm', messages: [{ role: 'assistant', content: `Run it. ${bashCall}` }, userTurn] }))
    assertEqual(upstream.calls[1]!.bodyText, JSON.stringify(upstream.calls[1]!.body))
    assert(!hasMarker(upstream.calls[1]!.bodyText), 'repaired')
  })

  test('gateway siege row 3: a long history is repaired in slices, each leaving the event loop a turn, with the same result as at once', async () => {
    const upstream = recordingUpstream(() => completionResponse('hi'))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    // About 2 MB of prose with a `<` every few characters, then a leaked call: several slices of work.
    const long = `${'a < b and c <d e '.repeat(120_000)}${bashCall} done`
    const history = { model: 'm', messages: [{ role: 'assistant', content: long }, userTurn, { role: 'assistant', content: `again ${readCall}` }] }
    let turns = 0
    const ticker = setInterval(() => turns++, 0)
    try {
      await gateway(chatRequest(history))
    } finally {
      clearInterval(ticker)
    }
    assert(turns >= 2, `the loop had ${turns} turns while the history was repaired`)
    assertEqual(upstream.calls[0]!.body, sanitizeChatCompletionsRequest(history))
    assertEqual(upstream.calls[0]!.bodyText, JSON.stringify(sanitizeChatCompletionsRequest(history)), 'written in pieces, the text JSON.stringify gives')
  })

  test('gateway siege row 3: a body sent in many small chunks (characters cut between them, a byte order mark, long strings) is read as a whole one is; unrepaired it reaches the upstream byte for byte (less its byte order mark), repaired as JSON.stringify writes it', async () => {
    const upstream = recordingUpstream(() => completionResponse('hi'))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const chunked = (text: string, size: number): Request => {
      const bytes = new TextEncoder().encode(text)
      let start = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (start >= bytes.length) return controller.close()
          controller.enqueue(bytes.slice(start, start + size))
          start += size
        },
      })
      return new Request('http://gateway.test/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit)
    }
    // Past a slice of decoding (256 KiB) and past the length kept as pieces (64 Ki characters), with escapes and pairs.
    const long = `${'é "quoted" 😀 a < b\n '.repeat(20_000)}end`
    const clean = `﻿{ "model": "m", "messages": [ {"role": "assistant", "content": ${JSON.stringify(long)}}, {"role": "user", "content": "go", "content": "go on"} ] }`
    for (const size of [1_000, 65_536, 300_000]) {
      const before = upstream.calls.length
      assertEqual((await gateway(chunked(clean, size))).status, 200, `unrepaired, chunks of ${size}`)
      assertEqual([...upstream.calls[before]!.bodyBytes], [...new TextEncoder().encode(clean.slice(1))], `unrepaired, chunks of ${size}: byte for byte (the duplicated key included), the mark dropped as it was read`)
    }
    const leaked = { model: 'm', messages: [{ role: 'assistant', content: `${long} ${bashCall} ${long}` }, userTurn] }
    for (const size of [777, 300_000]) {
      const before = upstream.calls.length
      assertEqual((await gateway(chunked(JSON.stringify(leaked), size))).status, 200, `repaired, chunks of ${size}`)
      const expected = sanitizeChatCompletionsRequest(leaked)
      assert(JSON.stringify(expected) !== JSON.stringify(leaked), 'the history needs repair')
      assertEqual(upstream.calls[before]!.bodyText, JSON.stringify(expected), `repaired, chunks of ${size}: written as JSON.stringify writes the repaired body`)
    }
  })

  test('gateway siege row 3: a client that leaves while its long history is read and repaired stops that work at the next turn: a 499, nothing forwarded', async () => {
    const upstream = recordingUpstream(() => completionResponse('hi'))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const long = `${'a < b and c <d e '.repeat(120_000)}${bashCall} done`
    const client = new AbortController()
    const answer = gateway(chatRequest({ model: 'm', messages: [{ role: 'assistant', content: long }, userTurn] }, { signal: client.signal }))
    client.abort()
    const response = await answer
    assertEqual(response.status, 499)
    assertEqual(((await response.json()) as { error: { type: string } }).error.type, 'client_closed_request')
    assertEqual(upstream.calls.length, 0, 'nothing forwarded')
  })

  test('a request path of 16,000 slashes: trailing slashes are read by a loop from the end, not a backtracking pattern', async () => {
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: async () => new Response('') })
    const response = await gateway(new Request(`http://gateway.test/x${'/'.repeat(16_000)}a`))
    assertEqual(response.status, 200, 'passed through')
    for (const slashes of ['/', '//', '/'.repeat(16_000)]) {
      assertEqual((await gateway(new Request(`http://gateway.test/health${slashes}`))).status, 200, `/health and ${slashes.length} trailing slashes`)
    }
  })

  test('502: an upstream network failure becomes an OpenAI-style JSON error', async () => {
    const gateway = createChatCompletionsGateway({
      upstream: UPSTREAM,
      fetch: async () => {
        throw new TypeError('fetch failed: connect ECONNREFUSED 127.0.0.1:9')
      },
    })
    const response = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }))
    assertEqual(response.status, 502)
    const error = (await response.json()) as { error: { message: string; type: string } }
    assertEqual(error.error.type, 'upstream_error')
    assert(error.error.message.includes('ECONNREFUSED') && error.error.message.includes('http://upstream.test/v1'), error.error.message)
  })

  test('upstream errors (non-2xx) come back untouched, status and body', async () => {
    const body = JSON.stringify({ error: { message: 'Authentication Fails', type: 'authentication_error' } })
    const upstream = recordingUpstream(() => new Response(body, { status: 401, statusText: 'Unauthorized', headers: { 'content-type': 'application/json' } }))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const response = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }))
    assertEqual(response.status, 401)
    assertEqual(await response.text(), body)
  })

  test('a client that leaves mid-stream aborts the upstream call; one whose response completed does not (Deno aborts request.signal then), and the upstream never gets the request\'s own signal', async () => {
    const upstream = recordingUpstream(() => sseResponse(['hi', ' there']))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const leaving = new AbortController()
    const cut = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { signal: leaving.signal }))
    const reader = cut.body!.getReader()
    await reader.read()
    leaving.abort()
    assertEqual(upstream.calls[0]!.signal.aborted, true, 'the client left mid-stream: upstream aborted')
    await reader.cancel()

    const completing = new AbortController()
    const done = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { signal: completing.signal }))
    await done.text()
    const forwarded = upstream.calls[1]!.signal
    assert(forwarded !== completing.signal, 'a signal of the gateway\'s own')
    completing.abort()
    assertEqual(forwarded.aborted, false, 'the response completed: the late abort reaches nothing')

    const cancelling = new AbortController()
    const cancelled = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { signal: cancelling.signal }))
    await cancelled.body!.cancel()
    assertEqual(upstream.calls[2]!.signal.aborted, true, 'a cancelled body is a client that went away')
  })

  test('under Deno.serve (a second argument with a completed promise) request.signal is never read (Deno warns when it is): completed rejecting aborts the upstream, resolving does not', async () => {
    const upstream = recordingUpstream(() => sseResponse(['hi', ' there']))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch })
    const denoRequest = (): Request => {
      const request = chatRequest({ model: 'm', stream: true, messages: [userTurn] })
      Object.defineProperty(request, 'signal', {
        get() {
          throw new Error('request.signal was read')
        },
      })
      return request
    }
    let clientGone: (reason: unknown) => void = () => {}
    const gone = await gateway(denoRequest(), { completed: new Promise((_resolve, reject) => (clientGone = reject)) })
    const reader = gone.body!.getReader()
    await reader.read()
    clientGone(new Error('the client went away'))
    await new Promise((resolve) => setTimeout(resolve, 0))
    assertEqual(upstream.calls[0]!.signal.aborted, true, 'completed rejected: upstream aborted')
    await reader.cancel()
    let delivered: (value: unknown) => void = () => {}
    const completed = new Promise((resolve) => (delivered = resolve))
    const done = await gateway(denoRequest(), { completed })
    await done.text()
    delivered(undefined)
    await new Promise((resolve) => setTimeout(resolve, 0))
    assertEqual(upstream.calls[1]!.signal.aborted, false, 'completed resolved: nothing aborted')
  })

  test('a client that left before the upstream answered gets 499, not a 502 blaming the upstream', async () => {
    const controller = new AbortController()
    const gateway = createChatCompletionsGateway({
      upstream: UPSTREAM,
      fetch: async (request) => {
        controller.abort()
        if (request.signal.aborted) throw new DOMException('This operation was aborted', 'AbortError')
        return sseResponse(['unreachable'])
      },
    })
    const response = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }, { signal: controller.signal }))
    assertEqual(response.status, 499)
    assertEqual(((await response.json()) as { error: { type: string } }).error.type, 'client_closed_request')
  })

  test('cancelling the repaired body cancels the upstream body', async () => {
    let cancelled = false
    const encoder = new TextEncoder()
    const gateway = createChatCompletionsGateway({
      upstream: UPSTREAM,
      fetch: async () => {
        let sent = 0
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const chunk = { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `word ${sent++} ` }, finish_reason: null }] }
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`))
          },
          cancel() {
            cancelled = true
          },
        })
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
      },
    })
    const response = await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn] }))
    const reader = response.body!.getReader()
    const first = await reader.read()
    assert(!first.done, 'some output before the cancel')
    await reader.cancel()
    // The cancel reaches the upstream through the pipe a few microtasks later.
    for (let tries = 0; tries < 50 && !cancelled; tries++) await new Promise((resolve) => setTimeout(resolve, 2))
    assertEqual(cancelled, true)
  })

  test('mode "off" forwards the history as is and passes the response through', async () => {
    const leak = `Text ${readCall}`
    const upstream = recordingUpstream(() => sseResponse(pieces(leak)))
    const gateway = createChatCompletionsGateway({ upstream: UPSTREAM, fetch: upstream.fetch, mode: 'off' })
    const history = { role: 'assistant', content: leak }
    const seen = await readSse(await gateway(chatRequest({ model: 'm', stream: true, messages: [userTurn, history] })))
    assertEqual((upstream.calls[0]!.body.messages as unknown[])[1], history)
    assertEqual(seen.content, leak)
    assertEqual(seen.calls, [])
  })
})
