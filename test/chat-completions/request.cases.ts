import { historyNote, repairHistoryText } from '../../src/parts/index.ts'
import { sanitizeChatCompletionsRequest } from '../../src/chat-completions/index.ts'
/**
 * `sanitizeChatCompletionsRequest` (history repair before the next request)
 * and `repairHistoryText` under it:
 *
 * - assistant messages lose leaked markup; a short note naming the removed
 *   tool stands in its place (`[removed leaked tool call: NAME]`), nothing
 *   for markup that named no tool (an end-of-sentence token, stray closers);
 * - `content: null` beside `tool_calls` becomes `""`; `reasoning_content`
 *   is kept;
 * - user, system, developer and tool messages pass unchanged (the same
 *   objects), whatever they hold;
 * - synthetic calls are never appended; the input is never modified;
 *   unchanged messages (and an unchanged body) are the same objects.
 */

const sanitizeHistoryText = (text: string): string => repairHistoryText(text).text
import { assert, assertEqual } from '../support/assert.ts'
import { block, close, eos, invoke, leaksMarkup, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const BASH = block([invoke('bash', [param('command', 'ls -la')])])
const TWO = block([invoke('read', [param('path', '/a')]), invoke('edit', [param('path', '/b'), param('text', 'x')])])

/** Freezes `value` and everything under it, so any write throws (ESM is strict). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

interface Message {
  role: string
  content?: unknown
  [key: string]: unknown
}

function body(messages: Message[]): { model: string; stream: boolean; messages: Message[]; tools: unknown[] } {
  return { model: 'deepseek-v4-flash', stream: true, messages, tools: [{ type: 'function', function: { name: 'bash', parameters: {} } }] }
}

export const suite = defineSuite('chat-completions/request', (test) => {
  test('assistant message: the markup is removed, a note names the removed tool, the text around it is kept', () => {
    const input = deepFreeze(body([{ role: 'user', content: 'list files' }, { role: 'assistant', content: `Sure. ${BASH} Done.` }]))
    const output = sanitizeChatCompletionsRequest(input)
    assertEqual(output.messages[1], { role: 'assistant', content: 'Sure. [removed leaked tool call: bash] Done.' }, 'assistant message')
    assert(!leaksMarkup(JSON.stringify(output)), 'no markup left')
    assertEqual(output.model, input.model, 'other body fields kept')
    assert(output.tools === input.tools, 'other body fields are the same objects')
    assert(output.messages[0] === input.messages[0], 'the user message is the same object')
  })

  test('a block with several calls: one note per tool, in order', () => {
    assertEqual(sanitizeHistoryText(`x ${TWO} y`), 'x [removed leaked tool call: read] [removed leaked tool call: edit] y')
    assertEqual(sanitizeHistoryText(`a${BASH}b${BASH}c`), 'a[removed leaked tool call: bash]b[removed leaked tool call: bash]c', 'two blocks, two notes')
  })

  test('history repair (one rule, history-repair.ts): special tokens leave no note; call markup naming no tool an unnamed one', () => {
    assertEqual(sanitizeHistoryText(`Done.${eos()}`), 'Done.', 'eos')
    assertEqual(sanitizeHistoryText(`${close('parameter')} ... ${close('tool_calls')}`), '[removed leaked tool call]', 'stray closers')
    assertEqual(historyNote(undefined), '[removed leaked tool call]', 'default note without a tool')
    assertEqual(historyNote('bash'), '[removed leaked tool call: bash]', 'default note with a tool')
  })

  test('a custom note, and a note that leaves nothing', () => {
    const seen: Array<string | undefined> = []
    const output = sanitizeChatCompletionsRequest(body([{ role: 'assistant', content: `Go ${BASH}` }]), {
      note: (tool) => {
        seen.push(tool)
        return `(${tool ?? '?'} removed)`
      },
    })
    assertEqual(output.messages[0]?.content, 'Go (bash removed)', 'custom note')
    assertEqual(seen, ['bash'], 'called with the tool')
    assertEqual(sanitizeChatCompletionsRequest(body([{ role: 'assistant', content: `Go ${BASH}` }]), { note: () => '' }).messages[0]?.content, 'Go ', 'empty note')
  })

  test('content: null with tool_calls becomes ""; null without tool_calls stays null; tool_calls untouched', () => {
    const toolCalls = [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }]
    const input = deepFreeze(body([{ role: 'assistant', content: null, tool_calls: toolCalls }, { role: 'assistant', content: null }]))
    const output = sanitizeChatCompletionsRequest(input)
    assertEqual(output.messages[0], { role: 'assistant', content: '', tool_calls: toolCalls }, 'null → ""')
    assert(output.messages[0]?.tool_calls === toolCalls, 'tool_calls are the same array')
    assert(output.messages[1] === input.messages[1], 'null without tool_calls: same message')
  })

  test('reasoning_content is kept', () => {
    const input = deepFreeze(body([{ role: 'assistant', content: `ok ${BASH}`, reasoning_content: 'I will list the files.', tool_calls: [] }]))
    const output = sanitizeChatCompletionsRequest(input)
    assertEqual(output.messages[0]?.reasoning_content, 'I will list the files.', 'kept')
    assertEqual(output.messages[0]?.content, 'ok [removed leaked tool call: bash]', 'content cleaned')
    const empty = sanitizeChatCompletionsRequest(body([{ role: 'assistant', content: BASH, reasoning_content: '' }]))
    assertEqual(empty.messages[0]?.reasoning_content, '', 'an empty reasoning_content is kept too (DeepSeek requires it on tool turns)')
  })

  test('user, system, developer and tool messages pass unchanged, markup and all (the same objects)', () => {
    const messages: Message[] = [
      { role: 'system', content: `Never write ${BASH}` },
      { role: 'developer', content: BASH },
      { role: 'user', content: [{ type: 'text', text: BASH }] },
      { role: 'tool', tool_call_id: 'call_1', content: BASH },
      { role: 'function', name: 'bash', content: BASH },
    ]
    const input = deepFreeze(body(messages))
    const output = sanitizeChatCompletionsRequest(input)
    assert(output === input, 'nothing changed: the same body')
    messages.forEach((message, index) => assert(output.messages[index] === message, `${message.role}: same object`))
  })

  test('never appends synthetic calls: a fully leaked call leaves a note and no tool_calls', () => {
    const output = sanitizeChatCompletionsRequest(deepFreeze(body([{ role: 'assistant', content: BASH }, { role: 'user', content: 'and?' }])))
    assertEqual(output.messages[0], { role: 'assistant', content: '[removed leaked tool call: bash]' }, 'note only')
    assertEqual(output.messages.length, 2, 'no message added')
    assert(!('tool_calls' in (output.messages[0] as object)), 'no tool_calls')
  })

  test('content as an array of parts: text parts cleaned, other parts the same objects', () => {
    const image = { type: 'image_url', image_url: { url: 'data:,x' } }
    const refusal = { type: 'refusal', refusal: BASH }
    const clean = { type: 'text', text: 'plain' }
    const input = deepFreeze(body([{ role: 'assistant', content: [clean, { type: 'text', text: `a ${BASH}` }, image, refusal] }]))
    const output = sanitizeChatCompletionsRequest(input)
    const parts = output.messages[0]?.content as unknown[]
    assertEqual(parts[1], { type: 'text', text: 'a [removed leaked tool call: bash]' }, 'text part cleaned')
    assert(parts[0] === clean && parts[2] === image && parts[3] === refusal, 'other parts are the same objects')
  })

  test('an unchanged assistant message is the same object; an unchanged body is the same body', () => {
    const input = deepFreeze(body([{ role: 'assistant', content: 'a < b and c | d' }, { role: 'assistant', content: 'x', tool_calls: [] }]))
    assert(sanitizeChatCompletionsRequest(input) === input, 'same body')
  })

  test('markup inside a code fence is documentation: kept', () => {
    const fenced = `See:\n\`\`\`\n${BASH}\n\`\`\``
    const input = body([{ role: 'assistant', content: fenced }])
    assert(sanitizeChatCompletionsRequest(input) === input, 'unchanged')
  })

  test('a body that is not an object, or has no messages array, is returned as it came', () => {
    for (const value of [null, undefined, 'text', 42, { model: 'm' }, { messages: 'nope' }]) {
      assert(sanitizeChatCompletionsRequest(value) === value, `returned as is: ${JSON.stringify(value)}`)
    }
    const odd = body([null as unknown as Message, 'x' as unknown as Message, { role: 'assistant', content: 7 }])
    assert(sanitizeChatCompletionsRequest(odd) === odd, 'odd messages pass')
  })

  test('the repaired history is stable: sanitizing it again changes nothing', () => {
    const once = sanitizeChatCompletionsRequest(body([{ role: 'assistant', content: `x ${TWO} y ${eos()}` }]))
    assert(sanitizeChatCompletionsRequest(once) === once, 'second pass: same body')
  })
})
