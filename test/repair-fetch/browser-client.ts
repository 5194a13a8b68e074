/**
 * What the Chromium test (browser.test.ts) runs in the page, bundled for the
 * browser with the package's build and the official SDKs: each capture with
 * calls read through `createRepairFetch()` (the page's own `fetch`, no
 * gateway) by `openai` (Chat Completions streamed, `.stream()`, non-streamed;
 * Responses `.stream()` and non-streamed) and `@anthropic-ai/sdk` (Messages streamed,
 * `.stream()` and non-streamed). It returns what each SDK accumulated; the
 * test compares it with the captures' expected calls.
 */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { createRepairFetch } from 'dsml-streams'
import { foldChatStream, foldMessageStream } from './sdk-folds.ts'

export interface BrowserCapture {
  id: string
  tools: string[]
}

export interface BrowserResult {
  id: string
  flow: string
  calls: Array<{ name: string; arguments: unknown }>
  finish: string | null
  text: string
}

async function run(base: string, captures: BrowserCapture[]): Promise<BrowserResult[]> {
  const fetch = createRepairFetch()
  const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused', dangerouslyAllowBrowser: true, fetch, maxRetries: 0 })
  const anthropic = new Anthropic({ baseURL: base, apiKey: 'unused', dangerouslyAllowBrowser: true, fetch, maxRetries: 0 })
  const results: BrowserResult[] = []
  for (const capture of captures) {
    const chatTools = capture.tools.map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }))
    const chat = { model: capture.id, messages: [{ role: 'user' as const, content: 'go' }], ...(chatTools.length > 0 ? { tools: chatTools } : {}) }
    const fromChat = (flow: string, completion: OpenAI.Chat.ChatCompletion): BrowserResult => ({
      id: capture.id,
      flow,
      calls: (completion.choices[0]!.message.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [{ name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }] : [])),
      finish: completion.choices[0]!.finish_reason,
      text: completion.choices[0]!.message.content ?? '',
    })
    results.push(fromChat('openai chat .stream()', await openai.chat.completions.stream(chat).finalChatCompletion()))
    results.push(fromChat('openai chat create', await openai.chat.completions.create(chat)))
    results.push({ id: capture.id, flow: 'openai chat stream', ...(await foldChatStream(await openai.chat.completions.create({ ...chat, stream: true }))) })
    const responseTools = capture.tools.map((name) => ({ type: 'function' as const, name, parameters: { type: 'object' }, strict: false }))
    const responsesRequest = { model: capture.id, input: 'go', ...(responseTools.length > 0 ? { tools: responseTools } : {}) }
    for (const [flow, response] of [['openai responses .stream()', await openai.responses.stream(responsesRequest).finalResponse()], ['openai responses create', await openai.responses.create(responsesRequest)]] as const) {
      const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: JSON.parse(item.arguments) as unknown }] : []))
      results.push({ id: capture.id, flow, calls, finish: calls.length > 0 ? 'tool_calls' : 'stop', text: response.output_text })
    }
    const anthropicTools = capture.tools.map((name) => ({ name, input_schema: { type: 'object' as const } }))
    const messages = { model: capture.id, max_tokens: 1024, messages: [{ role: 'user' as const, content: 'go' }], ...(anthropicTools.length > 0 ? { tools: anthropicTools } : {}) }
    results.push({ id: capture.id, flow: 'anthropic stream', ...(await foldMessageStream(await anthropic.messages.create({ ...messages, stream: true }))) })
    for (const [flow, message] of [['anthropic .stream()', await anthropic.messages.stream(messages).finalMessage()], ['anthropic create', await anthropic.messages.create(messages)]] as const) {
      results.push({
        id: capture.id,
        flow,
        calls: message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : [])),
        finish: message.stop_reason,
        text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
      })
    }
  }
  return results
}

;(globalThis as unknown as { runSdkFlows: typeof run }).runSdkFlows = run
