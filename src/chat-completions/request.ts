/**
 * `sanitizeChatCompletionsRequest`: history repair for the next request.
 * Leaked markup replayed as history makes the model imitate it, so assistant
 * messages lose it; in its place a short note names the removed tool:
 * `[removed leaked tool call: edit]`. It never appends synthetic calls to
 * history (they would run twice). `content: null` beside `tool_calls`
 * becomes `""`. `reasoning_content` is kept. User, system and tool messages
 * pass unchanged. The input is not modified; unchanged messages are the same
 * objects.
 */
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import { createDsmlSanitizer } from '../dsml/sanitizer.ts'

export interface SanitizeChatCompletionsRequestOptions extends Omit<DsmlSanitizerOptions, 'mode' | 'role'> {
  /**
   * The note left where markup was removed; `tool` is the tool it named, if any.
   * Return '' to leave nothing.
   * @default (tool) => tool ? `[removed leaked tool call: ${tool}]` : ''
   */
  note?: (tool: string | undefined) => string
}

export function defaultRemovalNote(tool: string | undefined): string {
  return tool === undefined ? '' : `[removed leaked tool call: ${tool}]`
}

/** Removes leaked markup from one assistant text, a note in place of each removed span. */
export function sanitizeHistoryText(text: string, options: SanitizeChatCompletionsRequestOptions = {}): string {
  const note = options.note ?? defaultRemovalNote
  const engine = createDsmlSanitizer({ ...options, mode: 'strip', role: 'assistant' })
  let out = ''
  let removing = false
  let tools: string[] = []
  const closeRemoval = (): void => {
    if (!removing) return
    out += tools.length === 0 ? note(undefined) : tools.map((tool) => note(tool)).join(' ')
    removing = false
    tools = []
  }
  for (const event of [...engine.feed(text), ...engine.end()]) {
    if (event.type === 'text') {
      closeRemoval()
      out += event.text
    } else if (event.type === 'diagnostic' && event.diagnostic.text.length > 0) {
      removing = true
      const tool = event.diagnostic.tool
      if (tool !== undefined && !tools.includes(tool)) tools.push(tool)
    }
  }
  closeRemoval()
  return out
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
