/**
 * The request side of Anthropic Messages.
 *
 * - `anthropicRequestOptions(body)`: what a request implies for the repair of
 *   its response — the declared tools with their schemas
 *   (`tools[].input_schema`; server tools by name) and `tool_choice:
 *   {"type": "none"}` (markup removed, no call).
 * - `sanitizeAnthropicRequest(body)`: history repair by the rule every
 *   adapter uses (`repairHistoryText`): assistant `text` content (a string or
 *   `text` blocks) loses leaked markup, a note in place of each removed call;
 *   a text block left empty is dropped. `tool_use`, `tool_result`,
 *   `thinking` (with its signature) and every other block are untouched, as
 *   are user and system content. Unchanged messages are the same objects.
 */
import type { RequestRepairOptions } from '../parts/request-options.ts'
import type { DeclaredTool, ToolSchema } from '../dsml/tool-schema.ts'
import { type HistoryRepairOptions, repairHistoryText } from '../parts/history-repair.ts'

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export function anthropicRequestOptions(body: unknown): RequestRepairOptions {
  const options: RequestRepairOptions = {}
  if (!isRecord(body)) return options
  const tools: DeclaredTool[] = []
  const names: string[] = []
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      if (!isRecord(tool) || typeof tool.name !== 'string') continue
      // Custom tools have an input_schema (and no type, or type "custom"); server tools a versioned type.
      if (isRecord(tool.input_schema)) tools.push({ name: tool.name, parameters: tool.input_schema as ToolSchema })
      else names.push(tool.name)
    }
  }
  if (tools.length > 0) options.tools = tools
  if (names.length > 0 || (tools.length === 0 && Array.isArray(body.tools) && body.tools.length > 0)) options.knownTools = names
  if (isRecord(body.tool_choice) && body.tool_choice.type === 'none') options.mode = 'strip'
  return options
}

/** History repair's options (the note in place of removed calls: `historyNote` by default). */
export type SanitizeAnthropicRequestOptions = HistoryRepairOptions

function repairContent(content: unknown, options: SanitizeAnthropicRequestOptions): unknown {
  if (typeof content === 'string') {
    const clean = repairHistoryText(content, options).text
    return clean === content ? content : clean
  }
  if (!Array.isArray(content)) return content
  let changed = false
  const blocks: unknown[] = []
  for (const block of content) {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') {
      blocks.push(block)
      continue
    }
    const clean = repairHistoryText(block.text, options).text
    if (clean === block.text) {
      blocks.push(block)
      continue
    }
    changed = true
    // The API refuses empty text blocks.
    if (clean !== '') blocks.push({ ...block, text: clean })
  }
  return changed ? blocks : content
}

/**
 * @example
 * ```ts
 * const body = sanitizeAnthropicRequest(await request.json())
 * ```
 */
export function sanitizeAnthropicRequest<Body>(body: Body, options: SanitizeAnthropicRequestOptions = {}): Body {
  if (!isRecord(body) || !Array.isArray(body.messages)) return body
  let messages: unknown[] | undefined
  body.messages.forEach((message: unknown, index: number) => {
    if (!isRecord(message) || message.role !== 'assistant') return
    const content = repairContent(message.content, options)
    if (content === message.content) return
    messages ??= (body.messages as unknown[]).slice()
    messages[index] = { ...message, content }
  })
  return messages === undefined ? body : ({ ...body, messages } as Body)
}
