/**
 * prevention.ts through the three dialects' request sanitizers and the AI SDK middleware (the seed's
 * `prompt-no-marker` and `fallback-*` rows): the preventive directive and the
 * recovery nudge are opt-in, hold no marker bytes, sit where each format keeps
 * instructions after the caller's own, and are added once; the nudge follows
 * only a last assistant turn that lost a call written as text, and not once a
 * tool answered after it.
 */
import { sanitizeResponsesRequest } from '../../src/responses/index.ts'
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import { sanitizeChatCompletionsRequest } from '../../src/chat-completions/index.ts'
import { sanitizeAnthropicRequest } from '../../src/anthropic/index.ts'
import type { LanguageModelV4Prompt } from '@ai-sdk/provider'
import { dsmlMiddleware, type DsmlMiddlewareOptions } from '../../src/ai-sdk/index.ts'
import { callOptions, streamModel } from '../ai-sdk/support.ts'
import { isRecoveryNudge, PREVENTIVE_DIRECTIVE, RECOVERY_NUDGE, recoveryNudgeDue, recoveryNudgeText } from '../../src/parts/prevention.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { block, eos, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const LEAK = block([invoke('bash', [param('command', 'ls')])])
const ON = { preventiveDirective: true, recoveryNudge: true }
/** The nudge after a turn that wrote the `bash` call of LEAK as text: it names the tool. */
const NUDGE = recoveryNudgeText(['bash'])

type Message = { role: string; content: string; [key: string]: unknown }

const chat = (assistant: string, after: Message[] = []): { model: string; messages: Message[] } => ({
  model: 'deepseek-v4-flash',
  messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: 'List files' }, { role: 'assistant', content: assistant }, ...after],
})

export const suite = defineSuite('parts/prevention', (test) => {
  test('prompt-no-marker: the directive and the nudge hold no marker bytes, name no markup spelling, and say to use the tool interface', () => {
    for (const text of [PREVENTIVE_DIRECTIVE, RECOVERY_NUDGE, NUDGE, recoveryNudgeText(['read', 'write'])]) {
      assert(!containsDsmlSentinel(text) && !/DSML|\uFF5C|\|/.test(text), `no marker: ${text}`)
      assert(/tool-calling interface/.test(text), 'the rule is stated')
    }
  })

  test('recoveryNudgeDue: after a last assistant turn that lost a call, until something after it answers it', () => {
    const answers = (item: unknown): boolean => item === 'tool' || item === 'nudge'
    const lost = (count: number) => ({ count, tools: [] })
    assertEqual(recoveryNudgeDue(['user', 'assistant'], 1, lost(1), answers), true, 'due right after the turn')
    assertEqual(recoveryNudgeDue(['user', 'assistant', 'user'], 1, lost(2), answers), true, 'a user turn does not answer it')
    assertEqual(recoveryNudgeDue(['user', 'assistant', 'tool'], 1, lost(1), answers), false, 'a tool answered it')
    assertEqual(recoveryNudgeDue(['user', 'assistant', 'nudge'], 1, lost(1), answers), false, 'not twice')
    assertEqual(recoveryNudgeDue(['user', 'assistant'], 1, lost(0), answers), false, 'no call lost')
    assertEqual(recoveryNudgeDue(['user'], -1, lost(0), answers), false, 'no assistant turn')
  })

  test('off by default: a leaked history is repaired and nothing is added; a mistyped option is a TypeError', () => {
    const repaired = sanitizeChatCompletionsRequest(chat(`Sure. ${LEAK}`))
    assertEqual(repaired.messages.length, 3, 'nothing added')
    assertThrows(() => sanitizeChatCompletionsRequest(chat('x'), { preventiveDirective: 'yes' as unknown as boolean }), TypeError, /preventiveDirective/)
  })

  test('Chat Completions: the directive after the caller\'s system messages, the nudge at the end, each once', () => {
    const once = sanitizeChatCompletionsRequest(chat(`Sure. ${LEAK}`), ON)
    assertEqual(once.messages.map((message) => [message.role, message.content === PREVENTIVE_DIRECTIVE ? 'DIRECTIVE' : message.content === NUDGE ? 'NUDGE' : '…']), [
      ['system', '…'],
      ['system', 'DIRECTIVE'],
      ['user', '…'],
      ['assistant', '…'],
      ['system', 'NUDGE'],
    ])
    assertEqual(sanitizeChatCompletionsRequest(once, ON).messages.length, 5, 'applied again: nothing more (idempotent, sent once)')
    const answered = sanitizeChatCompletionsRequest(chat(`Sure. ${LEAK}`, [{ role: 'tool', tool_call_id: 'x', content: 'ok' }]), ON)
    assert(!answered.messages.some((message) => message.content === NUDGE), 'no nudge once a tool answered')
    const tokensOnly = sanitizeChatCompletionsRequest(chat(`Done.${eos()}`), ON)
    assert(!tokensOnly.messages.some((message) => message.content === NUDGE), 'special tokens alone are no call: no nudge')
    const earlier = sanitizeChatCompletionsRequest({ messages: [...chat(`Sure. ${LEAK}`).messages, { role: 'user', content: 'and?' }, { role: 'assistant', content: 'Fine.' }] }, ON)
    assert(!earlier.messages.some((message) => message.content === NUDGE), 'only the last assistant turn counts')
  })

  test('Anthropic Messages: the directive after the caller\'s system, the nudge in the last user turn (or a user turn of its own), each once', () => {
    const body = { model: 'm', max_tokens: 10, system: 'You are helpful.', messages: [{ role: 'user', content: 'List' }, { role: 'assistant', content: [{ type: 'text', text: `Sure. ${LEAK}` }] }, { role: 'user', content: 'go on' }] }
    const once = sanitizeAnthropicRequest(body, ON)
    assertEqual(once.system, [{ type: 'text', text: 'You are helpful.' }, { type: 'text', text: PREVENTIVE_DIRECTIVE }], 'system')
    assertEqual(once.messages[2], { role: 'user', content: [{ type: 'text', text: 'go on' }, { type: 'text', text: NUDGE }] }, 'nudge in the last user turn')
    const twice = sanitizeAnthropicRequest(once, ON)
    assertEqual([twice.system, twice.messages], [once.system, once.messages], 'applied again: nothing more')
    const ending = sanitizeAnthropicRequest({ ...body, system: undefined, messages: body.messages.slice(0, 2) }, ON)
    assertEqual([ending.system, ending.messages.at(-1)], [PREVENTIVE_DIRECTIVE, { role: 'user', content: NUDGE }], 'no system; history ending with the leak')
    assert(sanitizeAnthropicRequest(body) === body || sanitizeAnthropicRequest(body).system === 'You are helpful.', 'off by default')
  })

  test('Responses API: the directive after the caller\'s instructions, the nudge as a developer message, each once', () => {
    const body = { model: 'm', instructions: 'Be brief.', input: [{ role: 'user', content: 'List' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Sure. ${LEAK}` }] }] }
    const once = sanitizeResponsesRequest(body, ON)
    assertEqual(once.instructions, `Be brief.\n\n${PREVENTIVE_DIRECTIVE}`, 'instructions')
    assertEqual(once.input.at(-1), { type: 'message', role: 'developer', content: NUDGE }, 'nudge')
    const twice = sanitizeResponsesRequest(once, ON)
    assertEqual([twice.instructions, twice.input.length], [once.instructions, once.input.length], 'applied again: nothing more')
    const answered = sanitizeResponsesRequest({ ...body, input: [...body.input, { type: 'function_call_output', call_id: 'c', output: 'ok' }] }, ON)
    assert(!answered.input.some((item) => (item as { content?: unknown }).content === NUDGE), 'no nudge once a tool answered')
    assertEqual(sanitizeResponsesRequest({ input: 'hi' }, ON), { input: 'hi', instructions: PREVENTIVE_DIRECTIVE }, 'a string input: the directive only')
  })

  test('AI SDK middleware: the directive as a system message after the caller\'s, the nudge in the last user message (or one of its own), each once', async () => {
    const transform = async (prompt: LanguageModelV4Prompt, options: DsmlMiddlewareOptions = ON): Promise<LanguageModelV4Prompt> =>
      (await dsmlMiddleware(options).transformParams!({ type: 'stream', params: callOptions(['bash'], { prompt }), model: streamModel([]) })).prompt
    const text = (value: string) => ({ type: 'text' as const, text: value })
    const prompt: LanguageModelV4Prompt = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: [text('List')] },
      { role: 'assistant', content: [text(`Sure. ${LEAK}`)] },
    ]
    const once = await transform(prompt)
    const nudges = (message: LanguageModelV4Prompt[number]): boolean => Array.isArray(message.content) && message.content.some((part) => part.type === 'text' && isRecoveryNudge(part.text))
    assertEqual(once.map((message) => [message.role, message.content === PREVENTIVE_DIRECTIVE ? 'DIRECTIVE' : nudges(message) ? 'NUDGE' : '…']), [
      ['system', '…'],
      ['system', 'DIRECTIVE'],
      ['user', '…'],
      ['assistant', '…'],
      ['user', 'NUDGE'],
    ])
    assertEqual(await transform(once), once, 'applied again: nothing more (idempotent, sent once)')
    const asking = await transform([...prompt, { role: 'user', content: [text('go on')] }])
    assertEqual(asking.at(-1), { role: 'user', content: [text('go on'), text(NUDGE)] }, 'the nudge joins the last user message')
    const answered = await transform([...prompt, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'bash', output: { type: 'text', value: 'ok' } }] }])
    assert(!answered.some(nudges), 'no nudge once a tool answered')
    assertEqual(once.at(-1), { role: 'user', content: [text(NUDGE)] }, 'the nudge names the tool whose call was written as text')
    assertEqual((await transform(prompt, {})).length, 3, 'off by default: nothing added')
    assertEqual((await transform(prompt, { preventiveDirective: true, repairHistory: false }))[1], { role: 'system', content: PREVENTIVE_DIRECTIVE }, 'the directive without history repair')
    assertThrows(() => dsmlMiddleware({ recoveryNudge: true, repairHistory: false }), TypeError, /recoveryNudge/)
    assertThrows(() => dsmlMiddleware({ preventiveDirective: 'yes' as unknown as boolean }), TypeError, /preventiveDirective/)
  })
})
