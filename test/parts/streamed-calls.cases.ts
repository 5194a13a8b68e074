/**
 * Calls streamed as they form, through the settlement and every dialect
 * (src/parts/synthesizer.ts; issue "beyond recovery", part 1): a streamed
 * call goes out at once under its index and id and cannot be taken back; a
 * stop finish says tool calls, a length finish stays length with the call as
 * it was cut, a native call after one keeps both (with a diagnostic); and
 * every capture, streamed through each dialect and the AI SDK with the
 * option on, gives the calls (joined argument text included) it gives off.
 */
import { createToolCallSynthesizer } from '../../src/parts/synthesizer.ts'
import type { Part } from '../../src/parts/part.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { captures, declaredOptions } from '../support/captures.ts'
import { tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, callShapes, counterIds, readRepaired, repairChunks } from '../chat-completions/support.ts'
import { fold, message, repairAnthropic, textBlock, toolUseIds } from '../anthropic/support.ts'
import { callIds, foldResponses, repairResponses, responsesEvents } from '../responses/support.ts'
import { streamModel, streamOf, textParts, viaStreamText, wrap } from '../ai-sdk/support.ts'

const ON = { streamToolCalls: true }
const CALL = { id: 'call_e', name: 'read', arguments: { path: 'a' } }

/** What the synthesizer gives for `parts`, as `type` or `type:index`. */
function settle(parts: readonly Part[], recoverOnTruncation = false): string[] {
  const synthesizer = createToolCallSynthesizer({ generateId: counterIds(), recoverOnTruncation })
  const out = [...parts.flatMap((part) => synthesizer.feed(part)), ...synthesizer.end()]
  return out.map((part) => {
    if (part.type === 'finish') return `finish:${part.reason}`
    if (part.type === 'diagnostic') return `diagnostic:${part.diagnostic.kind}`
    return 'index' in part ? `${part.type}:${part.index}` : part.type
  })
}

const streamed: Part[] = [
  { type: 'tool-call-start', id: 'call_e', name: 'read' },
  { type: 'tool-call-delta', id: 'call_e', delta: '{"path":"a"}' },
  { type: 'tool-call', call: CALL, source: '<markup>', streamed: true },
]

export const suite = defineSuite('parts/streamed-calls', (test) => {
  test('a streamed call goes out at once, under its index; a stop finish says tool calls', () => {
    assertEqual(settle([...streamed, { type: 'finish', reason: 'stop' }]), [
      'synthesized-tool-call-start:0',
      'synthesized-tool-call-delta:0',
      'synthesized-tool-call-end:0',
      'diagnostic:recovered-call',
      'finish:tool_calls',
    ])
  })

  test('a length finish stays length, the streamed call kept as it was (a native call at a length limit looks so)', () => {
    const cut: Part[] = [streamed[0]!, { type: 'tool-call-delta', id: 'call_e', delta: '{"path":"a' }, { type: 'tool-call', call: { ...CALL, arguments: {} }, source: '<markup>', streamed: true }]
    assertEqual(settle([...cut, { type: 'finish', reason: 'length' }]), ['synthesized-tool-call-start:0', 'synthesized-tool-call-delta:0', 'synthesized-tool-call-end:0', 'diagnostic:recovered-call', 'finish:length'])
  })

  test('a native call after a streamed one: both kept, with a diagnostic; a later recovered call is indexed after both, and withheld as native calls win', () => {
    const native: Part = { type: 'native-tool-call', index: 1, id: 'call_n', name: 'bash', arguments: '{}' }
    const later: Part = { type: 'tool-call', call: { id: 'call_r', name: 'ls', arguments: { a: 1 } }, source: '<m>' }
    assertEqual(settle([...streamed, native, later, { type: 'finish', reason: 'tool_calls' }]), [
      'synthesized-tool-call-start:0',
      'synthesized-tool-call-delta:0',
      'synthesized-tool-call-end:0',
      'diagnostic:recovered-call',
      'native-tool-call:1',
      'diagnostic:streamed-call-kept',
      'diagnostic:suppressed-call',
      'finish:tool_calls',
    ])
  })

  test('every capture through Chat Completions, Anthropic and Responses with the option on: the calls of the option off, joined argument text included', () => {
    let streamedCalls = 0
    for (const capture of captures) {
      const options = declaredOptions(capture)
      const pieces = tokenChunks(capture.input)
      const chatOff = readRepaired(repairChunks([answer(pieces)], options).output)
      const chatOn = readRepaired(repairChunks([answer(pieces)], { ...options, ...ON }).output)
      assertEqual(chatOn.calls.map((call) => [call.name, call.arguments]), chatOff.calls.map((call) => [call.name, call.arguments]), `${capture.id}: chat`)
      assertEqual([chatOn.content, chatOn.finishReasons], [chatOff.content, chatOff.finishReasons], `${capture.id}: chat text and finish`)
      // Streamed, a call takes several chunks; written whole, one.
      const withCalls = (read: typeof chatOn) => read.chunks.filter((chunk) => JSON.stringify(chunk).includes('"tool_calls"')).length
      streamedCalls += withCalls(chatOn) - withCalls(chatOff)

      const anthropicOff = fold(repairAnthropic([message(textBlock(0, pieces))], { ...options, generateId: toolUseIds() }).output)
      const anthropicOn = fold(repairAnthropic([message(textBlock(0, pieces))], { ...options, ...ON, generateId: toolUseIds() }).output)
      const toolUses = (folded: typeof anthropicOn) => folded.content.filter((block) => block.type === 'tool_use').map((block) => [block.name, block.input])
      assertEqual(toolUses(anthropicOn), toolUses(anthropicOff), `${capture.id}: anthropic`)
      assertEqual([anthropicOn.stopReason, anthropicOn.faults], [anthropicOff.stopReason, []], `${capture.id}: anthropic finish, blocks well formed`)

      const responsesOff = foldResponses(repairResponses(responsesEvents('resp_1', 'm', pieces, 5, 1), { ...options, generateId: callIds() }).output)
      const responsesOn = foldResponses(repairResponses(responsesEvents('resp_1', 'm', pieces, 5, 1), { ...options, ...ON, generateId: callIds() }).output)
      const functionCalls = (folded: typeof responsesOn) => folded.calls.map((call) => [call.name, call.arguments])
      assertEqual(functionCalls(responsesOn), functionCalls(responsesOff), `${capture.id}: responses`)
      assertEqual([responsesOn.text, responsesOn.faults], [responsesOff.text, []], `${capture.id}: responses text, events well formed`)
    }
    assert(streamedCalls >= 5, `calls were streamed through Chat Completions (${streamedCalls})`)
    assertEqual(callShapes([{ name: 'x', arguments: '{"a":1}' } as never]), [{ name: 'x', arguments: { a: 1 } }])
  })

  test('every capture through the AI SDK\'s streamText with the option on: the calls of the option off', async () => {
    for (const capture of captures) {
      const tools = (capture.tools ?? []).map((tool) => tool.name)
      const parts = streamOf(textParts(tokenChunks(capture.input)))
      const off = await viaStreamText(wrap(streamModel(parts)).model, tools)
      const on = await viaStreamText(wrap(streamModel(parts), ON).model, tools)
      // (A capture that declares no tool gets the AI SDK's no-such-tool error for each call, on and off alike.)
      assertEqual([on.toolCalls, on.text, on.finishReason, on.errors.length], [off.toolCalls, off.text, off.finishReason, off.errors.length], capture.id)
    }
  })
})
