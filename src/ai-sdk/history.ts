/**
 * `transformParams`: repairs the prompt history before it reaches the model.
 * Leaked markup replayed in the next request is what the model imitates.
 *
 * Only assistant messages change, and in them only `text` and `reasoning`
 * parts that hold markup: the markup is removed (never turned into a call —
 * a call without its result would make the history invalid). A repaired text
 * part ends with a short note naming the removed tools, e.g.
 * `[removed leaked tool-call markup: edit]`, so the model does not believe
 * it ran them. System, user and tool messages, and every other part, are
 * passed as they are (the same objects); an unchanged prompt is returned as is.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider'
import { createDsmlSanitizer } from '../dsml/index.ts'
import type { DsmlSanitizerOptions } from '../dsml/index.ts'
import { engineOptions, type ResolvedMiddlewareOptions } from './options.ts'

/** Removed text that is tool-call markup (not just a special token such as end-of-sentence). */
const CALL_MARKUP = /dsml|invoke|parameter|tool_?calls?|function_calls?/i

/** The note appended to a repaired text part. Never holds markup, so a second pass leaves it alone. */
export function historyNote(tools: readonly string[]): string {
  return tools.length === 0 ? '[removed leaked tool-call markup]' : `[removed leaked tool-call markup: ${tools.join(', ')}]`
}

interface Cleaned {
  text: string
  tools: string[]
  callMarkup: boolean
}

function cleanPart(
  text: string,
  options: DsmlSanitizerOptions,
  resolved: ResolvedMiddlewareOptions,
  channel: 'text' | 'reasoning',
  partId: string,
): Cleaned {
  const sanitizer = createDsmlSanitizer(options)
  const events = sanitizer.feed(text)
  for (const event of sanitizer.end()) events.push(event)
  const tools: string[] = []
  let clean = ''
  let callMarkup = false
  for (const event of events) {
    if (event.type === 'text') {
      clean += event.text
      continue
    }
    // mode 'strip': the engine reports every removed call as dropped markup.
    if (event.type !== 'diagnostic') continue
    const { diagnostic } = event
    if (diagnostic.text !== '') {
      if (diagnostic.tool !== undefined && !tools.includes(diagnostic.tool)) tools.push(diagnostic.tool)
      if (diagnostic.tool !== undefined || CALL_MARKUP.test(diagnostic.text)) callMarkup = true
    }
    resolved.report({ ...diagnostic, operation: 'history', channel, partId })
  }
  return { text: clean, tools, callMarkup }
}

function withNote(cleaned: Cleaned): string {
  if (!cleaned.callMarkup) return cleaned.text
  const note = historyNote(cleaned.tools)
  const kept = cleaned.text.trimEnd()
  return kept === '' ? note : `${kept}\n\n${note}`
}

/** The prompt with leaked markup removed from assistant text and reasoning parts. */
export function repairPrompt(
  prompt: LanguageModelV4Prompt,
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
): LanguageModelV4Prompt {
  if (!Array.isArray(prompt)) return prompt
  const options = engineOptions(resolved, params, 'strip')
  let repaired: LanguageModelV4Message[] | undefined
  prompt.forEach((message, messageIndex) => {
    if (message === null || typeof message !== 'object' || message.role !== 'assistant' || !Array.isArray(message.content)) return
    let content: typeof message.content | undefined
    message.content.forEach((part, partIndex) => {
      if (part === null || typeof part !== 'object' || (part.type !== 'text' && part.type !== 'reasoning')) return
      if (typeof part.text !== 'string' || part.text === '') return
      const channel = part.type === 'text' ? 'text' : 'reasoning'
      const cleaned = cleanPart(part.text, options, resolved, channel, `prompt[${messageIndex}].content[${partIndex}]`)
      if (cleaned.text === part.text) return
      content ??= message.content.slice()
      content[partIndex] = { ...part, text: channel === 'text' ? withNote(cleaned) : cleaned.text }
    })
    if (content === undefined) return
    repaired ??= prompt.slice()
    repaired[messageIndex] = { ...message, content }
  })
  return repaired ?? prompt
}
