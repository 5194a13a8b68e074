/**
 * `repairResponsesResponse`: wraps a `fetch` `Response` from a Responses API
 * endpoint. A `text/event-stream` body goes through the fused repair
 * (`createResponsesRepair`, the same bytes as `ResponsesRepairStream`); a JSON `response` object through `repairResponsesObject`. Status, status
 * text and headers are kept (minus `content-length` and `content-encoding`);
 * non-2xx responses, other bodies and empty bodies pass through untouched.
 */
import type { ToolCall } from '../dsml/types.ts'
import { createPartRepair } from '../parts/part-repair.ts'
import { createResponsesRepair, responsesPartOptions, type ResponsesRepairOptions } from './repair.ts'
import { repairResponse } from '../dialect-kit/repair-response.ts'
import type { ResponsesItem, ResponsesObject } from './types.ts'
import { COMPLETED, isCallItem } from './types.ts'

/**
 * Repairs a parsed `response` object, run through the part pipeline as the
 * items a stream of it would carry: message `output_text` parts and
 * reasoning texts cleaned, recovered calls appended as `function_call` items
 * (when the status is `completed`). Native `function_call` items win wherever
 * they sit. Returns undefined when nothing changed.
 */
export function repairResponsesObject(body: unknown, options: ResponsesRepairOptions = {}): unknown {
  if (body === null || typeof body !== 'object' || !Array.isArray((body as ResponsesObject).output)) return undefined
  const response = body as ResponsesObject & { output: ResponsesItem[] }
  let clean = ''
  const calls: ToolCall[] = []
  // A whole response: its calls are written whole (`streamToolCalls` is for streams).
  const repair = createPartRepair({ ...responsesPartOptions(options), streamToolCalls: false }, {
    emit(part) {
      if (part.type === 'text' || part.type === 'reasoning') clean += part.text
      else if (part.type === 'synthesized-tool-call') calls.push(part.call)
    },
  })
  let changed = false
  const cleanText = (text: string, channel: 'text' | 'reasoning'): string => {
    clean = ''
    repair.feed({ type: channel, text })
    repair.feed({ type: 'channel-end', channel })
    if (clean !== text) changed = true
    return clean
  }
  const output = response.output.map((item, index) => {
    if (item === null || typeof item !== 'object') return item
    if (isCallItem(item.type)) {
      const part: { type: 'native-tool-call'; index: number; id?: string; name?: string; arguments?: string } = { type: 'native-tool-call', index }
      if (typeof item.call_id === 'string') part.id = item.call_id
      if (typeof item.name === 'string') part.name = item.name
      if (typeof item.arguments === 'string') part.arguments = item.arguments
      repair.feed(part)
      return item
    }
    const channel = item.type === 'message' ? 'text' : item.type === 'reasoning' ? 'reasoning' : undefined
    if (channel === undefined) return item
    const cleanEntries = (entries: ResponsesItem['content']): ResponsesItem['content'] =>
      entries?.map((entry) =>
        entry !== null && typeof entry === 'object' && typeof entry.text === 'string' && (entry.type === 'output_text' || channel === 'reasoning')
          ? { ...entry, text: cleanText(entry.text, channel) }
          : entry,
      )
    const next: ResponsesItem = { ...item }
    if (Array.isArray(item.content)) next.content = cleanEntries(item.content)
    if (Array.isArray(item.summary)) next.summary = cleanEntries(item.summary)
    return next
  })
  if (response.status === COMPLETED) repair.feed({ type: 'finish', reason: COMPLETED })
  repair.end()
  for (const call of calls) {
    output.push({ type: 'function_call', id: `fc_${call.id.slice(call.id.indexOf('_') + 1)}`, call_id: call.id, name: call.name, arguments: JSON.stringify(call.arguments), status: 'completed' })
  }
  if (!changed && calls.length === 0) return undefined
  return { ...response, output }
}

/**
 * Repairs a Responses API `Response`, streamed (SSE) or a JSON `response`: markup removed,
 * recovered calls as `function_call` items. Pass `request` so its declared tools gate and shape the
 * calls.
 *
 * @example
 * ```ts
 * const upstream = await fetch(`${base}/responses`, { method: 'POST', headers, body })
 * return repairResponsesResponse(upstream, { request: JSON.parse(body) })
 * ```
 */
export function repairResponsesResponse(response: Response, options: ResponsesRepairOptions = {}): Promise<Response> {
  return repairResponse(response, {
    maxJsonChars: options.maxBufferSize,
    core: () => createResponsesRepair(options),
    json: (body) => repairResponsesObject(body, options),
  })
}
