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
 *   a text block left empty is dropped, and a turn left with no content keeps
 *   `EMPTIED_TURN` (the API refuses empty turns). `tool_use`, `tool_result`,
 *   `thinking` (with its signature) and every other block are untouched, as
 *   are user and system content. Unchanged messages are the same objects.
 */
import { type DeclaredEntry, declaredToolOptions, type RequestRepairOptions } from '../parts/request-options.ts'
import type { ToolSchema } from '../dsml/tool-schema.ts'
import { type HistoryRepairOptions, type HistoryTextRepair, repairHistoryText } from '../parts/history-repair.ts'
import { addUnrun, isRecoveryNudge, PREVENTIVE_DIRECTIVE, preventionOptions, type PreventionOptions, recoveryNudgeDue, recoveryNudgeText, type UnrunCalls, unrunCalls } from '../parts/prevention.ts'
import { isRecord } from '../records.ts'

/** One `tools[]` entry: a custom tool with its `input_schema`, or a server tool (a versioned type) by its name. */
function toolEntry(tool: unknown): DeclaredEntry {
  if (!isRecord(tool) || typeof tool.name !== 'string') return undefined
  return isRecord(tool.input_schema) ? { tool: { name: tool.name, parameters: tool.input_schema as ToolSchema } } : { name: tool.name }
}

export function anthropicRequestOptions(body: unknown): RequestRepairOptions {
  if (!isRecord(body)) return {}
  const tools = Array.isArray(body.tools) ? body.tools : []
  const options: RequestRepairOptions = declaredToolOptions(tools.map(toolEntry), tools.length > 0)
  if (isRecord(body.tool_choice) && body.tool_choice.type === 'none') options.mode = 'strip'
  return options
}

/** History repair's options (the note in place of removed calls: `historyNote` by default), and the opt-in prevention. */
export type SanitizeAnthropicRequestOptions = HistoryRepairOptions & PreventionOptions

/** The content repaired, and how many calls written as text it lost. */
function repairContent(content: unknown, options: HistoryRepairOptions, repair: HistoryTextRepair): { content: unknown; unrun: UnrunCalls } {
  if (typeof content === 'string') {
    const repaired = repair(content, options)
    return { content: repaired.text === content ? content : repaired.text, unrun: addUnrun(unrunCalls(), repaired) }
  }
  if (!Array.isArray(content)) return { content, unrun: unrunCalls() }
  let changed = false
  const unrun = unrunCalls()
  const blocks: unknown[] = []
  for (const block of content) {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') {
      blocks.push(block)
      continue
    }
    const repaired = repair(block.text, options)
    addUnrun(unrun, repaired)
    if (repaired.text === block.text) {
      blocks.push(block)
      continue
    }
    changed = true
    // The API refuses empty text blocks.
    if (repaired.text !== '') blocks.push({ ...block, text: repaired.text })
  }
  return { content: changed ? blocks : content, unrun }
}

const textBlock = (text: string): { type: 'text'; text: string } => ({ type: 'text', text })

/** What an assistant turn left with no content keeps: the API refuses an empty one. */
export const EMPTIED_TURN = '[removed leaked markup]'

/** Content with nothing left in it (an empty string, or no block at all). */
function isEmpty(content: unknown): boolean {
  return content === '' || (Array.isArray(content) && content.length === 0)
}

/** `system` with the directive after the caller's own instructions (once). */
function withDirective(system: unknown): unknown {
  if (system === undefined || system === null || system === '') return PREVENTIVE_DIRECTIVE
  if (typeof system === 'string') return system.includes(PREVENTIVE_DIRECTIVE) ? system : [textBlock(system), textBlock(PREVENTIVE_DIRECTIVE)]
  if (!Array.isArray(system) || system.some((block) => isRecord(block) && block.text === PREVENTIVE_DIRECTIVE)) return system
  return [...system, textBlock(PREVENTIVE_DIRECTIVE)]
}

/** Does a message answer the assistant turn before it: a tool result, or the recovery nudge already added? */
function answersTurn(message: unknown): boolean {
  if (!isRecord(message)) return false
  const content = message.content
  if (typeof content === 'string') return isRecoveryNudge(content)
  return Array.isArray(content) && content.some((block) => isRecord(block) && (block.type === 'tool_result' || isRecoveryNudge(block.text)))
}

/**
 * History repair of a Messages request body: assistant text loses leaked markup (a note names each
 * removed call); with `preventiveDirective` / `recoveryNudge`, the opt-in prevention. The input is
 * not modified.
 *
 * @example
 * ```ts
 * const body = sanitizeAnthropicRequest(await request.json())
 * ```
 */
export function sanitizeAnthropicRequest<Body>(body: Body, options: SanitizeAnthropicRequestOptions = {}): Body {
  return repairAnthropicHistory(body, options, repairHistoryText)
}

/** `sanitizeAnthropicRequest`, each assistant text repaired by `repair` (the gateway's, in slices: `history-slices.ts`). */
export function repairAnthropicHistory<Body>(body: Body, options: SanitizeAnthropicRequestOptions, repair: HistoryTextRepair): Body {
  if (!isRecord(body) || !Array.isArray(body.messages)) return body
  const { preventiveDirective, recoveryNudge } = preventionOptions(options)
  const { preventiveDirective: _directive, recoveryNudge: _nudge, ...historyOptions } = options
  let messages: unknown[] | undefined
  let lastAssistant = -1
  let lastUnrun = unrunCalls()
  body.messages.forEach((message: unknown, index: number) => {
    if (!isRecord(message) || message.role !== 'assistant') return
    const repaired = repairContent(message.content, historyOptions, repair)
    lastAssistant = index
    lastUnrun = repaired.unrun
    if (repaired.content === message.content) return
    messages ??= (body.messages as unknown[]).slice()
    const content = isEmpty(repaired.content) ? (typeof repaired.content === 'string' ? EMPTIED_TURN : [textBlock(EMPTIED_TURN)]) : repaired.content
    messages[index] = { ...message, content }
  })
  let next: Record<string, unknown> = messages === undefined ? body : { ...body, messages }
  if (preventiveDirective) {
    const system = withDirective(body.system)
    if (system !== body.system) next = { ...next, system }
  }
  const history = (next.messages as unknown[]).slice()
  // A tool result answers the turn, and so does the nudge already added.
  if (recoveryNudge && recoveryNudgeDue(history, lastAssistant, lastUnrun, answersTurn)) {
    const last = history.at(-1)
    if (isRecord(last) && last.role === 'user') {
      // Empty text blocks are refused: a user turn with no text gets the nudge alone.
      const content = typeof last.content === 'string' ? (last.content === '' ? [] : [textBlock(last.content)]) : Array.isArray(last.content) ? last.content : []
      history[history.length - 1] = { ...last, content: [...content, textBlock(recoveryNudgeText(lastUnrun.tools))] }
    } else {
      history.push({ role: 'user', content: recoveryNudgeText(lastUnrun.tools) })
    }
    next = { ...next, messages: history }
  }
  return next as Body
}
