/**
 * The request side of the OpenAI Responses API.
 *
 * - `responsesRequestOptions(body)`: what a request implies for the repair
 *   of its response — its function tools with their schemas
 *   (`tools[].parameters`; other tool types by name) and `tool_choice:
 *   "none"` (markup removed, no call).
 * - `sanitizeResponsesRequest(body)`: history repair by the rule every
 *   adapter uses (`repairHistoryText`): in `input`, assistant messages'
 *   `output_text` (and string content) lose leaked markup, a note in place of
 *   each removed call. `function_call`, `function_call_output`, reasoning
 *   and every other item are untouched, as are user and system messages and
 *   a string `input`. Unchanged items are the same objects.
 */
import type { DeclaredTool, ToolSchema } from '../dsml/tool-schema.ts'
import { type HistoryRepairOptions, repairHistoryText } from '../parts/history-repair.ts'
import type { RequestRepairOptions } from '../parts/request-options.ts'

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export function responsesRequestOptions(body: unknown): RequestRepairOptions {
  const options: RequestRepairOptions = {}
  if (!isRecord(body)) return options
  const tools: DeclaredTool[] = []
  const names: string[] = []
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      if (!isRecord(tool) || typeof tool.name !== 'string') continue
      if (tool.type === 'function') tools.push(isRecord(tool.parameters) ? { name: tool.name, parameters: tool.parameters as ToolSchema } : { name: tool.name })
      else names.push(tool.name)
    }
  }
  if (tools.length > 0) options.tools = tools
  if (names.length > 0 || (tools.length === 0 && Array.isArray(body.tools) && body.tools.length > 0)) options.knownTools = names
  if (body.tool_choice === 'none') options.mode = 'strip'
  return options
}

/** History repair's options (the note in place of removed calls: `historyNote` by default). */
export type SanitizeResponsesRequestOptions = HistoryRepairOptions

function repairMessage(item: Record<string, unknown>, options: SanitizeResponsesRequestOptions): Record<string, unknown> {
  const content = item.content
  if (typeof content === 'string') {
    const clean = repairHistoryText(content, options).text
    return clean === content ? item : { ...item, content: clean }
  }
  if (!Array.isArray(content)) return item
  let changed = false
  const parts = content.map((part: unknown) => {
    if (!isRecord(part) || part.type !== 'output_text' || typeof part.text !== 'string') return part
    const clean = repairHistoryText(part.text, options).text
    if (clean === part.text) return part
    changed = true
    return { ...part, text: clean }
  })
  return changed ? { ...item, content: parts } : item
}

/**
 * @example
 * ```ts
 * const body = sanitizeResponsesRequest(await request.json())
 * ```
 */
export function sanitizeResponsesRequest<Body>(body: Body, options: SanitizeResponsesRequestOptions = {}): Body {
  if (!isRecord(body) || !Array.isArray(body.input)) return body
  let input: unknown[] | undefined
  body.input.forEach((item: unknown, index: number) => {
    if (!isRecord(item) || item.role !== 'assistant' || (item.type !== undefined && item.type !== 'message')) return
    const repaired = repairMessage(item, options)
    if (repaired === item) return
    input ??= (body.input as unknown[]).slice()
    input[index] = repaired
  })
  return input === undefined ? body : ({ ...body, input } as Body)
}
