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
import type { ToolSchema } from '../dsml/tool-schema.ts'
import { type HistoryRepairOptions, type HistoryTextRepair, repairHistoryText } from '../parts/history-repair.ts'
import { addUnrun, isRecoveryNudge, PREVENTIVE_DIRECTIVE, preventionOptions, type PreventionOptions, recoveryNudgeDue, recoveryNudgeText, type UnrunCalls, unrunCalls } from '../parts/prevention.ts'
import { type DeclaredEntry, declaredToolOptions, type RequestRepairOptions } from '../parts/request-options.ts'
import { isRecord } from '../records.ts'

/** One `tools[]` entry: a function with its `parameters`, or another tool type (built-in tools) by its name. */
function toolEntry(tool: unknown): DeclaredEntry {
  if (!isRecord(tool) || typeof tool.name !== 'string') return undefined
  if (tool.type !== 'function') return { name: tool.name }
  return { tool: isRecord(tool.parameters) ? { name: tool.name, parameters: tool.parameters as ToolSchema } : { name: tool.name } }
}

/**
 * What a Responses request body implies for the repair of its response: its declared tools (with
 * their schemas) and `tool_choice: "none"`.
 */
export function responsesRequestOptions(body: unknown): RequestRepairOptions {
  if (!isRecord(body)) return {}
  const tools = Array.isArray(body.tools) ? body.tools : []
  const options: RequestRepairOptions = declaredToolOptions(tools.map(toolEntry), tools.length > 0)
  if (body.tool_choice === 'none') options.mode = 'strip'
  return options
}

/** History repair's options (the note in place of removed calls: `historyNote` by default), and the opt-in prevention. */
export type SanitizeResponsesRequestOptions = HistoryRepairOptions & PreventionOptions

/** The message repaired, and how many calls written as text it lost. */
function repairMessage(item: Record<string, unknown>, options: HistoryRepairOptions, repair: HistoryTextRepair): { item: Record<string, unknown>; unrun: UnrunCalls } {
  const content = item.content
  if (typeof content === 'string') {
    const repaired = repair(content, options)
    return { item: repaired.text === content ? item : { ...item, content: repaired.text }, unrun: addUnrun(unrunCalls(), repaired) }
  }
  if (!Array.isArray(content)) return { item, unrun: unrunCalls() }
  let changed = false
  const unrun = unrunCalls()
  const parts = content.map((part: unknown) => {
    if (!isRecord(part) || part.type !== 'output_text' || typeof part.text !== 'string') return part
    const repaired = repair(part.text, options)
    addUnrun(unrun, repaired)
    if (repaired.text === part.text) return part
    changed = true
    return { ...part, text: repaired.text }
  })
  return { item: changed ? { ...item, content: parts } : item, unrun }
}

/**
 * History repair of a Responses request body: assistant output text in `input` loses leaked markup
 * (a note names each removed call); with the opt-in prevention. The input is not modified.
 *
 * @example
 * ```ts
 * const body = sanitizeResponsesRequest(await request.json())
 * ```
 */
export function sanitizeResponsesRequest<Body>(body: Body, options: SanitizeResponsesRequestOptions = {}): Body {
  return repairResponsesHistory(body, options, repairHistoryText)
}

/** `sanitizeResponsesRequest`, each assistant text repaired by `repair` (the gateway's, in slices: `history-slices.ts`). */
export function repairResponsesHistory<Body>(body: Body, options: SanitizeResponsesRequestOptions, repair: HistoryTextRepair): Body {
  if (!isRecord(body)) return body
  const { preventiveDirective, recoveryNudge } = preventionOptions(options)
  const { preventiveDirective: _directive, recoveryNudge: _nudge, ...historyOptions } = options
  let next: Record<string, unknown> = body
  if (preventiveDirective) {
    const instructions = body.instructions
    // After the caller's own instructions, so their prefix stays as it was.
    if (typeof instructions !== 'string' || instructions === '') next = { ...next, instructions: PREVENTIVE_DIRECTIVE }
    else if (!instructions.includes(PREVENTIVE_DIRECTIVE)) next = { ...next, instructions: `${instructions}\n\n${PREVENTIVE_DIRECTIVE}` }
  }
  if (!Array.isArray(body.input)) return next as Body
  let input: unknown[] | undefined
  let lastAssistant = -1
  let lastUnrun = unrunCalls()
  body.input.forEach((item: unknown, index: number) => {
    if (!isRecord(item) || item.role !== 'assistant' || (item.type !== undefined && item.type !== 'message')) return
    const repaired = repairMessage(item, historyOptions, repair)
    lastAssistant = index
    lastUnrun = repaired.unrun
    if (repaired.item === item) return
    input ??= (body.input as unknown[]).slice()
    input[index] = repaired.item
  })
  const items = input ?? (body.input as unknown[])
  // A function call's output answers the turn, and so does the nudge already added.
  const answers = (item: unknown): boolean => isRecord(item) && (item.type === 'function_call_output' || (item.role === 'developer' && isRecoveryNudge(item.content)))
  if (recoveryNudge && recoveryNudgeDue(items, lastAssistant, lastUnrun, answers)) input = [...items, { type: 'message', role: 'developer', content: recoveryNudgeText(lastUnrun.tools) }]
  return input === undefined ? (next as Body) : ({ ...next, input } as Body)
}
