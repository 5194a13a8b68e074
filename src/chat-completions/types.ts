/**
 * The OpenAI Chat Completions streaming wire shapes this dialect reads and
 * writes (DeepSeek adds `reasoning_content`). Only the fields we touch are
 * typed; every other field is kept as it came.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */

export interface ChatToolCallDelta {
  index: number
  id?: string
  type?: 'function'
  function?: { name?: string; arguments?: string }
  [key: string]: unknown
}

export interface ChatDelta {
  role?: string
  content?: string | null
  reasoning_content?: string | null
  tool_calls?: ChatToolCallDelta[]
  [key: string]: unknown
}

export interface ChatChoice {
  index: number
  delta: ChatDelta
  finish_reason: string | null
  [key: string]: unknown
}

export interface ChatCompletionChunk {
  id?: string
  object?: string
  created?: number
  model?: string
  choices: ChatChoice[]
  usage?: unknown
  [key: string]: unknown
}

export function isChatCompletionChunk(value: unknown): value is ChatCompletionChunk {
  return value !== null && typeof value === 'object' && Array.isArray((value as ChatCompletionChunk).choices)
}

/** The data of the message that ends a Chat Completions stream. */
export const DONE_DATA = '[DONE]'
