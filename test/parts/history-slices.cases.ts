/**
 * history-slices.ts: history repair in slices (what the gateway runs, so that a long history does not hold the
 * event loop) gives each dialect's body exactly as its whole-text request helper does, whatever falls on a slice's
 * edge; and a history walk that asks for other texts the second time is refused rather than answered wrongly.
 */
import { repairAnthropicHistory, sanitizeAnthropicRequest } from '../../src/anthropic/request.ts'
import { repairChatCompletionsHistory, sanitizeChatCompletionsRequest } from '../../src/chat-completions/request.ts'
import { repairHistoryText } from '../../src/parts/history-repair.ts'
import { repairHistoryInSlices, SLICE_CHARS } from '../../src/parts/history-slices.ts'
import { repairResponsesHistory, sanitizeResponsesRequest } from '../../src/responses/request.ts'
import { assertEqual } from '../support/assert.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const LEAK = block([invoke('bash', [param('command', 'ls -la')])])

/** Texts of several slices, with a leaked call across each slice edge it can meet, and a short one. */
function texts(): string[] {
  const out: string[] = ['short, with no markup', `short, then ${LEAK}`]
  for (const before of [SLICE_CHARS - 3, SLICE_CHARS - LEAK.length + 2, 3 * SLICE_CHARS - 1]) {
    out.push(`${'prose a < b '.repeat(Math.ceil(before / 12)).slice(0, before)}${LEAK}${' tail <'.repeat(2 * SLICE_CHARS / 7)}`)
  }
  return out
}

const OPTIONS = { preventiveDirective: true, recoveryNudge: true }

export const suite = defineSuite('parts/history-slices', (test) => {
  test('each dialect: the body repaired in slices is the body its request helper gives at once', async () => {
    const assistant = texts()
    const chat = { model: 'm', messages: assistant.flatMap((text) => [{ role: 'user', content: 'go' }, { role: 'assistant', content: text }]) }
    assertEqual(await repairHistoryInSlices((repair) => repairChatCompletionsHistory(chat, OPTIONS, repair)), sanitizeChatCompletionsRequest(chat, OPTIONS), 'Chat Completions')
    const messages = { model: 'm', messages: assistant.map((text) => ({ role: 'assistant', content: [{ type: 'text', text }] })) }
    assertEqual(await repairHistoryInSlices((repair) => repairAnthropicHistory(messages, OPTIONS, repair)), sanitizeAnthropicRequest(messages, OPTIONS), 'Anthropic')
    const responses = { model: 'm', input: assistant.map((text) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] })) }
    assertEqual(await repairHistoryInSlices((repair) => repairResponsesHistory(responses, OPTIONS, repair)), sanitizeResponsesRequest(responses, OPTIONS), 'Responses')
  })

  test('a text of several slices: the same text, notes and count as repairHistoryText', async () => {
    for (const text of texts()) {
      let sliced: unknown
      await repairHistoryInSlices((repair) => (sliced = repair(text, {})))
      assertEqual(sliced, repairHistoryText(text), JSON.stringify(text.slice(0, 20)))
    }
  })

  test('a walk that asks for other texts the second time is refused', async () => {
    let call = 0
    const error = await repairHistoryInSlices((repair) => repair(call++ === 0 ? 'first' : 'second', {})).then(() => undefined, (thrown: unknown) => thrown)
    assertEqual(error instanceof Error ? error.message : error, 'A history walk asked for other texts the second time')
  })
})
