/**
 * `repairChatCompletionsResponse` (and `repairChatCompletion` under it):
 *
 * - an SSE body goes through the fused stream (same bytes as the core);
 * - a JSON `chat.completion` body has `message.content` repaired into
 *   `message.tool_calls` and `finish_reason`, every other field kept; a body
 *   nothing touched comes back byte for byte;
 * - status, status text and headers are kept, minus `content-length`;
 *   non-2xx responses, other content types and empty bodies pass through
 *   untouched (the same Response).
 */
import { repairChatCompletion, repairChatCompletionsResponse } from '../../src/chat-completions/index.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import { assert, assertEqual, rejectionOf } from '../support/assert.ts'
import { block, invoke, leaksMarkup, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, counterIds, fromUtf8, readRepaired, repair, utf8 } from './support.ts'

const BASH = block([invoke('bash', [param('command', 'ls -la')])])

function completion(message: Record<string, unknown>, finish: string | null = 'stop'): Record<string, unknown> {
  return {
    id: 'chatcmpl-json-1',
    object: 'chat.completion',
    created: 1754550000,
    model: 'deepseek-v4-flash',
    system_fingerprint: 'fp_json_prod0820',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 10 },
    x_vendor: { trace: 'abc' },
  }
}

function jsonResponse(body: string, init: ResponseInit = {}): Response {
  return new Response(body, {
    status: 200,
    statusText: 'OK',
    ...init,
    headers: { 'content-type': 'application/json', 'content-length': String(utf8(body).length), 'x-request-id': 'req-1', ...(init.headers as Record<string, string> | undefined) },
  })
}

function sseResponse(body: string): Response {
  return new Response(body, {
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'content-length': String(utf8(body).length), 'x-request-id': 'req-2', 'cache-control': 'no-cache' },
  })
}

export const suite = defineSuite('chat-completions/response', (test) => {
  test('SSE body: repaired through the fused stream (same output as the core), status and headers kept minus content-length', async () => {
    const body = answer(['Listing. ', BASH])
    const response = await repairChatCompletionsResponse(sseResponse(body), { generateId: counterIds() })
    assertEqual(response.status, 200, 'status')
    assertEqual(response.statusText, 'OK', 'status text')
    assertEqual(response.headers.get('content-type'), 'text/event-stream; charset=utf-8', 'content-type')
    assertEqual(response.headers.get('x-request-id'), 'req-2', 'other headers')
    assertEqual(response.headers.get('cache-control'), 'no-cache', 'cache-control')
    assertEqual(response.headers.get('content-length'), null, 'content-length removed')
    const output = await response.text()
    assertEqual(output, repair(body).output, 'same bytes as the fused core')
    const repaired = readRepaired(output)
    assertEqual(repaired.finishReasons, ['tool_calls'], 'finish')
    assertEqual(repaired.calls.length, 1, 'call')
  })

  test('SSE body: options reach the stream (mode strip, onDiagnostic)', async () => {
    const diagnostics: Diagnostic[] = []
    const response = await repairChatCompletionsResponse(sseResponse(answer([BASH])), { mode: 'strip', onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) })
    const repaired = readRepaired(await response.text())
    assertEqual(repaired.calls, [], 'no call in strip mode')
    assertEqual(repaired.finishReasons, ['stop'], 'finish')
    assert(diagnostics.some((diagnostic) => diagnostic.kind === 'dropped-markup'), 'diagnostics reported')
  })

  test('JSON body: message.content repaired into message.tool_calls, finish stop → tool_calls, every other field kept', async () => {
    const original = completion({ content: `Let me look. ${BASH}` })
    const response = await repairChatCompletionsResponse(jsonResponse(JSON.stringify(original)), { generateId: counterIds() })
    assertEqual(response.status, 200, 'status')
    assertEqual(response.headers.get('content-length'), null, 'content-length removed')
    assertEqual(response.headers.get('x-request-id'), 'req-1', 'headers kept')
    assertEqual(response.headers.get('content-type'), 'application/json', 'content-type')
    const body = (await response.json()) as Record<string, unknown>
    const expected = completion({
      content: 'Let me look. ',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls -la"}' } }],
    }, 'tool_calls')
    assertEqual(body, expected, 'repaired body')
  })

  test('JSON body: reasoning_content is cleaned too, content null kept when it was null', async () => {
    const original = completion({ content: null, reasoning_content: `Thinking. ${BASH}` })
    const body = (await (await repairChatCompletionsResponse(jsonResponse(JSON.stringify(original)), { generateId: counterIds() })).json()) as {
      choices: Array<{ message: Record<string, unknown>; finish_reason: string }>
    }
    const message = body.choices[0]?.message ?? {}
    assertEqual(message.reasoning_content, 'Thinking. ', 'reasoning cleaned')
    assertEqual(message.content, null, 'content null kept')
    assertEqual((message.tool_calls as unknown[]).length, 1, 'call recovered')
    assertEqual(body.choices[0]?.finish_reason, 'tool_calls', 'finish')
  })

  test('JSON body with native tool_calls and a leak: content cleaned, native calls and finish untouched; the same call is a duplicate-call, another a suppressed-call (the settlement of the streams)', async () => {
    for (const [args, kind] of [['{"command":"ls -la"}', 'duplicate-call'], ['{"command":"pwd"}', 'suppressed-call']] as const) {
      const native = [{ id: 'call_native', type: 'function', function: { name: 'bash', arguments: args } }]
      const diagnostics: Diagnostic[] = []
      const original = completion({ content: BASH, tool_calls: native }, 'tool_calls')
      const body = (await (await repairChatCompletionsResponse(jsonResponse(JSON.stringify(original)), { onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) })).json()) as Record<string, unknown>
      assertEqual(body, completion({ content: '', tool_calls: native }, 'tool_calls'), 'body')
      assertEqual(diagnostics.filter((diagnostic) => diagnostic.toolCallId !== undefined).map((diagnostic) => diagnostic.kind), [kind], args)
    }
  })

  test('JSON body finished by length: markup removed, no call added, finish kept; recoverOnTruncation adds it', async () => {
    const original = JSON.stringify(completion({ content: `a ${BASH}` }, 'length'))
    const plain = (await (await repairChatCompletionsResponse(jsonResponse(original))).json()) as { choices: Array<{ message: Record<string, unknown>; finish_reason: string }> }
    assertEqual(plain.choices[0]?.message, { role: 'assistant', content: 'a ' }, 'no tool_calls')
    assertEqual(plain.choices[0]?.finish_reason, 'length', 'finish kept')
    const allowed = (await (await repairChatCompletionsResponse(jsonResponse(original), { recoverOnTruncation: true })).json()) as {
      choices: Array<{ message: Record<string, unknown>; finish_reason: string }>
    }
    assertEqual((allowed.choices[0]?.message.tool_calls as unknown[]).length, 1, 'call added')
    assertEqual(allowed.choices[0]?.finish_reason, 'length', 'finish kept')
  })

  test('JSON body nothing touched: the body comes back byte for byte (odd spacing kept), headers minus content-length', async () => {
    const text = '{ "id":"x", "object" : "chat.completion",\n "choices":[{"index":0,"message":{"role":"assistant","content":"plain a < b"},"finish_reason":"stop"}], "é":"你好" }'
    const response = await repairChatCompletionsResponse(jsonResponse(text))
    assertEqual(fromUtf8(new Uint8Array(await response.arrayBuffer())), text, 'same bytes')
    assertEqual(response.headers.get('content-length'), null, 'content-length removed')
    assertEqual(response.headers.get('x-request-id'), 'req-1', 'other headers kept')
  })

  test('JSON body that is not JSON, or no chat.completion: passed through as it came', async () => {
    for (const text of ['{"id": broken', '{"error":{"message":"x"}}', '[1,2]']) {
      const response = await repairChatCompletionsResponse(jsonResponse(text))
      assertEqual(await response.text(), text, text)
      assertEqual(response.status, 200, 'status')
    }
  })

  test('non-2xx responses pass through untouched: the same Response, body unread', async () => {
    for (const status of [400, 401, 429, 500, 503]) {
      const original = jsonResponse(JSON.stringify(completion({ content: BASH })), { status, statusText: 'Nope' })
      const response = await repairChatCompletionsResponse(original)
      assert(response === original, `${status}: same Response`)
      assert(!original.bodyUsed, `${status}: body unread`)
      assertEqual(await response.text(), JSON.stringify(completion({ content: BASH })), `${status}: body untouched`)
    }
    const sse = new Response(answer([BASH]), { status: 500, headers: { 'content-type': 'text/event-stream' } })
    assert((await repairChatCompletionsResponse(sse)) === sse, 'a failing SSE response too')
  })

  test('other content types and empty bodies pass through untouched', async () => {
    const plain = new Response(BASH, { status: 200, headers: { 'content-type': 'text/plain' } })
    assert((await repairChatCompletionsResponse(plain)) === plain, 'text/plain: same Response')
    const empty = new Response(null, { status: 204 })
    assert((await repairChatCompletionsResponse(empty)) === empty, '204: same Response')
    const noType = new Response(BASH, { status: 200 })
    noType.headers.delete('content-type')
    assert((await repairChatCompletionsResponse(noType)) === noType, 'no content-type: same Response')
  })

  test('not a Response: TypeError saying what was expected', async () => {
    const error = await rejectionOf(repairChatCompletionsResponse({ body: null } as unknown as Response))
    assert(error instanceof TypeError && /Response/.test(error.message), `TypeError: ${String(error)}`)
  })

  test('repairChatCompletion: undefined when nothing changed; the input object is never modified', () => {
    const clean = completion({ content: 'hello' })
    assertEqual(repairChatCompletion(clean), undefined, 'nothing changed')
    assertEqual(repairChatCompletion({ object: 'list' }), undefined, 'not a completion')
    assertEqual(repairChatCompletion(null), undefined, 'null')
    const leaky = completion({ content: BASH })
    const snapshot = JSON.stringify(leaky)
    const repaired = repairChatCompletion(leaky, { generateId: counterIds() }) as { choices: Array<{ message: { content: string } }> }
    assertEqual(JSON.stringify(leaky), snapshot, 'input not modified')
    assertEqual(repaired.choices[0]?.message.content, '', 'repaired copy')
    assert(!leaksMarkup(JSON.stringify(repaired)), 'no markup left')
  })

  test('repairChatCompletion: every choice is repaired (n > 1)', () => {
    const body = completion({ content: BASH })
    ;(body.choices as unknown[]).push({ index: 1, message: { role: 'assistant', content: `two ${BASH}` }, logprobs: null, finish_reason: 'stop' })
    const repaired = repairChatCompletion(body, { generateId: counterIds() }) as { choices: Array<{ message: Record<string, unknown>; finish_reason: string }> }
    assertEqual(repaired.choices.map((choice) => choice.message.content), ['', 'two '], 'content')
    assertEqual(repaired.choices.map((choice) => choice.finish_reason), ['tool_calls', 'tool_calls'], 'finish')
  })

  test('JSON body: a call drafted in reasoning_content and leaked in content is added once, as the stream sends it', async () => {
    const original = completion({ content: BASH, reasoning_content: `Plan: ${BASH}` })
    const body = (await (await repairChatCompletionsResponse(jsonResponse(JSON.stringify(original)), { generateId: counterIds() })).json()) as {
      choices: Array<{ message: { tool_calls: unknown[] } }>
    }
    assertEqual(body.choices[0]?.message.tool_calls.length, 1, 'one call, as the streaming path gives')
  })

  test('streamed and non-streamed answers give the same calls and content', async () => {
    const content = `Checking. ${block([invoke('read', [param('path', '/a')]), invoke('bash', [param('command', 'pwd')])])}`
    const json = (await (await repairChatCompletionsResponse(jsonResponse(JSON.stringify(completion({ content }))), { generateId: counterIds() })).json()) as {
      choices: Array<{ message: { content: string; tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason: string }>
    }
    const streamed = readRepaired(repair(answer([content])).output)
    const choice = json.choices[0]
    assertEqual(choice?.message.content, streamed.content, 'content')
    assertEqual(choice?.message.tool_calls.map((call) => [call.id, call.function.name, call.function.arguments]), streamed.calls.map((call) => [call.id, call.name, call.arguments]), 'calls')
    assertEqual(choice?.finish_reason, streamed.finishReasons[0], 'finish')
  })
})
