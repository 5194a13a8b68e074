/**
 * `transformParams`: repairs the prompt history before it reaches the model.
 * Leaked markup replayed in the next request is what the model imitates.
 *
 * Only assistant messages change, and in them only `text` parts that hold
 * markup, by the rule every adapter uses (`history-repair.ts`, which also
 * says why reasoning parts are kept as written): the markup is removed
 * (never turned into a call — a call without its result would make the
 * history invalid), and a short note takes the place of each removed call,
 * e.g. `[removed leaked tool call: edit]`, so the model does not believe it
 * ran it. System, user and tool messages, and every other part, are passed
 * as they are (the same objects).
 *
 * The opt-in prevention (`prevention.ts`) as the AI SDK's prompt keeps
 * instructions: the directive is a system message after the caller's own
 * leading ones; the recovery nudge is a user text part (a new user message
 * when the prompt does not end with one), since providers refuse system
 * messages after the conversation has begun. An unchanged prompt is returned
 * as is.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider'
import { type HistoryRepairOptions, type RepairedHistoryText, repairHistoryText } from '../parts/history-repair.ts'
import { addUnrun, isRecoveryNudge, PREVENTIVE_DIRECTIVE, recoveryNudgeDue, recoveryNudgeText, type UnrunCalls, unrunCalls } from '../parts/prevention.ts'
import { engineOptions, type ResolvedMiddlewareOptions } from './options.ts'

type CallTools = Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined

/** The prompt with history repair and the prevention the options ask for. */
export function transformPrompt(prompt: LanguageModelV4Prompt, resolved: ResolvedMiddlewareOptions, params: CallTools): LanguageModelV4Prompt {
  if (!Array.isArray(prompt)) return prompt
  const repaired = resolved.repairHistory ? repairPrompt(prompt, resolved, params) : { prompt, lastAssistant: -1, unrun: unrunCalls() }
  const nudgeDue = resolved.recoveryNudge && recoveryNudgeDue(repaired.prompt, repaired.lastAssistant, repaired.unrun, answersTurn)
  let next = repaired.prompt
  if (resolved.preventiveDirective) next = withDirective(next)
  return nudgeDue ? withNudge(next, recoveryNudgeText(repaired.unrun.tools)) : next
}

/** The prompt repaired, where its last assistant message is, and how many calls written as text that message lost. */
function repairPrompt(
  prompt: LanguageModelV4Prompt,
  resolved: ResolvedMiddlewareOptions,
  params: CallTools,
): { prompt: LanguageModelV4Prompt; lastAssistant: number; unrun: UnrunCalls } {
  // One options object for the whole prompt: history repair resolves it once.
  const { mode: _mode, role: _role, ...options } = engineOptions(resolved, params, 'strip')
  let repaired: LanguageModelV4Message[] | undefined
  let lastAssistant = -1
  let unrun = unrunCalls()
  prompt.forEach((message, messageIndex) => {
    if (message === null || typeof message !== 'object' || message.role !== 'assistant' || !Array.isArray(message.content)) return
    lastAssistant = messageIndex
    unrun = unrunCalls()
    let content: typeof message.content | undefined
    message.content.forEach((part, partIndex) => {
      if (part === null || typeof part !== 'object' || part.type !== 'text' || typeof part.text !== 'string' || part.text === '') return
      const cleaned = cleanPart(part.text, options, resolved, `prompt[${messageIndex}].content[${partIndex}]`)
      addUnrun(unrun, cleaned)
      if (cleaned.text === part.text) return
      content ??= message.content.slice()
      content[partIndex] = { ...part, text: cleaned.text }
    })
    if (content === undefined) return
    repaired ??= prompt.slice()
    repaired[messageIndex] = { ...message, content }
  })
  return { prompt: repaired ?? prompt, lastAssistant, unrun }
}

/** A text part repaired, its diagnostics reported. */
function cleanPart(text: string, options: HistoryRepairOptions, resolved: ResolvedMiddlewareOptions, partId: string): RepairedHistoryText {
  const repaired = repairHistoryText(text, options)
  for (const diagnostic of repaired.diagnostics) resolved.report({ ...diagnostic, operation: 'history', channel: 'text', partId })
  return repaired
}

/** The directive as a system message after the leading system messages, unless one already says it. */
function withDirective(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  let leading = 0
  while (leading < prompt.length && prompt[leading]?.role === 'system') {
    if (prompt[leading]!.content === PREVENTIVE_DIRECTIVE) return prompt
    leading++
  }
  return [...prompt.slice(0, leading), { role: 'system', content: PREVENTIVE_DIRECTIVE }, ...prompt.slice(leading)]
}

/** A tool's result answers the assistant turn before it, and so does the nudge already added. */
function answersTurn(message: unknown): boolean {
  const candidate = message as LanguageModelV4Message | null
  if (candidate === null || typeof candidate !== 'object') return false
  if (candidate.role === 'tool') return true
  return candidate.role === 'user' && Array.isArray(candidate.content) && candidate.content.some((part) => part.type === 'text' && isRecoveryNudge(part.text))
}

/** The nudge as a text part of the last user message, or a user message of its own. */
function withNudge(prompt: LanguageModelV4Prompt, text: string): LanguageModelV4Prompt {
  const nudge = { type: 'text' as const, text }
  const last = prompt.at(-1)
  if (last?.role === 'user' && Array.isArray(last.content)) return [...prompt.slice(0, -1), { ...last, content: [...last.content, nudge] }]
  return [...prompt, { role: 'user', content: [nudge] }]
}
