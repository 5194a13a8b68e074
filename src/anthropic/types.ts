/**
 * The shapes of Anthropic Messages streaming events and message bodies that
 * the dialect reads (DeepSeek serves them at `/anthropic`). Only the fields
 * the repair touches are typed; every other field is kept as it came.
 */

/** A content block as `content_block_start` or a `message` body carries it. */
export interface AnthropicContentBlock {
  type: string
  text?: string
  thinking?: string
  id?: string
  name?: string
  input?: unknown
  [key: string]: unknown
}

/** Any streaming event: `type` names it, as the SSE `event` field does. */
export interface AnthropicEvent {
  type: string
  index?: number
  content_block?: AnthropicContentBlock
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null; [key: string]: unknown }
  usage?: unknown
  error?: unknown
  [key: string]: unknown
}

/** A JSON `message` body (non-streaming response). */
export interface AnthropicMessage {
  type: 'message'
  content: AnthropicContentBlock[]
  stop_reason?: string | null
  [key: string]: unknown
}

export function isAnthropicEvent(value: unknown): value is AnthropicEvent {
  return value !== null && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
}

/** The stop reasons the repair knows: `end_turn` authorizes recovered calls, which make it `tool_use`. */
export const END_TURN = 'end_turn'
export const TOOL_USE = 'tool_use'
/** The stop reason of a message cut short by the token limit (and by the runaway guard). */
export const MAX_TOKENS = 'max_tokens'

/** A block the model called a tool with (client or server tool): native calls, which win over recovered ones. */
export function isToolUseBlock(type: unknown): boolean {
  return type === TOOL_USE || type === 'server_tool_use'
}
