/**
 * `repairChatCompletionsResponse`: wraps a `fetch` `Response` from a Chat
 * Completions endpoint.
 *
 * - `text/event-stream` body → through the fused repair (the same bytes as
 *   `ChatCompletionsRepairStream`).
 * - JSON `chat.completion` body → `message.content` (and
 *   `reasoning_content`) cleaned, recovered calls appended to
 *   `message.tool_calls` when the message has none, `finish_reason` `stop` →
 *   `tool_calls`. A body nothing touched is returned byte for byte.
 * - Status, status text and headers are kept (minus `content-length` and
 *   `content-encoding`, which the decoded, changed body no longer matches). Non-2xx responses, bodies of other types
 *   and empty bodies pass through untouched.
 */
import { withRequestDefaults } from './request-tools.ts'
import type { ToolCall } from '../dsml/types.ts'
import type { Part } from '../parts/part.ts'
import { createPartRepair } from '../parts/part-repair.ts'
import { type ChatCompletionsRepairOptions, createChatCompletionsRepairCore } from './repair.ts'
import { repairResponse } from '../dialect-kit/repair-response.ts'

export interface RepairChatCompletionsResponseOptions extends ChatCompletionsRepairOptions {}

interface JsonMessage {
  role?: string
  content?: unknown
  reasoning_content?: unknown
  tool_calls?: unknown
  [key: string]: unknown
}

interface JsonChoice {
  message?: JsonMessage
  finish_reason?: unknown
  [key: string]: unknown
}

function toWire(call: ToolCall): { id: string; type: 'function'; function: { name: string; arguments: string } } {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }
}

/** A message's native calls as the parts a stream would have carried. */
function nativeParts(toolCalls: unknown): Part[] {
  if (!Array.isArray(toolCalls)) return []
  return toolCalls.map((call: { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null, index) => {
    const part: Part = { type: 'native-tool-call', index }
    const name = call?.function?.name
    const args = call?.function?.arguments
    part.id = typeof call?.id === 'string' ? call.id : `native_${index}`
    if (typeof name === 'string') part.name = name
    if (typeof args === 'string') part.arguments = args
    return part
  })
}

/** One message through the part pipeline: its reasoning, its content (each as the pieces the repair gave), its native calls, its finish. */
function repairMessage(message: JsonMessage, finishReason: unknown, options: RepairChatCompletionsResponseOptions) {
  const content: string[] = []
  const reasoning: string[] = []
  const calls: ToolCall[] = []
  let finish: string | undefined
  // A whole message: its calls are written whole (`streamToolCalls` is for streams).
  const repair = createPartRepair({ ...options, streamToolCalls: false }, {
    emit(part) {
      if (part.type === 'text') content.push(part.text)
      else if (part.type === 'reasoning') reasoning.push(part.text)
      else if (part.type === 'synthesized-tool-call') calls.push(part.call)
      else if (part.type === 'finish') finish = part.reason
    },
  })
  if (typeof message.reasoning_content === 'string') repair.feed({ type: 'reasoning', text: message.reasoning_content })
  if (typeof message.content === 'string') repair.feed({ type: 'text', text: message.content })
  for (const part of nativeParts(message.tool_calls)) repair.feed(part)
  if (typeof finishReason === 'string') repair.feed({ type: 'finish', reason: finishReason })
  repair.end()
  return { content, reasoning, calls, finish }
}

/**
 * Whether the repair of `text` changed it. The repair only removes (the
 * engine's conservation: its text and what it removed give back the input,
 * in order), so its pieces are the text unchanged exactly when they are as
 * long: no piece is joined to find out.
 */
function changedText(text: string, pieces: readonly string[]): boolean {
  let length = 0
  for (const piece of pieces) length += piece.length
  return length !== text.length
}

/**
 * `repairChatCompletion`, each repaired text given as `text(pieces)`: the
 * pieces the repair gave, which join to it (`repairChatCompletion` joins
 * them; a writer may write them one by one, never holding the joined text).
 */
export function repairChatCompletionWith(body: unknown, given: RepairChatCompletionsResponseOptions, text: (pieces: readonly string[]) => unknown): unknown {
  const options = withRequestDefaults(given)
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { choices?: unknown }).choices)) return undefined
  const choices = (body as { choices: JsonChoice[] }).choices
  let changed = false
  const repairedChoices = choices.map((choice) => {
    const message = choice?.message
    if (message === undefined || message === null || typeof message !== 'object') return choice
    const repaired = repairMessage(message, choice.finish_reason, options)
    const next: JsonMessage = { ...message }
    let touched = false
    if (typeof message.reasoning_content === 'string' && changedText(message.reasoning_content, repaired.reasoning)) {
      next.reasoning_content = text(repaired.reasoning)
      touched = true
    }
    if (typeof message.content === 'string' && changedText(message.content, repaired.content)) {
      next.content = text(repaired.content)
      touched = true
    }
    if (repaired.calls.length > 0) {
      next.tool_calls = repaired.calls.map(toWire)
      touched = true
    }
    if (!touched) return choice
    changed = true
    return { ...choice, finish_reason: repaired.finish ?? choice.finish_reason, message: next }
  })
  return changed ? { ...body, choices: repairedChoices } : undefined
}

const joined = (pieces: readonly string[]): string => pieces.join('')

/** Repairs a parsed `chat.completion` object; returns undefined when nothing changed. */
export function repairChatCompletion(body: unknown, given: RepairChatCompletionsResponseOptions = {}): unknown {
  return repairChatCompletionWith(body, given, joined)
}

/**
 * Repairs a Chat Completions `Response`, streamed (SSE) or a JSON `chat.completion`: markup
 * removed, recovered calls as `tool_calls`. Pass `request` so its declared tools gate and shape the
 * calls.
 *
 * @example
 * ```ts
 * const upstream = await fetch(url, { method: 'POST', headers, body })
 * return repairChatCompletionsResponse(upstream, { knownTools: ['bash'] })
 * ```
 */
export function repairChatCompletionsResponse(response: Response, options: RepairChatCompletionsResponseOptions = {}): Promise<Response> {
  return repairResponse(response, {
    maxJsonChars: options.maxBufferSize,
    core: () => createChatCompletionsRepairCore(options),
    json: (body) => repairChatCompletion(body, options),
  })
}
