/**
 * history-repair.ts: one rule for every adapter. The same assistant texts,
 * repaired through the Chat Completions request helper and through the AI SDK
 * middleware's transformParams, come out the same.
 */
import type { LanguageModelV4Message } from '@ai-sdk/provider'
import { historyNote, repairHistoryText } from '../../src/parts/index.ts'
import { sanitizeChatCompletionsRequest } from '../../src/chat-completions/index.ts'
import { dsmlMiddleware } from '../../src/ai-sdk/index.ts'
import { callOptions, streamModel } from '../ai-sdk/support.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, close, eos, invoke, leaksMarkup, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const TEXTS = [
  `I will edit it.\n\n${block([invoke('edit', [param('path', 'a.ts')])])}`,
  `${block([invoke('bash', [param('command', 'ls')])])}\n${block([invoke('read', [param('path', 'b')])])} then more`,
  `Plan: ${block([invoke('bash', [param('command', 'ls')])]).split('\n')[0]}`,
  `All done.${eos()}`,
  `${close('parameter')} ... ${close('tool_calls')}`,
  'No markup at all.',
]

async function viaAiSdk(text: string): Promise<string> {
  const middleware = dsmlMiddleware({ allowUndeclaredTools: true })
  const prompt = [{ role: 'assistant', content: [{ type: 'text', text }] } as LanguageModelV4Message]
  const params = await middleware.transformParams!({ type: 'stream', params: callOptions([], { prompt }), model: streamModel([]) })
  return ((params.prompt[0] as Extract<LanguageModelV4Message, { role: 'assistant' }>).content[0] as { text: string }).text
}

function viaChatCompletions(text: string): string {
  const body = sanitizeChatCompletionsRequest({ messages: [{ role: 'assistant', content: text }] })
  return body.messages[0]!.content
}

export const suite = defineSuite('parts/history-repair', (test) => {
  test('one rule: the Chat Completions request helper and the AI SDK middleware repair history the same way', async () => {
    for (const text of TEXTS) {
      const expected = repairHistoryText(text).text
      assertEqual(viaChatCompletions(text), expected, `Chat Completions: ${JSON.stringify(text.slice(0, 30))}`)
      assertEqual(await viaAiSdk(text), expected, `AI SDK: ${JSON.stringify(text.slice(0, 30))}`)
      assert(!leaksMarkup(expected), 'no markup left')
    }
  })

  test('notes: in place of each removed call, naming its tool; none for special tokens alone; a second pass changes nothing', () => {
    assertEqual(repairHistoryText(TEXTS[0]!).text, `I will edit it.\n\n${historyNote('edit')}`)
    assertEqual(repairHistoryText(TEXTS[3]!).text, 'All done.')
    for (const text of TEXTS) {
      const once = repairHistoryText(text).text
      assertEqual(repairHistoryText(once).text, once, 'idempotent')
    }
    assertEqual(repairHistoryText(TEXTS[0]!, { note: () => '' }).text, 'I will edit it.\n\n', 'a note that leaves nothing')
  })
})
