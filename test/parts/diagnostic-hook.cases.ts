/**
 * One `onDiagnostic` hook, everywhere (issue "beyond recovery", part 3): the
 * engine's entry points report each diagnostic they give out, as they give it
 * out; a pipeline reports what it gives out after its own decisions (the
 * settlement), once — never the engine's view of the same markup as well.
 */
import { createDsmlSanitizer, DsmlSanitizerStream, sanitizeText } from '../../src/dsml/index.ts'
import type { Diagnostic, SanitizerEvent } from '../../src/dsml/types.ts'
import { createDsmlPartSanitizer } from '../../src/parts/part-sanitizer.ts'
import { createPartRepair } from '../../src/parts/part-repair.ts'
import type { Part } from '../../src/parts/part.ts'
import { sanitizeChatCompletionsRequest } from '../../src/chat-completions/index.ts'
import { repairChatCompletion } from '../../src/chat-completions/response.ts'
import { repairAnthropicMessage } from '../../src/anthropic/response.ts'
import { repairResponsesObject } from '../../src/responses/response.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { block, close, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { collect, streamOf } from '../support/streams.ts'
import { answer, counterIds, repairChunks } from '../chat-completions/support.ts'
import { message, repairAnthropic, textBlock, toolUseIds } from '../anthropic/support.ts'
import { callIds, repairResponses, responsesEvents } from '../responses/support.ts'

/** A call, a stray closer and an undeclared tool: a recovered call and removed markup in one text. */
const LEAK = `Sure.\n${block([invoke('write_file', [param('path', 'a.txt')])])}\nthen ${close('parameter')} and ${block([invoke('rm_rf', [param('path', '/')])])} done`
const DECLARED = { knownTools: ['write_file'] }

const kinds = (diagnostics: readonly Diagnostic[]): string[] => diagnostics.map((diagnostic) => diagnostic.kind)
const diagnosticsOf = (events: readonly SanitizerEvent[]): Diagnostic[] =>
  events.flatMap((event) => (event.type === 'diagnostic' ? [event.diagnostic] : []))

export const suite = defineSuite('parts/diagnostic-hook', (test) => {
  test('sanitizeText reports each diagnostic of its result, once, in order', () => {
    const reported: Diagnostic[] = []
    const result = sanitizeText(LEAK, { ...DECLARED, onDiagnostic: (diagnostic) => reported.push(diagnostic) })
    assert(result.diagnostics.length >= 2, `the leak gives diagnostics: ${kinds(result.diagnostics)}`)
    assert(kinds(result.diagnostics).includes('unknown-tool'), `an undeclared call is reported: ${kinds(result.diagnostics)}`)
    assertEqual(reported, result.diagnostics)
  })

  test('a text with nothing to repair reports nothing', () => {
    const reported: Diagnostic[] = []
    sanitizeText('plain prose, a < b', { onDiagnostic: (diagnostic) => reported.push(diagnostic) })
    assertEqual(reported, [])
  })

  test('createDsmlSanitizer reports as it gives out, whatever the split (every event fed one token at a time)', () => {
    const reported: Diagnostic[] = []
    const sanitizer = createDsmlSanitizer({ ...DECLARED, onDiagnostic: (diagnostic) => reported.push(diagnostic) })
    const given: SanitizerEvent[] = []
    for (const piece of tokenChunks(LEAK)) {
      const events = sanitizer.feed(piece)
      // Reported by the time feed returns: the hook saw each of these already.
      assertEqual(reported.length, diagnosticsOf([...given, ...events]).length)
      given.push(...events)
    }
    given.push(...sanitizer.end())
    assertEqual(reported, diagnosticsOf(given))
    assertEqual(kinds(reported), kinds(sanitizeText(LEAK, DECLARED).diagnostics))
  })

  test('DsmlSanitizerStream reports through the same option', async () => {
    const reported: Diagnostic[] = []
    const events = await collect(streamOf(tokenChunks(LEAK)).pipeThrough(new DsmlSanitizerStream({ ...DECLARED, onDiagnostic: (diagnostic) => reported.push(diagnostic) })))
    assertEqual(reported, diagnosticsOf(events))
    assert(reported.length >= 2, 'the stream reports')
  })

  test('a hook that is not a function is refused where options are resolved', () => {
    assertThrows(() => sanitizeText('x', { onDiagnostic: 'log' as never }), TypeError, /onDiagnostic.*function/)
    assertThrows(() => createDsmlPartSanitizer({ onDiagnostic: 1 as never }), TypeError, /onDiagnostic.*function/)
  })

  test('the part sanitizer reports the engines\' diagnostics of both channels', () => {
    const reported: Diagnostic[] = []
    const sanitizer = createDsmlPartSanitizer({ ...DECLARED, onDiagnostic: (diagnostic) => reported.push(diagnostic) })
    const out: Part[] = [...sanitizer.feed({ type: 'reasoning', text: LEAK }), ...sanitizer.feed({ type: 'text', text: LEAK }), ...sanitizer.end()]
    const given = out.flatMap((part) => (part.type === 'diagnostic' ? [part.diagnostic] : []))
    assertEqual(reported, given)
  })

  test('the part pipeline reports once, after the settlement: the settled call, not the engine\'s view of it', () => {
    const reported: Diagnostic[] = []
    const given: Diagnostic[] = []
    const repair = createPartRepair({ ...DECLARED, generateId: counterIds(), onDiagnostic: (diagnostic) => reported.push(diagnostic) }, {
      emit(part) {
        if (part.type === 'diagnostic') given.push(part.diagnostic)
      },
    })
    repair.feed({ type: 'text', text: LEAK })
    repair.feed({ type: 'finish', reason: 'stop' })
    repair.end()
    assertEqual(reported, given)
    const recovered = reported.filter((diagnostic) => diagnostic.kind === 'recovered-call')
    assertEqual(recovered.length, 1)
    assertEqual(recovered[0]!.message, 'Recovered a call to "write_file" from text')
  })

  test('each dialect stream reports each diagnostic once (the fused cores)', () => {
    const pieces = tokenChunks(LEAK)
    // What the pipeline gives out for these pieces: each dialect reports exactly these.
    const given: Diagnostic[] = []
    const pipeline = createPartRepair({ ...DECLARED, generateId: counterIds() }, { emit: (part) => void (part.type === 'diagnostic' && given.push(part.diagnostic)) })
    for (const text of pieces) pipeline.feed({ type: 'text', text })
    pipeline.feed({ type: 'finish', reason: 'stop' })
    pipeline.end()
    assert(kinds(given).includes('recovered-call') && kinds(given).includes('unknown-tool'), `the pipeline decides: ${kinds(given)}`)
    const chat = repairChunks([answer(pieces)], DECLARED)
    const anthropic = repairAnthropic([message(textBlock(0, pieces))], { ...DECLARED, generateId: toolUseIds() })
    const responses = repairResponses(responsesEvents('resp_1', 'deepseek-chat', pieces, 10, 1), { ...DECLARED, generateId: callIds() })
    for (const [name, run] of [['chat', chat], ['anthropic', anthropic], ['responses', responses]] as const) {
      assertEqual(kinds(run.diagnostics), kinds(given), name)
    }
  })

  test('each JSON response repair reports each diagnostic once', () => {
    const counts: Record<string, string[]> = { chat: [], anthropic: [], responses: [] }
    const hook = (name: string) => (diagnostic: Diagnostic) => counts[name]!.push(diagnostic.kind)
    repairChatCompletion(
      { id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: LEAK }, finish_reason: 'stop' }] },
      { ...DECLARED, onDiagnostic: hook('chat') },
    )
    repairAnthropicMessage(
      { id: 'm', type: 'message', role: 'assistant', content: [{ type: 'text', text: LEAK }], stop_reason: 'end_turn' },
      { ...DECLARED, onDiagnostic: hook('anthropic') },
    )
    repairResponsesObject(
      { id: 'r', object: 'response', status: 'completed', output: [{ type: 'message', id: 'msg', role: 'assistant', content: [{ type: 'output_text', text: LEAK }] }] },
      { ...DECLARED, onDiagnostic: hook('responses') },
    )
    for (const [name, seen] of Object.entries(counts)) {
      assertEqual(seen, counts.chat!, name)
      assert(seen.includes('recovered-call') && seen.includes('unknown-tool') && seen.filter((kind) => kind === 'recovered-call').length === 1, `${name}: ${seen}`)
    }
  })

  test('history repair reports what it removed', () => {
    const reported: Diagnostic[] = []
    sanitizeChatCompletionsRequest({ messages: [{ role: 'assistant', content: LEAK }] }, { onDiagnostic: (diagnostic) => reported.push(diagnostic) })
    assert(reported.length >= 2 && reported.every((diagnostic) => diagnostic.kind !== 'recovered-call'), `history reports removals only: ${kinds(reported)}`)
  })
})
