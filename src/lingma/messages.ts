/**
 * Request-side Lingma rules: which `agent_id` and `model_config.source` a
 * model needs, and the history fix for assistant tool-call messages whose
 * `content` is `null` (the provider behind Lingma then ignores the
 * `tool_calls` and rejects the tool result that follows as orphaned).
 */
import { isRecord } from '../records.ts'

export const AGENT_CHAT = 'agent_chat'
export const AGENT_COMMON = 'agent_common'
export const SOURCE_SYSTEM = 'system'

/** Model keys that answer empty under `agent_chat`, so must use `agent_common`. */
const AGENT_COMMON_MODELS: ReadonlySet<string> = new Set(['kmodel', 'mmodel'])

/** Does the model (trimmed, any case) need `agent_common`? */
export function isAgentCommonModel(modelName: string): boolean {
  return AGENT_COMMON_MODELS.has(modelName.trim().toLowerCase())
}

/** `agent_common` for the models that need it, `agent_chat` for every other. */
export function agentId(modelName: string): string {
  return isAgentCommonModel(modelName) ? AGENT_COMMON : AGENT_CHAT
}

/** `""` for `agent_common` models, `system` (reasoning on) for the others. */
export function modelConfigSource(modelName: string): string {
  return isAgentCommonModel(modelName) ? '' : SOURCE_SYSTEM
}

/** Is `value` a non-empty array (a message's `tool_calls` that says something)? */
export function hasToolCalls(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0
}

/**
 * A copy of the messages in which every `assistant` message with non-empty
 * `tool_calls` and `content` null or missing has `content: ""`. Nothing else
 * changes (a `user` message with `content: null` stays so); each message is
 * a shallow copy, the input is never mutated; entries that are not objects
 * are kept as they are.
 */
export function normalizeAssistantToolCallContent<Message>(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (!isRecord(message)) return message
    const copy: Record<string, unknown> = { ...message }
    if (copy.role === 'assistant' && (copy.content === undefined || copy.content === null) && hasToolCalls(copy.tool_calls)) copy.content = ''
    return copy as Message
  })
}
