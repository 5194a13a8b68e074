/**
 * `repairChatCompletionsResponse`: wraps a `fetch` `Response` from a Chat
 * Completions endpoint.
 *
 * - `text/event-stream` body → through `ChatCompletionsRepairStream`.
 * - JSON `chat.completion` body → `message.content` (and
 *   `reasoning_content`) cleaned, recovered calls appended to
 *   `message.tool_calls` when the message has none, `finish_reason` `stop` →
 *   `tool_calls`. A body nothing touched is returned byte for byte.
 * - Status, status text and headers are kept (minus `content-length` and
 *   `content-encoding`, which the decoded, changed body no longer matches). Non-2xx responses, bodies of other types
 *   and empty bodies pass through untouched.
 */
import { withRequestDefaults } from './request-tools.ts'
import { callKey } from '../dsml/arguments.ts'
import { sanitizeText } from '../dsml/sanitize-text.ts'
import type { ToolCall } from '../dsml/types.ts'
import type { ChatCompletionsRepairOptions } from './repair.ts'
import { repairChatCompletionsBody } from './repair-body.ts'

export interface RepairChatCompletionsResponseOptions extends ChatCompletionsRepairOptions {}

function repairedHeaders(response: Response): Headers {
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  // fetch has already decoded the body: a gzip header would no longer match it.
  headers.delete('content-encoding')
  return headers
}

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

/** Repairs a parsed `chat.completion` object; returns undefined when nothing changed. */
export function repairChatCompletion(body: unknown, given: RepairChatCompletionsResponseOptions = {}): unknown {
  const options = withRequestDefaults(given)
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { choices?: unknown }).choices)) return undefined
  const choices = (body as { choices: JsonChoice[] }).choices
  let changed = false
  const repairedChoices = choices.map((choice) => {
    const message = choice?.message
    if (message === undefined || message === null || typeof message !== 'object') return choice
    const next: JsonMessage = { ...message }
    let nextChoice: JsonChoice = choice
    const calls: ToolCall[] = []
    const seen = new Set<string>()
    const seenIn = { reasoning_content: new Set<string>(), content: new Set<string>() }
    for (const field of ['reasoning_content', 'content'] as const) {
      const text = message[field]
      if (typeof text !== 'string') continue
      const result = sanitizeText(text, options)
      for (const diagnostic of result.diagnostics) options.onDiagnostic?.(diagnostic)
      if (result.text !== text || result.calls.length > 0) {
        next[field] = result.text
        // Reasoning repeated in the answer: the same call from both fields is added once.
        for (const call of result.calls) {
          const key = callKey(call.name, call.arguments)
          if (seen.has(key) && !seenIn[field].has(key)) continue
          seen.add(key)
          seenIn[field].add(key)
          calls.push(call)
        }
        changed = true
      }
    }
    const native = Array.isArray(message.tool_calls) && message.tool_calls.length > 0
    const finish = choice.finish_reason
    const authorized = finish === 'stop' || finish === 'tool_calls' || (options.recoverOnTruncation === true && typeof finish === 'string')
    if (calls.length > 0) {
      if (native || !authorized) {
        for (const call of calls) {
          options.onDiagnostic?.({
            kind: 'suppressed-call',
            text: '',
            tool: call.name,
            message: native
              ? `Call to "${call.name}" not added: the message has native tool calls`
              : `Call to "${call.name}" not added: the message finished with "${String(finish)}"`,
          })
        }
      } else {
        next.tool_calls = calls.map(toWire)
        nextChoice = { ...choice, finish_reason: finish === 'stop' ? 'tool_calls' : finish }
      }
    }
    return { ...nextChoice, message: next }
  })
  return changed ? { ...body, choices: repairedChoices } : undefined
}

/**
 * @example
 * ```ts
 * const upstream = await fetch(url, { method: 'POST', headers, body })
 * return repairChatCompletionsResponse(upstream, { knownTools: ['bash'] })
 * ```
 */
export async function repairChatCompletionsResponse(
  response: Response,
  options: RepairChatCompletionsResponseOptions = {},
): Promise<Response> {
  if (!(response instanceof Response)) throw new TypeError('Cannot repair: expected a fetch Response')
  if (!response.ok || response.body === null) return response
  const contentType = response.headers.get('content-type') ?? ''
  const init = { status: response.status, statusText: response.statusText, headers: repairedHeaders(response) }
  if (contentType.includes('text/event-stream')) {
    // One pull-based stream over the body: the same bytes as a ChatCompletionsRepairStream pipe, without the pipe.
    return new Response(repairChatCompletionsBody(response.body, options), init)
  }
  if (!contentType.includes('json')) return response
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return new Response(text, init)
  }
  const repaired = repairChatCompletion(body, options)
  return new Response(repaired === undefined ? text : JSON.stringify(repaired), init)
}
