// A minimal streaming AI SDK model for an OpenAI-compatible `/chat/completions`
// endpoint (DeepSeek, vLLM, SGLang, OpenRouter…), so examples/ai-sdk.ts can talk
// to a real server without another dependency. In an app, use a real provider
// (`@ai-sdk/deepseek`, `@ai-sdk/openai-compatible`) and wrap it the same way.
// Only `doStream` is implemented; text, reasoning (`reasoning_content`), tool
// calls and the finish reason are mapped, enough for `streamText`.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider'
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream'

export interface OpenAICompatibleSettings {
  /** e.g. `https://api.deepseek.com` or `http://localhost:8000/v1` (`/chat/completions` is appended). */
  baseURL: string
  apiKey?: string
  model: string
}

interface ChunkToolCall {
  index?: number
  id?: string
  function?: { name?: string; arguments?: string }
}

interface Chunk {
  choices?: Array<{
    delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ChunkToolCall[] }
    finish_reason?: string | null
  }>
}

type Message = Record<string, unknown>

function toMessages(prompt: LanguageModelV4Prompt): Message[] {
  const messages: Message[] = []
  for (const message of prompt) {
    if (message.role === 'system') {
      messages.push({ role: 'system', content: message.content })
    } else if (message.role === 'user') {
      messages.push({ role: 'user', content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') })
    } else if (message.role === 'assistant') {
      let content = ''
      const toolCalls: Message[] = []
      for (const part of message.content) {
        if (part.type === 'text') content += part.text
        else if (part.type === 'tool-call') {
          toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: JSON.stringify(part.input) } })
        }
      }
      messages.push({ role: 'assistant', content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) })
    } else {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue
        const output = part.output
        const content = output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify('value' in output ? output.value : output)
        messages.push({ role: 'tool', tool_call_id: part.toolCallId, content })
      }
    }
  }
  return messages
}

function finishReasonOf(raw: string | undefined): LanguageModelV4FinishReason {
  const unified = raw === 'stop' ? 'stop' : raw === 'length' ? 'length' : raw === 'tool_calls' ? 'tool-calls' : raw === 'content_filter' ? 'content-filter' : 'other'
  return { unified, raw }
}

function toParts(): TransformStream<EventSourceMessage, LanguageModelV4StreamPart> {
  let textOpen = false
  let reasoningOpen = false
  let finish: string | undefined
  const calls = new Map<number, { id: string; name: string; arguments: string }>()
  return new TransformStream({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] })
    },
    transform(event, controller) {
      if (event.data === '[DONE]') return
      const chunk = JSON.parse(event.data) as Chunk
      const choice = chunk.choices?.[0]
      if (choice === undefined) return
      const delta = choice.delta ?? {}
      if (delta.reasoning_content) {
        if (!reasoningOpen) controller.enqueue({ type: 'reasoning-start', id: 'reasoning-0' })
        reasoningOpen = true
        controller.enqueue({ type: 'reasoning-delta', id: 'reasoning-0', delta: delta.reasoning_content })
      }
      if (delta.content) {
        if (reasoningOpen) controller.enqueue({ type: 'reasoning-end', id: 'reasoning-0' })
        reasoningOpen = false
        if (!textOpen) controller.enqueue({ type: 'text-start', id: 'txt-0' })
        textOpen = true
        controller.enqueue({ type: 'text-delta', id: 'txt-0', delta: delta.content })
      }
      for (const call of delta.tool_calls ?? []) {
        const index = call.index ?? calls.size
        const entry = calls.get(index) ?? { id: call.id ?? `call_${index}`, name: '', arguments: '' }
        entry.name += call.function?.name ?? ''
        entry.arguments += call.function?.arguments ?? ''
        calls.set(index, entry)
      }
      if (choice.finish_reason) finish = choice.finish_reason
    },
    flush(controller) {
      if (reasoningOpen) controller.enqueue({ type: 'reasoning-end', id: 'reasoning-0' })
      if (textOpen) controller.enqueue({ type: 'text-end', id: 'txt-0' })
      for (const call of calls.values()) {
        controller.enqueue({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments || '{}' })
      }
      const none = { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }
      controller.enqueue({
        type: 'finish',
        finishReason: finishReasonOf(finish),
        usage: { inputTokens: none, outputTokens: { total: undefined, text: undefined, reasoning: undefined } },
      })
    },
  })
}

export function openAICompatibleModel(settings: OpenAICompatibleSettings): LanguageModelV4 {
  const url = `${settings.baseURL.replace(/\/+$/, '')}/chat/completions`
  return {
    specificationVersion: 'v4',
    provider: 'openai-compatible.example',
    modelId: settings.model,
    supportedUrls: {},
    async doGenerate() {
      throw new Error('This example model only streams: use streamText')
    },
    async doStream(options: LanguageModelV4CallOptions) {
      const tools = (options.tools ?? []).flatMap((tool) =>
        tool.type === 'function' ? [{ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }] : [],
      )
      const body = { model: settings.model, stream: true, messages: toMessages(options.prompt), ...(tools.length > 0 ? { tools } : {}) }
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: options.abortSignal })
      if (!response.ok || response.body === null) throw new Error(`${url} answered ${response.status}: ${await response.text()}`)
      const stream = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).pipeThrough(toParts())
      return { stream, request: { url, body } }
    },
  }
}
