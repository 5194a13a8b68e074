/**
 * `wrapGenerate`: the same repair on a whole result. `text` content parts are
 * cleaned (a part that ends up empty is dropped) and their recovered calls
 * appended as `tool-call` content parts; `reasoning` parts are cleaned (and
 * kept, even empty: they may carry provider data); the finish reason is
 * rewritten like the stream's. Native `tool-call` parts win wherever they sit.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from '@ai-sdk/provider'
import { createDsmlSanitizer } from '../dsml/index.ts'
import { engineOptions, type ResolvedMiddlewareOptions } from './options.ts'
import { createRecovery, type Channel, type Recovery } from './recovery.ts'

function clean(recovery: Recovery, text: string, channel: Channel, partId: string): string {
  const engine = recovery.engine(channel)
  const events = engine.feed(text)
  for (const event of recovery.end(engine)) events.push(event)
  return recovery.absorb(events, channel, partId)
}

export function repairGenerateResult(
  result: LanguageModelV4GenerateResult,
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
): LanguageModelV4GenerateResult {
  if (result === null || typeof result !== 'object' || !Array.isArray(result.content)) return result
  const recovery = createRecovery(resolved, params, 'generate')
  // Native calls win whatever their place in the content.
  for (const part of result.content) {
    if (part !== null && typeof part === 'object' && part.type === 'tool-call') recovery.noteNative(part, true)
  }
  let changed = false
  const content: LanguageModelV4Content[] = []
  result.content.forEach((part, index) => {
    const isText = part?.type === 'text'
    if ((!isText && part?.type !== 'reasoning') || typeof part.text !== 'string') {
      content.push(part)
      return
    }
    const text = clean(recovery, part.text, isText ? 'text' : 'reasoning', `content[${index}]`)
    if (text === part.text) {
      content.push(part)
      return
    }
    changed = true
    if (text !== '' || !isText) content.push({ ...part, text })
  })
  const settled = recovery.settle(result.finishReason)
  for (const call of settled.calls) content.push(call)
  if (!changed && settled.calls.length === 0) return result
  const repaired: LanguageModelV4GenerateResult = { ...result, content }
  if (settled.finishReason !== undefined) repaired.finishReason = settled.finishReason
  if (typeof result.structuredOutputText === 'string') {
    // The same text, selected for JSON parsing: clean it too (its calls are already counted above).
    const sanitizer = createDsmlSanitizer({ ...engineOptions(resolved, params), mode: 'strip' })
    let structured = ''
    for (const event of [...sanitizer.feed(result.structuredOutputText), ...sanitizer.end()]) {
      if (event.type === 'text') structured += event.text
    }
    repaired.structuredOutputText = structured
  }
  return repaired
}
