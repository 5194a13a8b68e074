/**
 * `transformParams`: repair of the prompt history — the `repair-*` rows of
 * seeds/TEST-MATRIX.md at request time. Assistant text parts lose leaked
 * markup and get a short note in place of each removed call (the rule every
 * adapter uses, history-repair.ts); assistant reasoning parts are kept as
 * written, as every adapter keeps reasoning (providers sign it); nothing else
 * changes (same objects). A call
 * is never appended to history (it would have no result); `repair-append`'s
 * other half (a response's call appended) is in wrapper.cases.ts.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider'
import { streamText, type ModelMessage } from 'ai'
import { dsmlMiddleware, historyNote, type DsmlMiddlewareDiagnostic, type DsmlMiddlewareOptions } from '../../src/ai-sdk/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, eos, hasBarChar, invoke, leaksMarkup, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { callOptions, streamModel, streamOf, textParts, toolsFor, wrap } from './support.ts'

const edit = block([invoke('edit', [param('path', 'a.kt'), param('newString', 'x')])])
const bash = block([invoke('bash', [param('command', 'ls')])])

async function transform(
  prompt: LanguageModelV4Prompt,
  options: DsmlMiddlewareOptions = {},
  tools: string[] = ['edit', 'bash'],
): Promise<{ params: LanguageModelV4CallOptions; input: LanguageModelV4CallOptions; diagnostics: DsmlMiddlewareDiagnostic[] }> {
  const diagnostics: DsmlMiddlewareDiagnostic[] = []
  const middleware = dsmlMiddleware({ ...options, onDiagnostic: (diagnostic) => void diagnostics.push(diagnostic) })
  const input = callOptions(tools, { prompt })
  const model = streamModel([])
  const params = await middleware.transformParams!({ type: 'stream', params: input, model })
  return { params, input, diagnostics }
}

function assistant(...content: Extract<LanguageModelV4Message, { role: 'assistant' }>['content']): LanguageModelV4Message {
  return { role: 'assistant', content }
}

export const suite = defineSuite('ai-sdk/history', (test) => {
  test('repair-strip-only: an assistant message with a native tool-call and leaked text: text stripped (with a note), no call appended', async () => {
    const toolCall = { type: 'tool-call' as const, toolCallId: 'native-1', toolName: 'edit', input: { path: 'a.kt', newString: 'x' } }
    const prompt: LanguageModelV4Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'Fix it.' }] },
      assistant({ type: 'text', text: `I will edit the file.\n\n${edit}` }, toolCall),
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'native-1', toolName: 'edit', output: { type: 'text', value: 'ok' } }] },
    ]
    const { params, input, diagnostics } = await transform(prompt)
    const message = params.prompt[1] as Extract<LanguageModelV4Message, { role: 'assistant' }>
    assertEqual(message.content, [{ type: 'text', text: 'I will edit the file.\n\n[removed leaked tool call: edit]' }, toolCall], 'assistant content')
    assert(message.content[1] === toolCall, 'the tool-call part is the same object')
    assert(params.prompt[0] === prompt[0] && params.prompt[2] === prompt[2], 'user and tool messages are the same objects')
    assert(input.prompt === prompt && prompt[1] !== message, 'the input prompt is not mutated')
    assertEqual(diagnostics.map((diagnostic) => [diagnostic.kind, diagnostic.tool, diagnostic.operation, diagnostic.partId]), [['dropped-markup', 'edit', 'history', 'prompt[1].content[0]'], ['dropped-markup', undefined, 'history', 'prompt[1].content[0]']], 'diagnostics')
  })

  test('repair-append (history): a leaked call with no native call is removed and noted, never appended to history', async () => {
    const prompt: LanguageModelV4Prompt = [assistant({ type: 'text', text: `${bash}\n${edit}` })]
    const { params } = await transform(prompt)
    assertEqual(params.prompt, [assistant({ type: 'text', text: '[removed leaked tool call: bash]\n[removed leaked tool call: edit]' })], 'note only, no tool-call part')
  })

  test('repair-thinking (history): a reasoning part is kept as written, as every adapter keeps reasoning (a provider may have signed it); the text beside it is repaired', async () => {
    const reasoning = { type: 'reasoning' as const, text: `Let me run it.${bash}Done thinking.`, providerOptions: { anthropic: { signature: 'sig' } } }
    const prompt: LanguageModelV4Prompt = [assistant(reasoning, { type: 'text', text: `Here is the plan.${edit}` })]
    const { params } = await transform(prompt)
    const message = params.prompt[0] as Extract<LanguageModelV4Message, { role: 'assistant' }>
    assertEqual(message.content, [reasoning, { type: 'text', text: 'Here is the plan.[removed leaked tool call: edit]' }], 'content')
    assert(message.content[0] === reasoning, 'the reasoning part is the same object')
  })

  test('repair-idempotent: a second pass is a no-op (the same params object)', async () => {
    const prompt: LanguageModelV4Prompt = [assistant({ type: 'text', text: `Checking.\n${edit} and more ${eos()}` }, { type: 'text', text: `hm ${bash}` })]
    const first = await transform(prompt)
    const second = await transform(first.params.prompt)
    assert(second.params === second.input, 'second pass returns its input params unchanged')
    assertEqual(second.diagnostics, [], 'no diagnostics the second time')
    const text = JSON.stringify(first.params.prompt)
    assert(!leaksMarkup(text) && !hasBarChar(text.replace(/\\\\|\\"/g, '')), 'no markup left')
  })

  test('history: the note wording — named tools, no name, none for special tokens only; never markup', async () => {
    assertEqual(historyNote('edit'), '[removed leaked tool call: edit]', 'a tool')
    assertEqual(historyNote(undefined), '[removed leaked tool call]', 'no name')
    const lone = `Plan: ${block([invoke('bash', [param('command', 'ls')])]).split('\n')[0]}`
    const { params } = await transform([
      assistant({ type: 'text', text: lone }),
      assistant({ type: 'text', text: `All done.${eos()}` }),
    ])
    assertEqual(params.prompt, [
      assistant({ type: 'text', text: 'Plan: [removed leaked tool call]' }),
      assistant({ type: 'text', text: 'All done.' }),
    ], 'a lone opener gets an unnamed note; an end-of-sentence token gets none')
  })

  test('history: system, user and tool content pass byte for byte, even with markup; an unchanged prompt returns the same params', async () => {
    const prompt: LanguageModelV4Prompt = [
      { role: 'system', content: `Never write ${bash}` },
      { role: 'user', content: [{ type: 'text', text: `Why did you write ${edit}?` }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't', toolName: 'bash', output: { type: 'text', value: edit } }] },
      assistant({ type: 'text', text: 'Plain answer with <b>tags</b>.' }),
    ]
    const { params, input, diagnostics } = await transform(prompt)
    assert(params === input, 'same params object')
    assertEqual(diagnostics, [], 'no diagnostics')
  })

  test('history: undeclared tools are still removed from history; mode strip and repairHistory false', async () => {
    const prompt: LanguageModelV4Prompt = [assistant({ type: 'text', text: `x${edit}` })]
    assertEqual((await transform(prompt, {}, [])).params.prompt, [assistant({ type: 'text', text: 'x[removed leaked tool call: edit]' })], 'no tools declared')
    assertEqual((await transform(prompt, { mode: 'strip' })).params.prompt, [assistant({ type: 'text', text: 'x[removed leaked tool call: edit]' })], 'mode strip')
    assertEqual(dsmlMiddleware({ repairHistory: false }).transformParams, undefined, 'repairHistory false (and no prevention): no transformParams')
  })

  test('history through streamText: the model receives the repaired messages', async () => {
    const model = streamModel(streamOf(textParts(['Done.'])))
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Fix it.' },
      { role: 'assistant', content: [{ type: 'text', text: `On it.\n${edit}` }] },
      { role: 'user', content: 'Well?' },
    ]
    const result = streamText({ model: wrap(model).model, messages, tools: toolsFor(['edit']) })
    assertEqual(await result.text, 'Done.', 'answer')
    const sent = model.doStreamCalls[0]!.prompt
    const texts = sent.map((message) => (Array.isArray(message.content) ? message.content.map((part) => ('text' in part ? part.text : '')).join('') : message.content))
    assertEqual(texts, ['Fix it.', 'On it.\n[removed leaked tool call: edit]', 'Well?'], 'repaired assistant message sent, the rest as is')
  })
})
