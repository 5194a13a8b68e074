/**
 * The middleware's policy (DESIGN.md §5.6–5.11 and the issue), through the
 * real `ai` package: native calls win whatever the order, a native call plus
 * its leaked duplicate, a leak inside reasoning, which tools may be recovered
 * (`knownTools` defaults to the declared tools), fail-closed finish reasons,
 * unique ids, modes, several text ids, streams that end early, and bad input
 * that must never throw.
 */
import { dsmlMiddleware } from '../../src/ai-sdk/index.ts'
import { streamText } from 'ai'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { block, eos, invoke, leaksMarkup, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import {
  assertToolSequences,
  callOptions,
  deltaText,
  finishPart,
  modelParts,
  nativeCallParts,
  reasoningParts,
  streamModel,
  streamOf,
  textParts,
  toolCallsOf,
  toolsFor,
  typesOf,
  viaStreamText,
  wrap,
  type FinishPart,
  type Part,
} from './support.ts'
import { driveCore } from './core-support.ts'

const ls = block([invoke('bash', [param('command', 'ls -la')])])
const readA = block([invoke('read', [param('path', 'a.kt')])])
const cherry = (leaks as unknown as Array<{ id: string; chunks?: string[] }>).find((capture) => capture.id === 'cherry-14747-captured-sse-deltas')!

function lastFinish(parts: readonly Part[]): FinishPart {
  return parts.filter((part): part is FinishPart => part.type === 'finish').pop()!
}

export const suite = defineSuite('ai-sdk/policy', (test) => {
  test('native calls win: a native call before the leak suppresses the recovered call (markup still removed)', async () => {
    const parts = streamOf([
      ...nativeCallParts('native-1', 'read', '{"path":"a.kt"}'),
      ...textParts(tokenChunks(`Also listing.\n${ls}`)),
    ], finishPart('tool-calls', 'tool_calls'))
    const wrapped = wrap(streamModel(parts))
    const app = await viaStreamText(wrapped.model, ['bash', 'read'])
    assertEqual(app.toolCalls, [{ toolName: 'read', input: { path: 'a.kt' } }], 'only the native call')
    assertEqual(app.toolCallIds, ['native-1'], 'native id')
    assertEqual(app.text, 'Also listing.\n', 'markup removed')
    assertEqual(app.finishReason, 'tool-calls', 'finish as sent')
    assertEqual(wrapped.diagnostics.filter((diagnostic) => diagnostic.kind === 'suppressed-call').map((diagnostic) => diagnostic.tool), ['bash'], 'reported')
  })

  test('native calls win: a native call after the leak (decided at the finish)', async () => {
    const parts = streamOf([
      ...textParts(tokenChunks(`Listing.\n${ls}`)),
      ...nativeCallParts('native-1', 'read', '{"path":"a.kt"}'),
    ], finishPart('tool-calls', 'tool_calls'))
    const out = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash', 'read']))
    assertEqual(toolCallsOf(out).map((call) => call.toolCallId), ['native-1'], 'only the native call')
    assertEqual(typesOf(out).filter((type) => type.startsWith('tool-')).length, 4, 'only the native tool parts')
    assertEqual(lastFinish(out).finishReason, { unified: 'tool-calls', raw: 'tool_calls' }, 'finish as sent')
  })

  test('native + leaked duplicate: the same call native and leaked gives one call (duplicate-call reported)', async () => {
    for (const nativeFirst of [true, false]) {
      const native = nativeCallParts('native-1', 'bash', '{"command":"ls -la"}')
      const text = textParts(tokenChunks(`Running it.\n${ls}`))
      const parts = streamOf(nativeFirst ? [...native, ...text] : [...text, ...native], finishPart('tool-calls', 'tool_calls'))
      const wrapped = wrap(streamModel(parts))
      const app = await viaStreamText(wrapped.model, ['bash'])
      assertEqual(app.toolCalls, [{ toolName: 'bash', input: { command: 'ls -la' } }], `one call (native first: ${nativeFirst})`)
      assertEqual(app.toolCallIds, ['native-1'], 'the native one')
      assertEqual(app.text, 'Running it.\n', 'markup removed')
      assert(wrapped.diagnostics.some((diagnostic) => diagnostic.kind === 'duplicate-call' && diagnostic.tool === 'bash'), 'duplicate reported')
    }
  })

  test('native + leaked duplicate in reasoning: the engines are told about the native call, the reasoning copy is removed', async () => {
    const parts = streamOf([
      ...nativeCallParts('native-1', 'bash', '{"command":"ls -la"}'),
      ...reasoningParts(tokenChunks(`I called it: ${ls}`)),
      ...textParts(['Ran ls.']),
    ], finishPart('tool-calls', 'tool_calls'))
    const wrapped = wrap(streamModel(parts))
    const app = await viaStreamText(wrapped.model, ['bash'])
    assertEqual([app.reasoningText, app.text, app.toolCallIds], ['I called it: ', 'Ran ls.', ['native-1']], 'reasoning stripped, one call')
    assert(wrapped.diagnostics.some((diagnostic) => diagnostic.kind === 'duplicate-call' && diagnostic.channel === 'reasoning'), 'duplicate reported from reasoning')
  })

  test('a leak inside reasoning (Cherry Studio deltas): reasoning cleaned, the calls emitted, finish tool-calls', async () => {
    const parts = streamOf([...reasoningParts(['Need to search. ', ...cherry.chunks!]), ...textParts(['Searching.'])])
    const wrapped = wrap(streamModel(parts))
    const out = await modelParts(wrapped.model, callOptions(['builtin_web_search']))
    assertEqual(deltaText(out, 'reasoning-delta'), 'Need to search. ', 'reasoning text')
    assertEqual(deltaText(out), 'Searching.', 'text untouched')
    assertToolSequences(out, assert)
    assertEqual(toolCallsOf(out).map((call) => call.toolName), ['builtin_web_search', 'builtin_web_search'], 'calls')
    assertEqual(lastFinish(out).finishReason, { unified: 'tool-calls', raw: 'stop' }, 'finish')
    assertEqual(typesOf(out).slice(0, 2), ['stream-start', 'reasoning-start'], 'reasoning-start passes at once')
    assert(wrapped.diagnostics.filter((diagnostic) => diagnostic.kind === 'recovered-call').every((diagnostic) => diagnostic.channel === 'reasoning'), 'recovered from reasoning')
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['builtin_web_search'])
    assertEqual([app.reasoningText, app.toolCalls.length, app.finishReason], ['Need to search. ', 2, 'tool-calls'], 'streamText')
  })

  test('reasoning: recoverFromReasoning false strips without a call; a call in reasoning and text is emitted once', async () => {
    const reasoningOnly = streamOf(reasoningParts(tokenChunks(`Plan: ${ls}`)))
    const stripped = await viaStreamText(wrap(streamModel(reasoningOnly), { recoverFromReasoning: false }).model, ['bash'])
    assertEqual([stripped.reasoningText, stripped.toolCalls.length, stripped.finishReason], ['Plan: ', 0, 'stop'], 'stripped, no call')
    const both = streamOf([...reasoningParts(tokenChunks(`Plan: ${ls}`)), ...textParts(tokenChunks(`Go.${ls}`))])
    const wrapped = wrap(streamModel(both))
    const app = await viaStreamText(wrapped.model, ['bash'])
    assertEqual(app.toolCalls, [{ toolName: 'bash', input: { command: 'ls -la' } }], 'one call')
    assert(wrapped.diagnostics.some((diagnostic) => diagnostic.kind === 'duplicate-call' && diagnostic.channel === 'text'), 'the text copy is reported as a duplicate')
  })

  test('known tools: a call to an undeclared tool is removed and reported (unknown-tool); finish stays stop', async () => {
    const parts = streamOf(textParts(tokenChunks(`x${readA}y`)))
    const wrapped = wrap(streamModel(parts))
    const app = await viaStreamText(wrapped.model, ['bash'])
    assertEqual([app.text, app.toolCalls.length, app.finishReason], ['xy', 0, 'stop'], 'stripped')
    assert(wrapped.diagnostics.some((diagnostic) => diagnostic.kind === 'unknown-tool' && diagnostic.tool === 'read'), 'reported')
  })

  test('known tools (DESIGN §5.8): with no tools declared a DSML-marked call is kept, as every adapter does; declared tools gate', async () => {
    const parts = streamOf(textParts(tokenChunks(`x${readA}y`)))
    const none = await modelParts(wrap(streamModel(parts)).model, callOptions([]))
    assertEqual([deltaText(none), toolCallsOf(none).map((call) => call.toolName)], ['xy', ['read']], 'no tools declared: kept (the runtime answers "tool not found")')
    const gated = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash']))
    assertEqual([deltaText(gated), toolCallsOf(gated).length], ['xy', 0], 'declared tools gate: markup removed, no call')
    const undeclared = await modelParts(wrap(streamModel(parts), { allowUndeclaredTools: true }).model, callOptions(['bash']))
    assertEqual(toolCallsOf(undeclared).map((call) => call.toolName), ['read'], 'allowUndeclaredTools: recovered')
    const explicit = await modelParts(wrap(streamModel(parts), { knownTools: ['read'] }).model, callOptions(['bash']))
    assertEqual(toolCallsOf(explicit).map((call) => call.toolName), ['read'], 'explicit knownTools override the declared tools')
    // A provider tool is declared by its name, as a server tool is in every dialect: a recovered call to it is kept.
    const provider = callOptions([], { tools: [...(callOptions(['bash']).tools ?? []), { type: 'provider', id: 'deepseek.read', name: 'read', args: {} }] })
    const providerCall = await modelParts(wrap(streamModel(parts)).model, provider)
    assertEqual(toolCallsOf(providerCall).map((call) => call.toolName), ['read'], 'a declared provider tool: recovered')
  })

  test('tool choice none: markup removed, no call synthesized', async () => {
    const parts = streamOf(textParts(tokenChunks(`x${ls}y`)))
    const result = streamText({ model: wrap(streamModel(parts)).model, prompt: 'Go on.', tools: toolsFor(['bash']), toolChoice: 'none' })
    assertEqual([await result.text, (await result.toolCalls).length, await result.finishReason], ['xy', 0, 'stop'], 'stripped')
  })

  test('finish length / content-filter (and any reason but stop / tool-calls): no call by default (fail closed); recoverOnTruncation emits it and keeps the reason', async () => {
    for (const unified of ['length', 'content-filter', 'error', 'interrupted', 'other'] as const) {
      const parts = streamOf(textParts(tokenChunks(`x${ls}`)), finishPart(unified, unified))
      const wrapped = wrap(streamModel(parts))
      const out = await modelParts(wrapped.model, callOptions(['bash']))
      assertEqual([deltaText(out), toolCallsOf(out).length, lastFinish(out).finishReason.unified], ['x', 0, unified], `${unified}: stripped, no call`)
      assert(wrapped.diagnostics.some((diagnostic) => diagnostic.kind === 'suppressed-call'), `${unified}: reported`)
      const recovered = await modelParts(wrap(streamModel(parts), { recoverOnTruncation: true }).model, callOptions(['bash']))
      assertEqual([toolCallsOf(recovered).length, lastFinish(recovered).finishReason.unified], [1, unified], `${unified}: recoverOnTruncation`)
    }
  })

  test('finish tool-calls without a native call (opencode-plugin-golden-5608 shape): the calls are emitted, the finish kept', async () => {
    const parts = streamOf(textParts(tokenChunks(`x${ls}`)), finishPart('tool-calls', 'tool_calls'))
    const out = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash']))
    assertEqual([toolCallsOf(out).length, lastFinish(out).finishReason], [1, { unified: 'tool-calls', raw: 'tool_calls' }], 'emitted, finish as sent')
  })

  test('ids: unique among recovered and native calls, even when generateId repeats itself', async () => {
    const parts = streamOf([...textParts(tokenChunks(`${ls}${readA}${ls}`))])
    const out = await modelParts(wrap(streamModel(parts), { generateId: () => 'same' }).model, callOptions(['bash', 'read']))
    const ids = toolCallsOf(out).map((call) => call.toolCallId)
    assertEqual([ids.length, new Set(ids).size], [3, 3], `three distinct ids: ${ids.join(', ')}`)
    assertToolSequences(out, assert)
    const random = await modelParts(wrap(streamModel(parts), { generateId: undefined }).model, callOptions(['bash', 'read']))
    for (const call of toolCallsOf(random)) assert(/^call_[A-Za-z0-9]{24}$/.test(call.toolCallId), `default id ${call.toolCallId}`)
  })

  test('text parts: several ids, each cleaned on its own; an emptied part emits no text-start/text-end; an empty upstream part passes', async () => {
    const parts = streamOf([
      ...textParts(tokenChunks(`A${ls}`), 'txt-a'),
      ...textParts(tokenChunks(readA), 'txt-b'),
      ...textParts([], 'txt-c'),
    ])
    const out = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash', 'read']))
    assertEqual(typesOf(out), [
      'stream-start', 'text-start', 'text-delta', 'text-end', 'text-start', 'text-end',
      'tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call',
      'tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'finish',
    ], 'parts')
    assertEqual(out.filter((part) => part.type === 'text-start').map((part) => (part as { id: string }).id), ['txt-a', 'txt-c'], 'txt-b emptied, txt-c empty upstream')
    assertEqual(toolCallsOf(out).map((call) => call.toolName), ['bash', 'read'], 'calls in order')
  })

  test('text ids in turn (one engine per channel): a delta of another id first resolves the first id\'s text under its own id; reasoning in between changes nothing', async () => {
    const parts: Part[] = [
      { type: 'text-start', id: 'a' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'a', delta: 'one <' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'thinking' },
      { type: 'text-delta', id: 'b', delta: 'two' },
      { type: 'text-delta', id: 'a', delta: ' three' },
      { type: 'text-end', id: 'a' },
      { type: 'text-end', id: 'b' },
      { type: 'reasoning-end', id: 'r' },
    ]
    const out = await modelParts(wrap(streamModel(streamOf(parts))).model, callOptions(['bash']))
    const deltas = out.filter((part) => part.type === 'text-delta').map((part) => `${(part as { id: string }).id}:${(part as { delta: string }).delta}`)
    assertEqual(deltas, ['a:one ', 'a:<', 'b:two', 'a: three'], 'each text under its id, in order')
    assertEqual(deltaText(out, 'reasoning-delta'), 'thinking', 'reasoning')
  })

  test('a stream that ends without text-end or finish: held text resolved, no call (fail closed), unless recoverOnTruncation', async () => {
    // Decided with the Chat Completions synthesizer: a stream cut before its finish never runs a tool.
    const parts: Part[] = [{ type: 'text-start', id: 't' }, ...tokenChunks(`Hi${ls}\nThen <`).map((delta): Part => ({ type: 'text-delta', id: 't', delta }))]
    const out = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash']))
    assertEqual(deltaText(out), 'Hi\nThen <', 'text, the held < included')
    assertEqual(toolCallsOf(out).length, 0, 'no call without a finish')
    const recovered = await modelParts(wrap(streamModel(parts), { recoverOnTruncation: true }).model, callOptions(['bash']))
    assertEqual(typesOf(recovered).slice(-4), ['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call'], 'the call at the end')
  })

  test('modes: strip removes markup and never emits calls; off passes everything through', async () => {
    const parts = streamOf(textParts(tokenChunks(`x${ls}y${eos()}`)))
    const stripped = await modelParts(wrap(streamModel(parts), { mode: 'strip' }).model, callOptions(['bash']))
    assertEqual([deltaText(stripped), toolCallsOf(stripped).length, lastFinish(stripped).finishReason.unified], ['xy', 0, 'stop'], 'strip')
    const off = await modelParts(wrap(streamModel(parts), { mode: 'off' }).model, callOptions(['bash']))
    assertEqual(off, await modelParts(streamModel(parts), callOptions(['bash'])), 'off: identical')
  })

  test('raw and ping parts do not interrupt held markup (includeRawChunks)', () => {
    const deltas = tokenChunks(`x${ls}`)
    const parts = streamOf([
      { type: 'text-start', id: 't' },
      ...deltas.flatMap((delta): Part[] => [{ type: 'raw', rawValue: { delta } }, { type: 'ping' } as Part, { type: 'text-delta', id: 't', delta }]),
      { type: 'text-end', id: 't' },
    ])
    const { all } = driveCore(parts, {}, callOptions(['bash']))
    assertEqual(toolCallsOf(all).length, 1, 'recovered')
    assertEqual(all.filter((part) => part.type === 'raw').length, deltas.length, 'raw parts passed on')
  })

  test('provider metadata on deltas is kept', () => {
    const metadata = { deepseek: { logprob: -1 } }
    const parts = streamOf([
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'a <b', providerMetadata: metadata },
      { type: 'text-delta', id: 't', delta: '> c', providerMetadata: metadata },
      { type: 'text-end', id: 't' },
    ])
    const { all } = driveCore(parts)
    for (const part of all) if (part.type === 'text-delta') assertEqual(part.providerMetadata, metadata, `metadata on ${JSON.stringify(part.delta)}`)
  })

  test('bad input never throws: malformed parts pass on unchanged (malformed-chunk), a throwing onDiagnostic is ignored', async () => {
    const weird = [
      null,
      { type: 'text-delta', id: 't', delta: 42 },
      { type: 'text-delta', delta: 'no id' },
      { type: 'text-end' },
      { type: 'finish', usage: {} },
      { type: 'mystery-part', payload: 1 },
    ] as unknown as Part[]
    const parts = streamOf([{ type: 'text-start', id: 't' }, ...weird, ...textParts(tokenChunks(`ok${ls}`), 't').slice(1)])
    const { all, diagnostics } = driveCore(parts, {}, callOptions(['bash']))
    for (const part of weird) assert(all.includes(part), `passed on: ${JSON.stringify(part)}`)
    assert(diagnostics.filter((diagnostic) => diagnostic.kind === 'malformed-chunk').length >= 4, 'reported')
    assertEqual(toolCallsOf(all.filter((part) => part !== null)).length, 1, 'the call after them is recovered')
    const wrapped = wrap(streamModel(parts.filter((part) => part !== null)), { onDiagnostic: () => { throw new Error('boom') } })
    const out = await modelParts(wrapped.model, callOptions(['bash']))
    assertEqual(toolCallsOf(out).length, 1, 'the stream completes, the call is recovered')
    assert(!leaksMarkup(deltaText(out)), 'no markup')
  })

  test('options misuse throws a TypeError that says what to change', () => {
    assertThrows(() => dsmlMiddleware({ knownTool: ['x'] } as never), TypeError, /knownTool/)
    assertThrows(() => dsmlMiddleware({ maxHoldChars: 5 }), TypeError, /maxHoldChars/)
    assertThrows(() => dsmlMiddleware({ mode: 'fix' } as never), TypeError, /mode/)
    assertThrows(() => dsmlMiddleware({ onDiagnostic: 'log' } as never), TypeError, /onDiagnostic/)
    assertThrows(() => dsmlMiddleware({ recoverOnTruncation: 'yes' } as never), TypeError, /recoverOnTruncation/)
    assertThrows(() => dsmlMiddleware({ knownTools: [1] } as never), TypeError, /knownTools/)
  })
})
