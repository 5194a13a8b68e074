/**
 * The official SDKs as clients, over loopback sockets (Node only): the
 * gateway, on the replay upstream, behind a node:http server; the `openai`
 * package reads `/v1/chat/completions` (from a Chat Completions upstream and
 * from a Lingma one) and `/v1/responses`, and
 * `@anthropic-ai/sdk` reads `/v1/messages`, each with its own stream reader.
 * The messages the SDKs accumulate themselves hold the recovered tool calls
 * and no marker.
 */
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createNodeListener } from '../../src/cli/node-bridge.ts'
import { createReplayUpstream, type ReplayCapture } from '../../src/cli/replay-upstream.ts'
import { createChatCompletionsGateway } from '../../src/gateway/index.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { hasMarker } from './support.ts'

interface Capture extends ReplayCapture {
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>
  /** The tools the capture's request declared (markerless markup is a call only for a declared tool). */
  tools?: Array<{ name: string }>
}

const names = (capture: Capture): string[] => (capture.tools ?? []).map((tool) => tool.name)

const captures = leaks as Capture[]
/** Captures with calls to recover, each replayed on every route. */
const withCalls = captures.filter((capture) => capture.expected_calls.length > 0)

let server: Server
let base: string
/** A second gateway whose Chat Completions upstream speaks Lingma (the replay in the Lingma wire). */
let lingmaServer: Server
let lingmaBase: string

async function listen(gateway: ReturnType<typeof createChatCompletionsGateway>): Promise<[Server, string]> {
  const listening = createServer(createNodeListener(gateway))
  listening.listen(0, '127.0.0.1')
  await once(listening, 'listening')
  return [listening, `http://127.0.0.1:${(listening.address() as AddressInfo).port}`]
}

beforeAll(async () => {
  const replay = createReplayUpstream(captures)
  ;[server, base] = await listen(createChatCompletionsGateway({ upstream: 'http://replay.internal/v1', fetch: replay }))
  ;[lingmaServer, lingmaBase] = await listen(createChatCompletionsGateway({ upstream: 'http://replay.internal', upstreamDialect: 'lingma', fetch: replay }))
})

afterAll(async () => {
  for (const listening of [server, lingmaServer]) {
    listening.closeAllConnections()
    await new Promise<void>((resolve) => listening.close(() => resolve()))
  }
})

describe('official SDK clients through the gateway', () => {
  test('openai: chat.completions.stream — the accumulated message has the recovered tool_calls and no marker', async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused' })
    for (const capture of withCalls) {
      const tools = names(capture).map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }))
      const stream = client.chat.completions.stream({ model: capture.id, messages: [{ role: 'user', content: 'go' }], ...(tools.length > 0 ? { tools } : {}) })
      const completion = await stream.finalChatCompletion()
      const message = completion.choices[0]!.message
      const calls = (message.tool_calls ?? []).map((call) => (call.type === 'function' ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : call))
      expect(calls, capture.id).toEqual(capture.expected_calls)
      expect(completion.choices[0]!.finish_reason, capture.id).toBe('tool_calls')
      expect(hasMarker(message.content ?? ''), capture.id).toBe(false)
    }
  })

  test('openai: chat.completions.stream and create through a Lingma upstream (upstreamDialect lingma) — the recovered tool_calls, no marker', async () => {
    const client = new OpenAI({ baseURL: `${lingmaBase}/v1`, apiKey: 'unused' })
    for (const capture of withCalls) {
      const tools = names(capture).map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }))
      const request = { model: capture.id, messages: [{ role: 'user' as const, content: 'go' }], ...(tools.length > 0 ? { tools } : {}) }
      const streamed = await client.chat.completions.stream(request).finalChatCompletion()
      const created = await client.chat.completions.create(request)
      for (const completion of [streamed, created]) {
        const message = completion.choices[0]!.message
        const calls = (message.tool_calls ?? []).map((call) => (call.type === 'function' ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : call))
        expect(calls, capture.id).toEqual(capture.expected_calls)
        expect(completion.choices[0]!.finish_reason, capture.id).toBe('tool_calls')
        expect(hasMarker(message.content ?? ''), capture.id).toBe(false)
      }
    }
  })

  test('openai: responses.stream — the final response has the recovered function_call items and no marker', async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused' })
    for (const capture of withCalls) {
      const tools = names(capture).map((name) => ({ type: 'function' as const, name, parameters: { type: 'object' }, strict: false }))
      const stream = client.responses.stream({ model: capture.id, input: 'go', ...(tools.length > 0 ? { tools } : {}) })
      const response = await stream.finalResponse()
      const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: JSON.parse(item.arguments) as unknown }] : []))
      expect(calls, capture.id).toEqual(capture.expected_calls)
      expect(hasMarker(response.output_text), capture.id).toBe(false)
    }
  })

  test('@anthropic-ai/sdk: messages.stream — the final message has the recovered tool_use blocks and no marker', async () => {
    const client = new Anthropic({ baseURL: base, apiKey: 'unused' })
    for (const capture of withCalls) {
      const tools = names(capture).map((name) => ({ name, input_schema: { type: 'object' as const } }))
      const stream = client.messages.stream({ model: capture.id, max_tokens: 1024, messages: [{ role: 'user', content: 'go' }], ...(tools.length > 0 ? { tools } : {}) })
      const message = await stream.finalMessage()
      const calls = message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : []))
      expect(calls, capture.id).toEqual(capture.expected_calls)
      expect(message.stop_reason, capture.id).toBe('tool_use')
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
      expect(hasMarker(text), capture.id).toBe(false)
    }
  })
})

describe('official SDK clients through the gateway, calls streamed as they form (streamToolCalls)', () => {
  let streaming: Server
  let streamingBase: string
  beforeAll(async () => {
    ;[streaming, streamingBase] = await listen(createChatCompletionsGateway({ upstream: 'http://replay.internal/v1', fetch: createReplayUpstream(captures), streamToolCalls: true }))
  })
  afterAll(async () => {
    streaming.closeAllConnections()
    await new Promise<void>((resolve) => streaming.close(() => resolve()))
  })

  test('openai chat.completions.stream, responses.stream and @anthropic-ai/sdk messages.stream accumulate the same calls as with the option off', async () => {
    const openai = new OpenAI({ baseURL: `${streamingBase}/v1`, apiKey: 'unused' })
    const anthropic = new Anthropic({ baseURL: streamingBase, apiKey: 'unused' })
    let argumentDeltas = 0
    for (const capture of withCalls) {
      const chatTools = names(capture).map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }))
      const chat = openai.chat.completions.stream({ model: capture.id, messages: [{ role: 'user', content: 'go' }], ...(chatTools.length > 0 ? { tools: chatTools } : {}) })
      chat.on('tool_calls.function.arguments.delta', () => argumentDeltas++)
      const completion = await chat.finalChatCompletion()
      const message = completion.choices[0]!.message
      expect((message.tool_calls ?? []).map((call) => (call.type === 'function' ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : call)), capture.id).toEqual(capture.expected_calls)
      expect([completion.choices[0]!.finish_reason, hasMarker(message.content ?? '')], capture.id).toEqual(['tool_calls', false])

      const responseTools = names(capture).map((name) => ({ type: 'function' as const, name, parameters: { type: 'object' }, strict: false }))
      const response = await openai.responses.stream({ model: capture.id, input: 'go', ...(responseTools.length > 0 ? { tools: responseTools } : {}) }).finalResponse()
      expect(response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: JSON.parse(item.arguments) as unknown }] : [])), capture.id).toEqual(capture.expected_calls)

      const messageTools = names(capture).map((name) => ({ name, input_schema: { type: 'object' as const } }))
      const anthropicMessage = await anthropic.messages.stream({ model: capture.id, max_tokens: 1024, messages: [{ role: 'user', content: 'go' }], ...(messageTools.length > 0 ? { tools: messageTools } : {}) }).finalMessage()
      expect(anthropicMessage.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : [])), capture.id).toEqual(capture.expected_calls)
      expect(anthropicMessage.stop_reason, capture.id).toBe('tool_use')
    }
    expect(argumentDeltas).toBeGreaterThan(withCalls.length)
  })
})

