/**
 * `createToolCallSynthesizer` and `ToolCallSynthesizerStream` on neutral
 * parts, then end to end through the Chat Completions repair:
 *
 * - recovered calls are held until the finish and emitted just before it,
 *   indexed after any native call, `stop` rewritten to `tool_calls`;
 * - native calls in the same message (either order) suppress them all
 *   (`duplicate-call` for one equal to a native call);
 * - `length` / `content_filter` / anything else: nothing unless
 *   `recoverOnTruncation`; no finish: nothing (reported at the end);
 * - a call recovered from both channels is sent once;
 * - ids: `call_` + 24 alphanumerics by default, or an injected `generateId`;
 *   arguments go on the wire as a JSON string.
 */
import { createToolCallSynthesizer, ToolCallSynthesizerStream } from '../../src/parts/index.ts'
import { createAnthropicRepair } from '../../src/anthropic/index.ts'
import { createChatCompletionsRepair } from '../../src/chat-completions/index.ts'
import { createResponsesRepair } from '../../src/responses/index.ts'
import { dsmlMiddleware } from '../../src/ai-sdk/index.ts'
import type { Part } from '../../src/parts/part.ts'
import type { ToolCall } from '../../src/dsml/types.ts'
import type { ToolCallSynthesizerOptions } from '../../src/parts/synthesizer.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, callShapes, collect, readRepaired, repair, streamOf } from '../chat-completions/support.ts'

function recovered(name: string, args: Record<string, unknown>, id = `id_${name}`, channel?: 'text' | 'reasoning'): Part {
  const call: ToolCall = { id, name, arguments: args }
  const part: Part = { type: 'tool-call', call, source: `<markup for ${name}>` }
  if (channel !== undefined) part.channel = channel
  return part
}

const finish = (reason: string): Part => ({ type: 'finish', reason })

function run(parts: readonly Part[], options: ToolCallSynthesizerOptions = {}): { out: Part[]; ended: Part[] } {
  const synthesizer = createToolCallSynthesizer(options)
  const out: Part[] = []
  for (const part of parts) out.push(...synthesizer.feed(part))
  return { out, ended: synthesizer.end() }
}

/** Types and the bits that matter, for compact comparisons. */
function summary(parts: readonly Part[]): string[] {
  return parts.map((part) => {
    switch (part.type) {
      case 'synthesized-tool-call':
        return `call#${part.index}:${part.call.name}:${part.call.id}`
      case 'finish':
        return `finish:${part.reason}`
      case 'diagnostic':
        return `${part.diagnostic.kind}:${part.diagnostic.tool ?? ''}`
      case 'text':
        return `text:${part.text}`
      default:
        return part.type
    }
  })
}

const BASH = block([invoke('bash', [param('command', 'ls')])])

export const suite = defineSuite('parts/synthesizer', (test) => {
  test('recovered calls are held until the finish, then emitted just before it, indexes 0.., stop → tool_calls', () => {
    const text: Part = { type: 'text', text: 'hi' }
    const synthesizer = createToolCallSynthesizer()
    assertEqual(synthesizer.feed(text), [text], 'text passes')
    assertEqual(synthesizer.feed(recovered('a', { x: 1 })), [], 'held')
    assertEqual(synthesizer.feed({ type: 'chunk-end' }), [{ type: 'chunk-end' }], 'chunk-end passes')
    assertEqual(synthesizer.feed(recovered('b', { y: 2 })), [], 'held')
    const origin = { event: undefined, id: undefined, data: '{}', chunk: undefined, parts: [] }
    const out = synthesizer.feed({ type: 'finish', reason: 'stop', origin })
    assertEqual(summary(out), ['call#0:a:id_a', 'recovered-call:a', 'call#1:b:id_b', 'recovered-call:b', 'finish:tool_calls'], 'each call and its diagnostic, then the finish')
    const last = out[out.length - 1]
    assert(last?.type === 'finish' && last.origin === origin, 'the rewritten finish keeps its origin (the chunk it came in)')
    const first = out[0]
    assert(first?.type === 'synthesized-tool-call', 'synthesized part')
    assertEqual(first.call, { id: 'id_a', name: 'a', arguments: { x: 1 } }, 'the recovered call, id kept')
    assertEqual(synthesizer.end(), [], 'nothing left')
  })

  test('no finish, recoverOnTruncation: the calls are emitted at the terminator (before it) or at the end', () => {
    const options = { recoverOnTruncation: true }
    const done: Part = { type: 'done' }
    const atDone = run([recovered('a', { x: 1 }), done, recovered('b', {})], options)
    assertEqual(summary(atDone.out), ['call#0:a:id_a', 'recovered-call:a', 'done'], 'settled before [DONE]')
    assertEqual(summary(atDone.ended), ['call#0:b:id_b', 'recovered-call:b'], 'a call after it, at the end')
    assertEqual(summary(run([recovered('a', { x: 1 }), done]).out), ['suppressed-call:a', 'done'], 'fail closed by default')
  })

  test('a repeated finish after calls were emitted says tool calls too; an error settles what is pending before it', () => {
    const { out } = run([recovered('a', { x: 1 }), finish('stop'), finish('stop')])
    assertEqual(summary(out), ['call#0:a:id_a', 'recovered-call:a', 'finish:tool_calls', 'finish:tool_calls'], 'the second stop rewritten too')
    const error: Part = { type: 'error', error: { message: 'overloaded' } }
    assertEqual(summary(run([recovered('a', { x: 1 }), error], { recoverOnTruncation: true }).out), ['call#0:a:id_a', 'recovered-call:a', 'error'], 'emitted (opted in) before the error, never after it')
    assertEqual(summary(run([recovered('a', { x: 1 }), error]).out), ['suppressed-call:a', 'error'], 'withheld by default, reported before it')
  })

  test('a stop without recovered calls passes unchanged (same part)', () => {
    const stop = finish('stop')
    assert(run([stop]).out[0] === stop, 'same object')
  })

  test('finish tool_calls with recovered calls: calls sent, finish kept', () => {
    assertEqual(summary(run([recovered('a', { x: 1 }), finish('tool_calls')]).out), ['call#0:a:id_a', 'recovered-call:a', 'finish:tool_calls'])
  })

  test('native tool calls in the message suppress every recovered call, whatever the order; the finish passes unchanged', () => {
    const native: Part = { type: 'native-tool-call', index: 0, id: 'call_n', name: 'bash', arguments: '{}' }
    for (const parts of [
      [native, recovered('a', { x: 1 }), finish('tool_calls')],
      [recovered('a', { x: 1 }), native, finish('tool_calls')],
      [recovered('a', { x: 1 }), native, finish('stop')],
    ]) {
      const { out } = run(parts)
      assertEqual(summary(out.filter((part) => part.type !== 'native-tool-call')), ['suppressed-call:a', `finish:${(parts[2] as { reason: string }).reason}`], 'suppressed')
      assert(out.includes(native), 'native part passes')
    }
  })

  test('a recovered call equal to a native call of the message (streamed in fragments) is a duplicate-call; the settlement skips the engine\'s recovered-call', () => {
    const start: Part = { type: 'native-tool-call', index: 0, id: 'call_n', name: 'bash', arguments: '{"command":' }
    const rest: Part = { type: 'native-tool-call', index: 0, arguments: '"ls"}' }
    const engineSaid: Part = { type: 'diagnostic', diagnostic: { kind: 'recovered-call', text: '', tool: 'bash', message: 'Recovered a call to "bash"' } }
    for (const parts of [
      [start, rest, recovered('bash', { command: 'ls' }), engineSaid, recovered('bash', { command: 'pwd' }), finish('tool_calls')],
      [recovered('bash', { command: 'ls' }), engineSaid, recovered('bash', { command: 'pwd' }), start, rest, finish('tool_calls')],
    ]) {
      assertEqual(summary(run(parts).out.filter((part) => part.type !== 'native-tool-call')), ['duplicate-call:bash', 'suppressed-call:bash', 'finish:tool_calls'])
    }
  })

  test('recovered calls are indexed after native call indexes the message used', () => {
    // A native delta without id or name (an arguments fragment) is no new call, but its index is taken.
    const fragment: Part = { type: 'native-tool-call', index: 2, arguments: '"}' }
    assertEqual(summary(run([fragment, recovered('a', { x: 1 }), recovered('b', {}), finish('stop')]).out), [
      'native-tool-call',
      'call#3:a:id_a',
      'recovered-call:a',
      'call#4:b:id_b',
      'recovered-call:b',
      'finish:tool_calls',
    ])
  })

  test('length, content_filter, insufficient_system_resource: nothing sent, finish kept; recoverOnTruncation sends them, finish kept', () => {
    for (const reason of ['length', 'content_filter', 'insufficient_system_resource']) {
      assertEqual(summary(run([recovered('a', { x: 1 }), finish(reason)]).out), ['suppressed-call:a', `finish:${reason}`], reason)
      assertEqual(summary(run([recovered('a', { x: 1 }), finish(reason)], { recoverOnTruncation: true }).out), ['call#0:a:id_a', 'recovered-call:a', `finish:${reason}`], `${reason} + option`)
    }
  })

  test('no finish: nothing is sent; end() reports each call as suppressed, with its channel', () => {
    const { out, ended } = run([recovered('a', { x: 1 }), recovered('b', { y: 1 }, 'id_b', 'reasoning')])
    assertEqual(out, [], 'nothing during the stream')
    assertEqual(summary(ended), ['suppressed-call:a', 'suppressed-call:b'], 'reported at the end')
    assertEqual((ended[1] as { channel?: string }).channel, 'reasoning', 'channel kept')
    assertEqual((ended[0] as { channel?: string }).channel, 'text', 'text (a recovered call without a channel came from text)')
    const diagnostic = ended[0]
    assert(diagnostic?.type === 'diagnostic', 'diagnostic')
    assertEqual(diagnostic.diagnostic.text, '<markup for a>', 'the withheld call\'s markup')
    assertEqual(diagnostic.diagnostic.message, 'Call to "a" not emitted: the stream ended without a finish (set recoverOnTruncation to emit it)', 'says why')
    assertEqual(diagnostic.diagnostic.toolCallId, 'id_a', 'names the call')
  })

  test('the same call from reasoning and text is sent once; the same call twice in one channel twice', () => {
    const draft = recovered('bash', { command: 'ls', flags: { a: 1, b: 2 } }, 'id_r', 'reasoning')
    const copy = recovered('bash', { flags: { b: 2, a: 1 }, command: 'ls' }, 'id_t', 'text')
    assertEqual(summary(run([draft, copy, finish('stop')]).out), ['call#0:bash:id_r', 'recovered-call:bash', 'duplicate-call:bash', 'finish:tool_calls'], 'cross-channel copy (key order ignored)')
    const again = recovered('bash', { command: 'ls', flags: { a: 1, b: 2 } }, 'id_t2', 'text')
    assertEqual(summary(run([copy, again, finish('stop')]).out), ['call#0:bash:id_t', 'recovered-call:bash', 'call#1:bash:id_t2', 'recovered-call:bash', 'finish:tool_calls'], 'same channel: both')
    const other = recovered('bash', { command: 'pwd' }, 'id_o', 'text')
    assertEqual(summary(run([draft, other, finish('stop')]).out), ['call#0:bash:id_r', 'recovered-call:bash', 'call#1:bash:id_o', 'recovered-call:bash', 'finish:tool_calls'], 'different arguments: both')
  })

  test('custom stopFinishReason and toolCallsFinishReason', () => {
    const options = { stopFinishReason: 'end_turn', toolCallsFinishReason: 'tool_use' }
    assertEqual(summary(run([recovered('a', { x: 1 }), finish('end_turn')], options).out), ['call#0:a:id_a', 'recovered-call:a', 'finish:tool_use'])
    assertEqual(summary(run([recovered('a', { x: 1 }), finish('stop')], options).out), ['suppressed-call:a', 'finish:stop'], '"stop" is not the stop reason here')
  })

  test('every other part passes through as the same object', () => {
    const parts: Part[] = [
      { type: 'text', text: 't' },
      { type: 'reasoning', text: 'r' },
      { type: 'usage', usage: { total_tokens: 1 } },
      { type: 'error', error: { message: 'x' } },
      { type: 'done' },
      { type: 'comment', comment: 'keep-alive' },
      { type: 'diagnostic', diagnostic: { kind: 'dropped-markup', text: '<', message: 'm' } },
      { type: 'chunk-end' },
    ]
    const { out } = run(parts)
    assertEqual(out.length, parts.length, 'count')
    out.forEach((part, index) => assert(part === parts[index], `part ${index} is the same object`))
  })

  test('ToolCallSynthesizerStream gives what the core gives', async () => {
    const parts: Part[] = [{ type: 'text', text: 'a' }, recovered('a', { x: 1 }), { type: 'chunk-end' }, finish('stop'), { type: 'chunk-end' }, recovered('late', {})]
    const streamed = await collect(streamOf(parts).pipeThrough(new ToolCallSynthesizerStream()))
    const { out, ended } = run(parts)
    assertEqual(summary(streamed), summary([...out, ...ended]))
  })

  // ------------------------------------------------------------------ end to end

  test('end to end: default ids are call_ + 24 alphanumerics, unique; arguments a JSON string; index order', () => {
    const leak = block([invoke('bash', [param('command', 'ls')]), invoke('read', [param('path', '/a "b"\\c'), param('n', '3', { string: 'false' })])])
    const repaired = readRepaired(repair(answer(['Go. ', leak]), { generateId: undefined }).output)
    assertEqual(repaired.calls.map((call) => call.index), [0, 1], 'indexes')
    for (const call of repaired.calls) assert(/^call_[A-Za-z0-9]{24}$/.test(call.id ?? ''), `id ${String(call.id)}`)
    assert(repaired.calls[0]?.id !== repaired.calls[1]?.id, 'unique ids')
    assertEqual(repaired.calls.map((call) => call.arguments), ['{"command":"ls"}', '{"path":"/a \\"b\\"\\\\c","n":3}'], 'arguments as JSON strings')
    assertEqual(callShapes(repaired.calls), [
      { name: 'bash', arguments: { command: 'ls' } },
      { name: 'read', arguments: { path: '/a "b"\\c', n: 3 } },
    ])
    assertEqual(repaired.finishReasons, ['tool_calls'], 'finish')
  })

  test('end to end: an injected generateId names the calls', () => {
    let counter = 100
    const repaired = readRepaired(repair(answer([BASH, BASH]), { generateId: () => `tool-${++counter}` }).output)
    assertEqual(repaired.calls.map((call) => call.id), ['tool-101', 'tool-102'])
  })

  test('end to end: a parameter named __proto__ stays a plain argument on the wire', () => {
    const leak = block([invoke('set', [param('__proto__', 'x'), param('constructor', 'y')])])
    const repaired = readRepaired(repair(answer([leak])).output)
    assertEqual(repaired.calls.length, 1, 'one call')
    const parsed = JSON.parse(repaired.calls[0]?.arguments ?? '') as Record<string, unknown>
    assertEqual(Object.keys(parsed), ['__proto__', 'constructor'], 'own keys')
    assertEqual(({} as Record<string, unknown>).x, undefined, 'no pollution')
  })
  test('ids: unique in the stream, the settlement\'s — a repeated id, or a native call\'s, gets a fresh one from generateId', () => {
    let fresh = 0
    const generateId = (): string => `fresh_${++fresh}`
    const { out } = run([recovered('a', { x: 1 }, 'same'), recovered('b', { y: 2 }, 'same'), finish('stop')], { generateId })
    assertEqual(summary(out).filter((line) => line.startsWith('call#')), ['call#0:a:same', 'call#1:b:fresh_1'], 'the second call of one id gets a fresh one')
    const native: Part = { type: 'native-tool-call', index: 0, id: 'native_1', name: 'n', arguments: '{}' }
    const later = run([native, finish('tool_calls'), recovered('a', { x: 1 }, 'native_1'), finish('stop')], { generateId })
    const calls = later.out.filter((part) => part.type === 'synthesized-tool-call')
    assertEqual(calls.map((part) => (part.type === 'synthesized-tool-call' ? part.call.id : '')), ['fresh_2'], 'a native call\'s id, from an earlier message, is not reused')
    const diagnostic = later.out.find((part) => part.type === 'diagnostic' && part.diagnostic.kind === 'recovered-call')
    assertEqual(diagnostic?.type === 'diagnostic' ? diagnostic.diagnostic.toolCallId : undefined, 'fresh_2', 'the diagnostic names the id the call is emitted under')
  })

  test('ids: through a dialect, a generateId that repeats itself still gives distinct tool_calls ids', () => {
    const leak = block([invoke('bash', [param('command', 'ls')]), invoke('read', [param('path', 'a')])])
    const repaired = readRepaired(repair(answer(['Go. ', leak]), { generateId: () => 'same' }).output)
    assertEqual(repaired.calls.length, 2, 'two calls')
    assert(repaired.calls[0]?.id !== repaired.calls[1]?.id, `distinct ids: ${repaired.calls.map((call) => call.id).join(', ')}`)
  })

  test('options: one name per concept — the old synthesizeOnTruncation says its new name', () => {
    assertThrows(() => createToolCallSynthesizer({ synthesizeOnTruncation: true } as ToolCallSynthesizerOptions), TypeError, /recoverOnTruncation/)
  })

  test('options: recoverOnTruncation must be a boolean in every entry point (the string "true" is refused, not read as false)', () => {
    for (const value of ['true', 1, null]) {
      const options = { recoverOnTruncation: value } as unknown as ToolCallSynthesizerOptions
      const entries: Array<[string, () => unknown]> = [
        ['createToolCallSynthesizer', () => createToolCallSynthesizer(options)],
        ['createChatCompletionsRepair', () => createChatCompletionsRepair(options)],
        ['createAnthropicRepair', () => createAnthropicRepair(options)],
        ['createResponsesRepair', () => createResponsesRepair(options)],
        ['dsmlMiddleware', () => dsmlMiddleware(options as never)],
      ]
      for (const [, make] of entries) assertThrows(make, TypeError, /recoverOnTruncation/)
    }
  })
})
