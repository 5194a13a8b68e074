/**
 * `sanitizeChatCompletionsRequest`: history repair for the next request.
 * Leaked markup replayed as history makes the model imitate it, so assistant
 * messages lose it (`history-repair.ts`, the rule every adapter uses): in its
 * place a short note names the removed tool, `[removed leaked tool call: edit]`.
 * It never appends synthetic calls to
 * history (they would run twice). `content: null` beside `tool_calls`
 * becomes `""`. `reasoning_content` is kept. User, system and tool messages
 * pass unchanged. The input is not modified; unchanged messages are the same
 * objects.
 */
import { type HistoryRepairOptions, repairHistoryText } from '../parts/history-repair.ts'

/** History repair's options (the note in place of removed calls: `historyNote` by default). */
export type SanitizeChatCompletionsRequestOptions = HistoryRepairOptions

function sanitizeHistoryText(text: string, options: SanitizeChatCompletionsRequestOptions): string {
  return repairHistoryText(text, options).text
}

interface RequestMessage {
  role?: unknown
  content?: unknown
  tool_calls?: unknown
  [key: string]: unknown
}

function sanitizeContent(content: unknown, options: SanitizeChatCompletionsRequestOptions): unknown {
  if (typeof content === 'string') {
    const clean = sanitizeHistoryText(content, options)
    return clean === content ? content : clean
  }
  if (!Array.isArray(content)) return content
  let changed = false
  const parts = content.map((part: unknown) => {
    if (part === null || typeof part !== 'object' || (part as { type?: unknown }).type !== 'text') return part
    const text = (part as { text?: unknown }).text
    if (typeof text !== 'string') return part
    const clean = sanitizeHistoryText(text, options)
    if (clean === text) return part
    changed = true
    return { ...part, text: clean }
  })
  return changed ? parts : content
}

/**
 * @example
 * ```ts
 * const body = sanitizeChatCompletionsRequest(await request.json())
 * ```
 */
export function sanitizeChatCompletionsRequest<Body>(body: Body, options: SanitizeChatCompletionsRequestOptions = {}): Body {
  if (body === null || typeof body !== 'object') return body
  const messages = (body as { messages?: unknown }).messages
  if (!Array.isArray(messages)) return body
  let changed = false
  const next = messages.map((message: RequestMessage) => {
    if (message === null || typeof message !== 'object' || message.role !== 'assistant') return message
    let content = sanitizeContent(message.content, options)
    if (content === null && Array.isArray(message.tool_calls)) content = ''
    if (content === message.content) return message
    changed = true
    return { ...message, content }
  })
  return changed ? ({ ...body, messages: next } as Body) : body
}
