/**
 * `wrapGenerate`: a whole result translated into parts and run through the
 * one part pipeline, like the stream. Each `text` or `reasoning` content part
 * is its own piece of text (its channel ends after it): a `text` part is
 * cleaned (a part that ends up empty is dropped), a `reasoning` part cleaned
 * and kept, even empty (it may carry provider data). Native `tool-call`
 * parts win wherever they sit; recovered calls are settled at the finish
 * (`settleRecoveredCalls`) and appended as `tool-call` content parts, and the
 * finish reason is rewritten like the stream's. `structuredOutputText` (the
 * same text, selected for JSON parsing) is cleaned by `sanitizeText`.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from '@ai-sdk/provider'
import { unifiedFinishReason, withUnifiedFinishReason } from './finish-reason.ts'
import { sanitizeText } from '../dsml/sanitize-text.ts'
import type { Channel, Part } from '../parts/part.ts'
import { createPartRepair } from '../parts/part-repair.ts'
import { engineOptions, partRepairOptions, type DsmlMiddlewareDiagnostic, type ResolvedMiddlewareOptions } from './options.ts'

export function repairGenerateResult(
  result: LanguageModelV4GenerateResult,
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
): LanguageModelV4GenerateResult {
  if (result === null || typeof result !== 'object' || !Array.isArray(result.content)) return result
  const calls: LanguageModelV4Content[] = []
  /** The content part being cleaned (its id for diagnostics), and its clean text so far. */
  let partId = ''
  let clean = ''
  let finish: string | undefined
  const sourcePart = new Map<string, string>()
  const report = (diagnostic: Omit<DsmlMiddlewareDiagnostic, 'operation'>): void => resolved.report({ ...diagnostic, operation: 'generate' })
  // A whole result: its calls are written whole (`streamToolCalls` is for streams).
  const repair = createPartRepair({ ...partRepairOptions(resolved, params), streamToolCalls: false }, {
    emit(part) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          clean += part.text
          return
        case 'synthesized-tool-call': {
          calls.push({ type: 'tool-call', toolCallId: part.call.id, toolName: part.call.name, input: JSON.stringify(part.call.arguments) })
          return
        }
        case 'finish':
          finish = part.reason
          return
        case 'diagnostic': {
          const callId = part.diagnostic.toolCallId
          const diagnostic: Omit<DsmlMiddlewareDiagnostic, 'operation'> = { ...part.diagnostic, channel: part.channel ?? 'text', partId }
          if (callId !== undefined) {
            diagnostic.partId = sourcePart.get(callId) ?? ''
          }
          report(diagnostic)
          return
        }
        default:
          return
      }
    },
    recovered: (part) => sourcePart.set(part.call.id, partId),
  })

  let changed = false
  const content: LanguageModelV4Content[] = []
  let nativeIndex = 0
  result.content.forEach((part, index) => {
    if (part !== null && typeof part === 'object' && part.type === 'tool-call') {
      const native: Part = { type: 'native-tool-call', index: nativeIndex++, id: String(part.toolCallId), name: part.toolName }
      if (typeof part.input === 'string') native.arguments = part.input
      repair.feed(native)
    }
    const isText = part?.type === 'text'
    if ((!isText && part?.type !== 'reasoning') || typeof part.text !== 'string') {
      content.push(part)
      return
    }
    const channel: Channel = isText ? 'text' : 'reasoning'
    partId = `content[${index}]`
    clean = ''
    repair.feed({ type: channel, text: part.text })
    repair.endChannel(channel)
    const text = clean
    if (text === part.text) {
      content.push(part)
      return
    }
    changed = true
    if (text !== '' || !isText) content.push({ ...part, text })
  })
  partId = ''
  const finishReason = result.finishReason
  const reason = unifiedFinishReason(finishReason)
  if (reason !== undefined) repair.feed({ type: 'finish', reason })
  repair.end()
  for (const call of calls) content.push(call)
  if (!changed && calls.length === 0) return result
  const repaired: LanguageModelV4GenerateResult = { ...result, content }
  if (finish !== undefined && finish !== reason) repaired.finishReason = withUnifiedFinishReason(finishReason, finish)
  if (typeof result.structuredOutputText === 'string') {
    // Its calls are already counted above: only the clean text is wanted here.
    repaired.structuredOutputText = sanitizeText(result.structuredOutputText, { ...engineOptions(resolved, params), mode: 'strip' }).text
  }
  return repaired
}
