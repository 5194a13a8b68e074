/**
 * The shapes of OpenAI Responses API streaming events and `response` objects
 * that the dialect reads (Codex-style clients, DeepSeek's stateless
 * `/responses`). Only the fields the repair touches are typed; every other
 * field is kept as it came.
 */

/** An output item: a message, a reasoning item, a function call, or another kind. */
export interface ResponsesItem {
  type: string
  id?: string
  role?: string
  content?: Array<{ type: string; text?: string; [key: string]: unknown }>
  summary?: Array<{ type: string; text?: string; [key: string]: unknown }>
  call_id?: string
  name?: string
  arguments?: string
  [key: string]: unknown
}

/** A `response` object (streamed inside `response.completed`, or a whole JSON body). */
export interface ResponsesObject {
  id?: string
  object?: string
  status?: string
  output?: ResponsesItem[]
  [key: string]: unknown
}

/** Any streaming event: `type` names it, as the SSE `event` field does. */
export interface ResponsesEvent {
  type: string
  sequence_number?: number
  output_index?: number
  content_index?: number
  summary_index?: number
  item_id?: string
  item?: ResponsesItem
  part?: { type: string; text?: string; [key: string]: unknown }
  delta?: string
  text?: string
  arguments?: string
  response?: ResponsesObject
  [key: string]: unknown
}

export function isResponsesEvent(value: unknown): value is ResponsesEvent {
  return value !== null && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
}

/** The finish a `response.completed` event means to the settlement (the only one that authorizes recovered calls). */
export const COMPLETED = 'completed'

/** How the finish of a `response.incomplete` event is spelled: this, then the event's `incomplete_details.reason`. */
export const INCOMPLETE_PREFIX = 'incomplete: '
/** The finish of a response cut short by the token limit (and by the runaway guard). */
export const MAX_OUTPUT_TOKENS = `${INCOMPLETE_PREFIX}max_output_tokens`

/** An output item the model called a tool with (function, custom or MCP call): native calls, which win over recovered ones. */
export function isCallItem(type: unknown): boolean {
  return type === 'function_call' || type === 'custom_tool_call' || type === 'mcp_call'
}
