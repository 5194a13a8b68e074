/**
 * `repairLingmaResponse`: a Lingma upstream's `Response` → a Chat Completions
 * one — streamed, collected into a `chat.completion` for a non-streaming
 * request, and HTTP errors as OpenAI-style JSON errors with the status the
 * envelope names. Native calls whose first delta leaves out `type` get it.
 */
import { lingmaEvents } from '../../src/cli/replay-framing.ts'
import { repairLingmaResponse } from '../../src/lingma/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { hasMarker, readSse } from '../gateway/support.ts'
import { convert } from './support.ts'

const leak = `Listing. ${block([invoke('bash', [param('command', 'ls -la')])])}`
const lingmaBody = (deltas: readonly string[]): string => lingmaEvents('t', 'auto', deltas, 3, 1).join('')
const upstream = (body: string, status = 200): Response => new Response(body, { status, headers: { 'content-type': 'text/event-stream' } })

export const suite = defineSuite('lingma/response', (test) => {
  test('a streaming request: repaired Chat Completions SSE, the leak as a tool call, no marker, [DONE]', async () => {
    const response = await repairLingmaResponse(upstream(lingmaBody(tokenChunks(leak))), { generateId: () => 'call_1' })
    assertEqual(response.status, 200)
    const seen = await readSse(response)
    assertEqual(seen.calls, [{ id: 'call_1', name: 'bash', arguments: { command: 'ls -la' } }])
    assertEqual([seen.content.trimEnd(), seen.finishReasons, seen.done], ['Listing.', ['tool_calls'], true])
    assert(!hasMarker(seen.content), 'no marker')
  })

  test('a non-streaming request: one chat.completion with the recovered call, the clean text, tool_calls finish and the usage', async () => {
    const response = await repairLingmaResponse(upstream(lingmaBody(tokenChunks(leak))), { stream: false, generateId: () => 'call_1' })
    assertEqual([response.status, response.headers.get('content-type')], [200, 'application/json'])
    const completion = (await response.json()) as Record<string, unknown>
    assertEqual(completion.object, 'chat.completion')
    assertEqual(completion.choices, [
      {
        index: 0,
        message: { role: 'assistant', content: 'Listing. ', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls -la"}' } }] },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ])
    assertEqual((completion.usage as { prompt_tokens: number }).prompt_tokens, 3)
  })

  test('an error: a Lingma error frame mid-stream, non-streaming, is a JSON error with its status; an HTTP error with an envelope takes the envelope\'s status; one without keeps the upstream\'s', async () => {
    const frame = 'data: {"body":"{\\"code\\":\\"provider_error\\",\\"message\\":\\"Rate limit reached\\",\\"statusCodeValue\\":429}"}\n\n'
    const midStream = await repairLingmaResponse(upstream(lingmaEvents('t', 'auto', ['Hi'], 1, 1)[0]! + frame), { stream: false })
    assertEqual(midStream.status, 429)
    assertEqual(((await midStream.json()) as { error: { message: string } }).error.message, 'Rate limit reached')
    const enveloped = await repairLingmaResponse(upstream('{"body":{"code":"provider_error","message":"Busy","statusCodeValue":503}}', 500))
    assertEqual(enveloped.status, 503)
    assertEqual(((await enveloped.json()) as { error: { message: string; type: string } }).error.message, 'Busy')
    const plain = await repairLingmaResponse(upstream('<html>Bad gateway</html>', 502))
    assertEqual(plain.status, 502)
    const body = (await plain.json()) as { error: { message: string; type: string } }
    assertEqual(body.error.type, 'upstream_error')
    assert(body.error.message.includes('Bad gateway'), body.error.message)
    const truncated = await repairLingmaResponse(upstream('x'.repeat(100), 500), { maxErrorBodyBytes: 10 })
    assert(!((await truncated.json()) as { error: { message: string } }).error.message.includes('x'.repeat(11)), 'at most maxErrorBodyBytes of an error body are read')
  })

  test('a native call whose first delta leaves out type gets type "function" (OpenAI SDK readers need it); an index that is no whole number becomes 0', () => {
    const chunk = { choices: [{ index: 0, delta: { tool_calls: [{ index: 'x', id: 'call_n', function: { name: 'read', arguments: '{}' } }] } }] }
    const out = convert(`data: ${JSON.stringify(chunk)}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n`)
    const written = out.split('\n').filter((line) => line.includes('call_n'))
    assertEqual(written.length, 1)
    const delta = (JSON.parse(written[0]!.slice(6)) as { choices: Array<{ delta: { tool_calls: unknown[] } }> }).choices[0]!.delta.tool_calls[0]
    assertEqual(delta, { index: 0, id: 'call_n', type: 'function', function: { name: 'read', arguments: '{}' } })
  })
})
