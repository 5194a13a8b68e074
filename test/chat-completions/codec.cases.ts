/**
 * The Chat Completions decoder and encoder on their own, then together:
 *
 * - decoder: which parts each chunk gives (text, reasoning, native tool-call
 *   deltas, finish, usage, error, done, passthrough, comment), each group
 *   closed by `chunk-end` whose origin keeps the message whole;
 * - encoder: a group nothing touched is forwarded as it came, byte for byte
 *   (odd spacing and key order kept, no re-serialising); a changed group is
 *   rebuilt from its chunk with every field it does not change kept (id,
 *   object, created, model, system_fingerprint, service_tier, logprobs,
 *   usage, unknown keys at every level, other choices); usage on its own
 *   `choices: []` chunk or on the last chunk; mid-stream `{"error": ...}`
 *   objects and `[DONE]` forwarded; comments forwarded at once;
 * - decoder → encoder (and the whole repair) over a stream with no markup:
 *   the output is the input, byte for byte.
 */
import { encodeSseMessage } from '../../src/sse/index.ts'
import { createChatCompletionsDecoder, createChatCompletionsEncoder } from '../../src/chat-completions/index.ts'
import { decodeChatCompletionsMessage } from '../../src/chat-completions/decoder.ts'
import type { ChunkOrigin, Part } from '../../src/parts/part.ts'
import type { SseEvent, SseMessage } from '../../src/sse/types.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import {
  chunkJson,
  composedBytes,
  ENVELOPE,
  fromUtf8,
  fusedBytes,
  readRepaired,
  repair,
  repairChunks,
  utf8,
} from './support.ts'

/** A chunk written by hand: odd spacing, unusual key order, unknown keys at every level. */
const ODD =
  '{ "choices" :[ {"delta": {"content":"Hello", "obfuscation":"x1"} ,"index": 0 , "finish_reason" :null, "logprobs":{"content":[{"token":"Hello","logprob":-0.1}]} } ],' +
  '  "model":"deepseek-v4-flash","id" : "chatcmpl-odd", "created":1754550000, "object":"chat.completion.chunk",' +
  ' "system_fingerprint":"fp_odd", "service_tier":"default", "x_provider":{"region":"eu"}, "usage":null }'

const LEAK = block([invoke('bash', [param('command', 'ls -la')])])

/** Parts without their origins (for readable comparisons). */
function shapes(parts: readonly Part[]): unknown[] {
  return parts.map((part) => {
    const { origin: _origin, ...rest } = part as Part & { origin?: unknown }
    return rest
  })
}

/** The origin the decoder's group closes with. */
function originOf(parts: readonly Part[]): ChunkOrigin {
  const end = parts.find((part) => part.type === 'chunk-end')
  assert(end !== undefined && end.type === 'chunk-end' && end.origin !== undefined, 'a chunk-end with its origin')
  return end.origin
}

/** Feeds parts to a fresh encoder, then ends it; returns the messages. */
function encode(parts: readonly Part[]): SseMessage[] {
  const encoder = createChatCompletionsEncoder()
  const out: SseMessage[] = []
  for (const part of parts) out.push(...encoder.feed(part))
  out.push(...encoder.end())
  return out
}

function dataOf(messages: readonly SseMessage[]): string[] {
  return messages.map((message) => ('data' in message ? message.data : `: ${message.comment}`))
}

/** Replaces the decoder's text part of a group with `text` (a stage changed it). */
function withText(parts: readonly Part[], text: string): Part[] {
  return parts.map((part) => (part.type === 'text' ? { type: 'text', text } : part))
}

export const suite = defineSuite('chat-completions/codec', (test) => {
  // ------------------------------------------------------------------ decoder

  test('decoder: a role chunk gives one empty text part and a chunk-end whose origin keeps the message whole', () => {
    const data = chunkJson({ role: 'assistant', content: '' })
    const parts = decodeChatCompletionsMessage({ data, event: 'message', id: '41' })
    assertEqual(shapes(parts), [{ type: 'text', text: '' }, { type: 'chunk-end' }], 'parts')
    const origin = originOf(parts)
    assertEqual(origin.data, data, 'origin data is the message data, exactly')
    assertEqual(origin.event, 'message', 'SSE event kept')
    assertEqual(origin.id, '41', 'SSE id kept')
    assertEqual(origin.chunk, JSON.parse(data), 'parsed chunk')
    assertEqual(origin.parts.length, 1, 'origin lists the parts it made')
    assert(origin.parts[0] === parts[0], 'origin parts are the same objects')
    assert((parts[0] as { origin?: unknown }).origin === origin, 'each part points at its origin')
  })

  test('decoder: reasoning before text, then native tool-call deltas, finish and usage, in that order', () => {
    const data = chunkJson(
      {
        reasoning_content: 'think',
        content: 'say',
        tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"p' } },
          { index: 1, function: { arguments: '1}' } },
          { function: { name: 'noindex' } },
        ],
      },
      'tool_calls',
      { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
    )
    assertEqual(
      shapes(decodeChatCompletionsMessage({ data })),
      [
        { type: 'reasoning', text: 'think' },
        { type: 'text', text: 'say' },
        { type: 'native-tool-call', index: 0, id: 'call_a', name: 'read', arguments: '{"p' },
        { type: 'native-tool-call', index: 1, arguments: '1}' },
        { type: 'native-tool-call', index: 0, name: 'noindex' },
        { type: 'finish', reason: 'tool_calls' },
        { type: 'usage', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
        { type: 'chunk-end' },
      ],
      'parts',
    )
  })

  test('decoder: content null (DeepSeek reasoning phase), usage null and an empty delta give no parts', () => {
    assertEqual(shapes(decodeChatCompletionsMessage({ data: chunkJson({ content: null, reasoning_content: 'r' }) })), [
      { type: 'reasoning', text: 'r' },
      { type: 'chunk-end' },
    ])
    assertEqual(shapes(decodeChatCompletionsMessage({ data: chunkJson({}, null, { usage: null }) })), [{ type: 'chunk-end' }])
  })

  test('decoder: usage on its own choices: [] chunk, and on the last chunk with the finish', () => {
    const usage = { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 9 }
    assertEqual(shapes(decodeChatCompletionsMessage({ data: JSON.stringify({ ...ENVELOPE, choices: [], usage }) })), [
      { type: 'usage', usage },
      { type: 'chunk-end' },
    ])
    assertEqual(shapes(decodeChatCompletionsMessage({ data: chunkJson({}, 'stop', { usage }) })), [
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage },
      { type: 'chunk-end' },
    ])
  })

  test('decoder: only choice 0 is read, wherever it sits in the array', () => {
    const data = JSON.stringify({
      ...ENVELOPE,
      choices: [
        { index: 1, delta: { content: 'second' }, finish_reason: 'length' },
        { index: 0, delta: { content: 'first' }, finish_reason: null },
      ],
    })
    assertEqual(shapes(decodeChatCompletionsMessage({ data })), [{ type: 'text', text: 'first' }, { type: 'chunk-end' }])
    const onlyOther = JSON.stringify({ ...ENVELOPE, choices: [{ index: 2, delta: { content: 'x' }, finish_reason: null }] })
    assertEqual(shapes(decodeChatCompletionsMessage({ data: onlyOther })), [{ type: 'chunk-end' }])
  })

  test('decoder: a mid-stream {"error": …} object and an `event: error` message become error parts', () => {
    const error = { message: 'Internal error', type: 'server_error', param: null, code: 'internal_error' }
    assertEqual(shapes(decodeChatCompletionsMessage({ data: JSON.stringify({ error }) })), [{ type: 'error', error }, { type: 'chunk-end' }])
    assertEqual(shapes(decodeChatCompletionsMessage({ data: '{"message":"overloaded"}', event: 'error' })), [
      { type: 'error', error: { message: 'overloaded' } },
      { type: 'chunk-end' },
    ])
  })

  test('decoder: [DONE] gives a done part; a comment a comment part (no chunk-end)', () => {
    const done = decodeChatCompletionsMessage({ data: '[DONE]' })
    assertEqual(shapes(done), [{ type: 'done' }, { type: 'chunk-end' }])
    assertEqual(originOf(done).data, '[DONE]', 'origin data')
    assertEqual(decodeChatCompletionsMessage({ comment: 'keep-alive' }), [{ type: 'comment', comment: 'keep-alive' }])
  })

  test('decoder: malformed JSON is passed through with a malformed-chunk diagnostic; JSON that is no chat chunk is passed through', () => {
    const parts = decodeChatCompletionsMessage({ data: '{"id": "x", "choices": [' })
    assertEqual(parts.map((part) => part.type), ['passthrough', 'chunk-end', 'diagnostic'], 'part types')
    const diagnostic = parts[2]
    assert(diagnostic?.type === 'diagnostic', 'diagnostic part')
    assertEqual(diagnostic.diagnostic.kind, 'malformed-chunk', 'kind')
    assertEqual(diagnostic.diagnostic.text, '', 'removes nothing')
    assertEqual(originOf(parts).data, '{"id": "x", "choices": [', 'origin keeps the data')
    assertEqual(originOf(parts).chunk, undefined, 'no parsed chunk')
    for (const data of ['{"object":"ping"}', '42', '"text"', 'null', '[]']) {
      assertEqual(shapes(decodeChatCompletionsMessage({ data })), [{ type: 'passthrough' }, { type: 'chunk-end' }], data)
    }
  })

  test('decoder: createChatCompletionsDecoder().feed is the same pure function', () => {
    const decoder = createChatCompletionsDecoder()
    const data = chunkJson({ content: 'x' })
    assertEqual(shapes(decoder.feed({ data })), shapes(decodeChatCompletionsMessage({ data })))
  })

  // ------------------------------------------------------------------ encoder

  test('encoder: an untouched group is forwarded as it came: odd spacing, key order, event and id kept byte for byte', () => {
    const message: SseMessage = { data: ODD, event: 'delta', id: 'e-7' }
    const out = encode(decodeChatCompletionsMessage(message))
    assertEqual(out, [{ data: ODD, event: 'delta', id: 'e-7' }], 'forwarded whole')
    assertEqual(encodeSseMessage(out[0] as SseMessage), `event: delta\nid: e-7\ndata: ${ODD}\n\n`, 'wire form')
  })

  test('encoder: a changed group is rebuilt from its chunk, every field it does not change kept', () => {
    const out = encode(withText(decodeChatCompletionsMessage({ data: ODD }), 'Hel'))
    assertEqual(out.length, 1, 'one message')
    const original = JSON.parse(ODD) as Record<string, unknown>
    const rebuilt = JSON.parse((out[0] as { data: string }).data) as Record<string, unknown>
    const expectedChoice = { ...(original.choices as Array<Record<string, unknown>>)[0] }
    expectedChoice.delta = { content: 'Hel', obfuscation: 'x1' }
    assertEqual(rebuilt, { ...original, choices: [expectedChoice] }, 'only delta.content changed')
    assertEqual(Object.keys(rebuilt), Object.keys(original), 'top-level key order kept')
    assertEqual(
      Object.keys((rebuilt.choices as Array<Record<string, unknown>>)[0] as object),
      Object.keys((original.choices as Array<Record<string, unknown>>)[0] as object),
      'choice key order kept',
    )
  })

  test('encoder: other choices of a rebuilt chunk are kept as they came', () => {
    const other = { index: 1, delta: { content: LEAK }, logprobs: null, finish_reason: null, extra: true }
    const data = JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: 'abc' }, logprobs: null, finish_reason: null }, other] })
    const out = encode(withText(decodeChatCompletionsMessage({ data }), 'a'))
    const rebuilt = JSON.parse((out[0] as { data: string }).data) as { choices: unknown[] }
    assertEqual(rebuilt.choices, [{ index: 0, delta: { content: 'a' }, logprobs: null, finish_reason: null }, other], 'choices')
  })

  test('encoder: reasoning changed → reasoning_content rebuilt, content null kept', () => {
    const parts = decodeChatCompletionsMessage({ data: chunkJson({ content: null, reasoning_content: 'draft <x' }) }).map((part) =>
      part.type === 'reasoning' ? ({ type: 'reasoning', text: 'draft ' } as Part) : part,
    )
    const rebuilt = JSON.parse((encode(parts)[0] as { data: string }).data) as { choices: Array<{ delta: unknown }> }
    assertEqual(rebuilt.choices[0]?.delta, { content: null, reasoning_content: 'draft ' })
  })

  test('encoder: synthesized calls and the rewritten finish land in the finish chunk, arguments as a JSON string, after its native deltas', () => {
    const data = chunkJson({ content: '', tool_calls: [{ index: 0, id: 'call_native', type: 'function', function: { name: 'a', arguments: '{}' } }] }, 'stop', {
      usage: { total_tokens: 5 },
    })
    const parts = decodeChatCompletionsMessage({ data })
    const end = parts.pop() as Part
    const finishAt = parts.findIndex((part) => part.type === 'finish')
    parts.splice(finishAt, 1, { type: 'synthesized-tool-call', index: 1, call: { id: 'call_x', name: 'bash', arguments: { command: 'ls', n: 2, __proto__x: null } } }, {
      type: 'finish',
      reason: 'tool_calls',
    })
    parts.push(end)
    const out = encode(parts)
    const rebuilt = JSON.parse((out[0] as { data: string }).data) as Record<string, unknown>
    assertEqual(rebuilt, {
      ...ENVELOPE,
      choices: [
        {
          index: 0,
          delta: {
            content: '',
            tool_calls: [
              { index: 0, id: 'call_native', type: 'function', function: { name: 'a', arguments: '{}' } },
              { index: 1, id: 'call_x', type: 'function', function: { name: 'bash', arguments: '{"command":"ls","n":2,"__proto__x":null}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: { total_tokens: 5 },
    })
  })

  test('encoder: a chunk that carried only removed markup is not written; one with a role, a finish or usage is', () => {
    const onlyMarkup = decodeChatCompletionsMessage({ data: chunkJson({ content: LEAK }) }).filter((part) => part.type !== 'text')
    assertEqual(encode(onlyMarkup), [], 'dropped')
    const withRole = decodeChatCompletionsMessage({ data: chunkJson({ role: 'assistant', content: '<' }) })
    assertEqual(
      dataOf(encode(withText(withRole, ''))),
      [chunkJson({ role: 'assistant', content: '' })],
      'role chunk kept, content emptied',
    )
    const withUsage = decodeChatCompletionsMessage({ data: chunkJson({ content: '<' }, null, { usage: { total_tokens: 1 } }) })
    assertEqual(dataOf(encode(withText(withUsage, ''))), [chunkJson({ content: '' }, null, { usage: { total_tokens: 1 } })], 'usage kept')
  })

  test('encoder: stage output with no chunk of its own goes out in a made-up chunk copying the envelope, before [DONE] or an error', () => {
    const first = decodeChatCompletionsMessage({ data: chunkJson({ content: 'a' }) })
    const done = decodeChatCompletionsMessage({ data: '[DONE]' })
    const parts: Part[] = [...first, { type: 'text', text: '<' }, ...done]
    const out = dataOf(encode(parts))
    assertEqual(out.length, 3, 'three messages')
    assertEqual(out[0], chunkJson({ content: 'a' }), 'first forwarded')
    assertEqual(JSON.parse(out[1] as string), { ...ENVELOPE, choices: [{ index: 0, delta: { content: '<' }, finish_reason: null }] }, 'made-up chunk')
    assertEqual(out[2], '[DONE]', '[DONE] after it, as it came')

    const error = '{"error":{"message":"boom","code":500}}'
    const withError = dataOf(encode([...first, { type: 'text', text: 'tail' }, ...decodeChatCompletionsMessage({ data: error })]))
    assertEqual(withError.slice(2), [error], 'error forwarded as it came, after the made-up chunk')
    assertEqual((JSON.parse(withError[1] as string) as { choices: Array<{ delta: unknown }> }).choices[0]?.delta, { content: 'tail' }, 'made-up chunk')
  })

  test('encoder: stage output left without a chunk-end is written by end() with the last envelope', () => {
    const encoder = createChatCompletionsEncoder()
    const out: SseMessage[] = []
    for (const part of decodeChatCompletionsMessage({ data: chunkJson({ content: 'x' }) })) out.push(...encoder.feed(part))
    out.push(...encoder.feed({ type: 'text', text: 'held' }))
    assertEqual(out.length, 1, 'nothing written before end()')
    out.push(...encoder.end())
    assertEqual(JSON.parse((out[1] as { data: string }).data), { ...ENVELOPE, choices: [{ index: 0, delta: { content: 'held' }, finish_reason: null }] })
    assertEqual(createChatCompletionsEncoder().end(), [], 'an idle encoder writes nothing at the end')
  })

  test('encoder: stage text on a usage chunk with choices: [] gets a choice 0 in front, usage kept', () => {
    const usage = { total_tokens: 3 }
    const parts = decodeChatCompletionsMessage({ data: JSON.stringify({ ...ENVELOPE, choices: [], usage }) })
    parts.unshift({ type: 'text', text: 'late' })
    assertEqual(JSON.parse((encode(parts)[0] as { data: string }).data), {
      ...ENVELOPE,
      choices: [{ index: 0, delta: { content: 'late' }, finish_reason: null }],
      usage,
    })
  })

  test('encoder: comments are written at once, even inside a group; diagnostics and recovered-call parts are not written', () => {
    const encoder = createChatCompletionsEncoder()
    const parts = decodeChatCompletionsMessage({ data: chunkJson({ content: 'x' }) })
    assertEqual(encoder.feed(parts[0] as Part), [], 'text part gathered')
    assertEqual(encoder.feed({ type: 'comment', comment: 'keep-alive' }), [{ comment: 'keep-alive' }], 'comment at once')
    assertEqual(encoder.feed({ type: 'diagnostic', diagnostic: { kind: 'dropped-markup', text: '<x>', message: 'm' } }), [], 'diagnostic')
    assertEqual(encoder.feed({ type: 'tool-call', call: { id: 'c', name: 'n', arguments: { a: 1 } }, source: '<x>' }), [], 'tool-call')
    assertEqual(encoder.feed(parts[1] as Part), [{ data: chunkJson({ content: 'x' }) }], 'group forwarded as it came')
  })

  test('encoder: [DONE], errors, malformed and non-chat messages are forwarded as they came, with their event and id', () => {
    const messages: SseEvent[] = [
      { data: '[DONE]' },
      { data: '{ "error" : {"message":"rate limited","type":"rate_limit"} }', id: '9' },
      { data: 'not json {', event: 'weird' },
      { data: '{"object":"ping"}' },
    ]
    for (const message of messages) assertEqual(encode(decodeChatCompletionsMessage(message)), [message], message.data)
  })

  test('an SSE retry field is forwarded with its message', () => {
    const input = `retry: 3000\ndata: ${chunkJson({ content: 'x' })}\n\n`
    assertEqual(repair(input).output, input, 'retry forwarded with its message')
  })

  // ------------------------------------------------------------------ together

  test('codec: a stream with no markup comes out byte for byte (odd JSON, comments, errors, usage placements, other choices, [DONE])', async () => {
    const input =
      ': keep-alive\n\n' +
      `data: ${chunkJson({ role: 'assistant', content: '' })}\n\n` +
      `event: delta\nid: 1\ndata: ${ODD}\n\n` +
      `data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: 'a < b, 3 | 4' }, logprobs: null, finish_reason: null }, { index: 1, delta: { content: LEAK }, finish_reason: null }] })}\n\n` +
      ': keep-alive\n\n' +
      `data: ${chunkJson({ content: null, reasoning_content: 'reason' })}\n\n` +
      'data: {"error":{"message":"transient","code":"x"}}\n\n' +
      `data: ${chunkJson({ content: '' }, 'stop', { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })}\n\n` +
      `data: ${JSON.stringify({ ...ENVELOPE, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })}\n\n` +
      'data: [DONE]\n\n'
    const { output, diagnostics } = repair(input)
    assertEqual(output, input, 'fused core: output is the input')
    assertEqual(diagnostics, [], 'no diagnostics')
    assertEqual(fromUtf8(await fusedBytes([utf8(input)])), input, 'fused stream')
    assertEqual(fromUtf8(await composedBytes([utf8(input)])), input, 'composed stages')
  })

  test('codec: in a repaired stream, every chunk the repair did not touch is forwarded as it came', () => {
    const odd = (content: string): string => `{"choices":[{"finish_reason":null,"delta":{"content":${JSON.stringify(content)}},"index":0}] ,"id":"q"}`
    const input = [odd('Before. '), odd(LEAK.slice(0, 40)), odd(LEAK.slice(40)), odd(' After.'), '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"id":"q"}', '[DONE]']
      .map((data) => `data: ${data}\n\n`)
      .join('')
    const repaired = readRepaired(repair(input).output)
    assertEqual(repaired.data[0], odd('Before. '), 'untouched chunk before the leak')
    assertEqual(repaired.data[1], odd(' After.'), 'untouched chunk after the leak (the leak chunks are gone)')
    assertEqual(repaired.data.length, 4, 'before, after, finish, [DONE]')
    assertEqual(repaired.finishReasons, ['tool_calls'], 'finish rewritten')
    assertEqual(repaired.content, 'Before.  After.', 'content')
  })

  test('codec: usage on the last chunk survives the finish rewrite; usage on its own chunk is forwarded as it came', () => {
    const usage = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12, prompt_tokens_details: { cached_tokens: 0 }, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 5 }
    const onLast = `data: ${chunkJson({ content: LEAK })}\n\ndata: ${chunkJson({ content: '' }, 'stop', { usage })}\n\ndata: [DONE]\n\n`
    const last = readRepaired(repair(onLast).output)
    assertEqual(last.usages, [usage], 'usage on the rewritten finish chunk')
    assertEqual(last.finishReasons, ['tool_calls'], 'finish')
    assertEqual(last.calls.length, 1, 'call')

    const ownChunk = JSON.stringify({ ...ENVELOPE, choices: [], usage })
    const own = readRepaired(repair(`data: ${chunkJson({ content: LEAK })}\n\ndata: ${chunkJson({}, 'stop')}\n\ndata: ${ownChunk}\n\ndata: [DONE]\n\n`).output)
    assertEqual(own.data.slice(-2), [ownChunk, '[DONE]'], 'usage chunk and [DONE] as they came')
  })

  test('codec: feeding strings or bytes, the repair gives the same output', () => {
    const input = `data: ${chunkJson({ content: 'é 你好 🙂 ' + LEAK })}\n\ndata: ${chunkJson({}, 'stop')}\n\ndata: [DONE]\n\n`
    const asText = repairChunks([input]).output
    assertEqual(repairChunks([utf8(input)]).output, asText, 'bytes')
    assertEqual(repairChunks(Array.from(input)).output, asText, 'one code point at a time')
  })
})
