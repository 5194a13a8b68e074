/**
 * `transformParams`: repairs the prompt history before it reaches the model.
 * Leaked markup replayed in the next request is what the model imitates.
 *
 * Only assistant messages change, and in them only `text` and `reasoning`
 * parts that hold markup, by the rule every adapter uses
 * (`history-repair.ts`): the markup is removed (never turned into a call — a
 * call without its result would make the history invalid), and in a text
 * part a short note takes the place of each removed call, e.g.
 * `[removed leaked tool call: edit]`, so the model does not believe it ran
 * it; reasoning loses it without a note. System, user and tool messages, and
 * every other part, are passed as they are (the same objects); an unchanged
 * prompt is returned as is.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider'
import { type HistoryRepairOptions, repairHistoryText } from '../parts/history-repair.ts'
import { engineOptions, type ResolvedMiddlewareOptions } from './options.ts'

/** History repair's options for one prompt, per channel: a note in place of each removed call in text, none in reasoning. */
interface PromptHistoryOptions {
  text: HistoryRepairOptions
  reasoning: HistoryRepairOptions
}

/** A part's text repaired, its diagnostics reported. */
function cleanPart(
  text: string,
  options: PromptHistoryOptions,
  resolved: ResolvedMiddlewareOptions,
  channel: 'text' | 'reasoning',
  partId: string,
): string {
  const repaired = repairHistoryText(text, options[channel])
  for (const diagnostic of repaired.diagnostics) resolved.report({ ...diagnostic, operation: 'history', channel, partId })
  return repaired.text
}

/** The prompt with leaked markup removed from assistant text and reasoning parts. */
export function repairPrompt(
  prompt: LanguageModelV4Prompt,
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
): LanguageModelV4Prompt {
  if (!Array.isArray(prompt)) return prompt
  // One options object per channel for the whole prompt: history repair resolves each once.
  const { mode: _mode, role: _role, ...historyOptions } = engineOptions(resolved, params, 'strip')
  const options: PromptHistoryOptions = { text: historyOptions, reasoning: { ...historyOptions, note: () => '' } }
  let repaired: LanguageModelV4Message[] | undefined
  prompt.forEach((message, messageIndex) => {
    if (message === null || typeof message !== 'object' || message.role !== 'assistant' || !Array.isArray(message.content)) return
    let content: typeof message.content | undefined
    message.content.forEach((part, partIndex) => {
      if (part === null || typeof part !== 'object' || (part.type !== 'text' && part.type !== 'reasoning')) return
      if (typeof part.text !== 'string' || part.text === '') return
      const channel = part.type === 'text' ? 'text' : 'reasoning'
      const cleaned = cleanPart(part.text, options, resolved, channel, `prompt[${messageIndex}].content[${partIndex}]`)
      if (cleaned === part.text) return
      content ??= message.content.slice()
      content[partIndex] = { ...part, text: cleaned }
    })
    if (content === undefined) return
    repaired ??= prompt.slice()
    repaired[messageIndex] = { ...message, content }
  })
  return repaired ?? prompt
}
