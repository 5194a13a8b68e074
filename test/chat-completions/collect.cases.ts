/**
 * `collectChatCompletion`: streamed chunks → the `chat.completion` a
 * non-streaming request gets, as OpenAI's SDKs accumulate a stream.
 */
import { collectChatCompletion } from '../../src/chat-completions/collect.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 7, model: 'm' }

export const suite = defineSuite('chat-completions/collect', (test) => {
  test('content and reasoning joined per choice; tool calls by index, arguments joined, a name repeated on every delta kept once; last finish; usage', () => {
    const chunks = [
      { ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
      { ...head, choices: [{ index: 0, delta: { reasoning_content: 'Think' } }, { index: 1, delta: { content: 'B' } }] },
      { ...head, choices: [{ index: 0, delta: { content: 'Hel', reasoning_content: 'ing.' } }] },
      { ...head, choices: [{ index: 0, delta: { content: 'lo', tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{"c' } }] } }] },
      { ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'bash', arguments: '":1}' } }, { index: 1, id: 'call_b', function: { name: 'read', arguments: '{}' } }] } }] },
      { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }, { index: 1, delta: {}, finish_reason: 'stop' }] },
      { ...head, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
    ]
    assertEqual(collectChatCompletion(chunks), {
      completion: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 7,
        model: 'm',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Hello',
              reasoning_content: 'Thinking.',
              tool_calls: [
                { id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{"c":1}' } },
                { id: 'call_b', type: 'function', function: { name: 'read', arguments: '{}' } },
              ],
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
          { index: 1, message: { role: 'assistant', content: 'B' }, logprobs: null, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      },
    })
  })

  test('an error chunk ends the collection with its error; odd chunks (not objects, no choices, bad deltas) are skipped, and a call no delta named is none', () => {
    assertEqual(collectChatCompletion([{ ...head, choices: [{ index: 0, delta: { content: 'a' } }] }, { error: { message: 'boom', status: 502 } }]), { error: { message: 'boom', status: 502 } })
    const odd = collectChatCompletion([null, 'x', { ...head, choices: 'no' }, { ...head, choices: [null, { delta: 'no' }, { delta: { tool_calls: [null, { index: -1, function: 'x' }] } }] }])
    assertEqual(odd, { completion: { id: 'chatcmpl-1', object: 'chat.completion', created: 7, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null }, logprobs: null, finish_reason: null }] } })
  })
})
