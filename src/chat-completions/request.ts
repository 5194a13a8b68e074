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
 *
 * Opt-in prevention (`prevention.ts`): `preventiveDirective` adds a system
 * message after the caller's own; `recoveryNudge` adds a system message at
 * the end when the last assistant turn lost a call written as text.
 */
import { type HistoryRepairOptions, type HistoryTextRepair, repairHistoryText } from '../parts/history-repair.ts'
import { addUnrun, isRecoveryNudge, PREVENTIVE_DIRECTIVE, preventionOptions, type PreventionOptions, recoveryNudgeDue, recoveryNudgeText, type UnrunCalls, unrunCalls } from '../parts/prevention.ts'

/** History repair's options (the note in place of removed calls: `historyNote` by default), and the opt-in prevention. */
export type SanitizeChatCompletionsRequestOptions = HistoryRepairOptions & PreventionOptions

interface RequestMessage {
  role?: unknown
  content?: unknown
  tool_calls?: unknown
  [key: string]: unknown
}

interface Repaired {
  content: unknown
  /** Calls the model wrote as text, which never ran. */
  unrun: UnrunCalls
}

function sanitizeContent(content: unknown, options: HistoryRepairOptions, repair: HistoryTextRepair): Repaired {
  if (typeof content === 'string') {
    const repaired = repair(content, options)
    return { content: repaired.text === content ? content : repaired.text, unrun: addUnrun(unrunCalls(), repaired) }
  }
  if (!Array.isArray(content)) return { content, unrun: unrunCalls() }
  let changed = false
  const unrun = unrunCalls()
  const parts = content.map((part: unknown) => {
    if (part === null || typeof part !== 'object' || (part as { type?: unknown }).type !== 'text') return part
    const text = (part as { text?: unknown }).text
    if (typeof text !== 'string') return part
    const repaired = repair(text, options)
    addUnrun(unrun, repaired)
    if (repaired.text === text) return part
    changed = true
    return { ...part, text: repaired.text }
  })
  return { content: changed ? parts : content, unrun }
}

/**
 * History repair of a Chat Completions request body: assistant messages lose leaked markup (a note
 * names each removed call); with `preventiveDirective` / `recoveryNudge`, the opt-in prevention.
 * The input is not modified.
 *
 * @example
 * ```ts
 * const body = sanitizeChatCompletionsRequest(await request.json())
 * ```
 */
export function sanitizeChatCompletionsRequest<Body>(body: Body, options: SanitizeChatCompletionsRequestOptions = {}): Body {
  return repairChatCompletionsHistory(body, options, repairHistoryText)
}

/** `sanitizeChatCompletionsRequest`, each assistant text repaired by `repair` (the gateway's, in slices: `history-slices.ts`). */
export function repairChatCompletionsHistory<Body>(body: Body, options: SanitizeChatCompletionsRequestOptions, repair: HistoryTextRepair): Body {
  if (body === null || typeof body !== 'object') return body
  const messages = (body as { messages?: unknown }).messages
  if (!Array.isArray(messages)) return body
  const { preventiveDirective, recoveryNudge } = preventionOptions(options)
  const { preventiveDirective: _directive, recoveryNudge: _nudge, ...historyOptions } = options
  let changed = false
  let lastAssistant = -1
  let lastUnrun = unrunCalls()
  const next: unknown[] = messages.map((message: RequestMessage, index: number) => {
    if (message === null || typeof message !== 'object' || message.role !== 'assistant') return message
    const repaired = sanitizeContent(message.content, historyOptions, repair)
    lastAssistant = index
    lastUnrun = repaired.unrun
    let content = repaired.content
    if (content === null && Array.isArray(message.tool_calls)) content = ''
    if (content === message.content) return message
    changed = true
    return { ...message, content }
  })
  const isSystem = (message: unknown, text: string): boolean => (message as RequestMessage | null)?.role === 'system' && (message as RequestMessage).content === text
  // A tool message answers the turn, and so does the nudge already added.
  const nudge = recoveryNudge && recoveryNudgeDue(next, lastAssistant, lastUnrun, (message) => (message as RequestMessage | null)?.role === 'tool' || (message as RequestMessage | null)?.role === 'system' && isRecoveryNudge((message as RequestMessage).content))
  if (preventiveDirective && !next.some((message) => isSystem(message, PREVENTIVE_DIRECTIVE))) {
    // After the caller's own system messages, so their prefix stays as it was.
    let at = 0
    while (at < next.length && (next[at] as RequestMessage | null)?.role === 'system') at++
    next.splice(at, 0, { role: 'system', content: PREVENTIVE_DIRECTIVE })
    changed = true
  }
  if (nudge) {
    next.push({ role: 'system', content: recoveryNudgeText(lastUnrun.tools) })
    changed = true
  }
  return changed ? ({ ...body, messages: next } as Body) : body
}
