/**
 * The official SDKs with `fetch: createRepairFetch(…)` and no gateway: the
 * `openai` package (Chat Completions streamed, its `.stream()` helper and
 * non-streamed; the Responses API's `.stream()` helper and non-streamed) and
 * `@anthropic-ai/sdk` (Messages streamed, its `.stream()` helper and
 * non-streamed) read every capture with calls from the replay upstream. What
 * each SDK accumulates itself holds the capture's calls and no marker.
 */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { createReplayUpstream } from '../../src/cli/replay-upstream.ts'
import { createRepairFetch } from '../../src/repair-fetch/index.ts'
import { type Capture, captures } from '../support/captures.ts'
import { hasMarker } from '../gateway/support.ts'
import { foldChatStream, foldMessageStream } from './sdk-folds.ts'

const replay = createReplayUpstream(captures)
const repairFetch = createRepairFetch({ fetch: (input, init) => replay(new Request(input, init)) })
const withCalls = captures.filter((capture) => capture.expected_calls.length > 0)
const names = (capture: Capture): string[] => (capture.tools ?? []).map((tool) => tool.name)

const openai = new OpenAI({ baseURL: 'http://api.test/v1', apiKey: 'unused', fetch: repairFetch, maxRetries: 0 })
const anthropic = new Anthropic({ baseURL: 'http://api.test', apiKey: 'unused', fetch: repairFetch, maxRetries: 0 })

function chatRequest(capture: Capture): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming & { stream?: undefined } {
  const tools = names(capture).map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }))
  return { model: capture.id, messages: [{ role: 'user', content: 'go' }], ...(tools.length > 0 ? { tools } : {}) }
}

function chatCalls(message: OpenAI.Chat.ChatCompletionMessage): unknown[] {
  return (message.tool_calls ?? []).map((call) => (call.type === 'function' ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : call))
}

describe('official SDK clients with createRepairFetch (no gateway)', () => {
  test('openai Chat Completions: streamed (chunks folded), .stream().finalChatCompletion() and non-streamed — every capture\'s calls, finish tool_calls, no marker', async () => {
    let checked = 0
    for (const capture of withCalls) {
      const streamed = await foldChatStream(await openai.chat.completions.create({ ...chatRequest(capture), stream: true }))
      expect(streamed.calls, capture.id).toEqual(capture.expected_calls)
      expect([streamed.finish, hasMarker(streamed.text)], capture.id).toEqual(['tool_calls', false])
      const helper = await openai.chat.completions.stream(chatRequest(capture)).finalChatCompletion()
      const created = await openai.chat.completions.create(chatRequest(capture))
      for (const completion of [helper, created]) {
        expect(chatCalls(completion.choices[0]!.message), capture.id).toEqual(capture.expected_calls)
        expect([completion.choices[0]!.finish_reason, hasMarker(completion.choices[0]!.message.content ?? '')], capture.id).toEqual(['tool_calls', false])
      }
      checked++
    }
    expect(checked).toBe(withCalls.length)
  })

  test('openai Responses API: .stream().finalResponse() and non-streamed — every capture\'s function_call items, no marker', async () => {
    for (const capture of withCalls) {
      const tools = names(capture).map((name) => ({ type: 'function' as const, name, parameters: { type: 'object' }, strict: false }))
      const request = { model: capture.id, input: 'go', ...(tools.length > 0 ? { tools } : {}) }
      for (const response of [await openai.responses.stream(request).finalResponse(), await openai.responses.create(request)]) {
        const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: JSON.parse(item.arguments) as unknown }] : []))
        expect(calls, capture.id).toEqual(capture.expected_calls)
        expect(hasMarker(response.output_text), capture.id).toBe(false)
      }
    }
  })

  test('@anthropic-ai/sdk Messages: streamed (events folded), .stream().finalMessage() and non-streamed — every capture\'s tool_use blocks, stop_reason tool_use, no marker', async () => {
    for (const capture of withCalls) {
      const tools = names(capture).map((name) => ({ name, input_schema: { type: 'object' as const } }))
      const request = { model: capture.id, max_tokens: 1024, messages: [{ role: 'user' as const, content: 'go' }], ...(tools.length > 0 ? { tools } : {}) }
      const streamed = await foldMessageStream(await anthropic.messages.create({ ...request, stream: true }))
      expect(streamed.calls, capture.id).toEqual(capture.expected_calls)
      expect([streamed.finish, hasMarker(streamed.text)], capture.id).toEqual(['tool_use', false])
      for (const message of [await anthropic.messages.stream(request).finalMessage(), await anthropic.messages.create(request)]) {
        const calls = message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : []))
        expect(calls, capture.id).toEqual(capture.expected_calls)
        const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
        expect([message.stop_reason, hasMarker(text)], capture.id).toEqual(['tool_use', false])
      }
    }
  })
})
