/**
 * `repairAnthropicResponse`: wraps a `fetch` `Response` from a Messages
 * endpoint. A `text/event-stream` body goes through the fused repair
 * (`createAnthropicRepair`, the same bytes as `AnthropicRepairStream`); a JSON `message` body through `repairAnthropicMessage`. Status, status
 * text and headers are kept (minus `content-length` and `content-encoding`);
 * non-2xx responses, other bodies and empty bodies pass through untouched.
 */
import type { ToolCall } from '../dsml/types.ts'
import { createPartRepair } from '../parts/part-repair.ts'
import type { Channel } from '../parts/part.ts'
import { anthropicPartOptions, type AnthropicRepairOptions, createAnthropicRepair } from './repair.ts'
import { repairResponse } from '../dialect-kit/repair-response.ts'
import { type AnthropicContentBlock, type AnthropicMessage, isToolUseBlock } from './types.ts'

function isMessage(body: unknown): body is AnthropicMessage {
  return body !== null && typeof body === 'object' && Array.isArray((body as { content?: unknown }).content)
}

/**
 * Repairs a parsed `message` body, run through the part pipeline as the
 * blocks a stream of it would carry: `text` blocks cleaned (a block left
 * empty is dropped), `thinking` blocks cleaned (their signature kept),
 * recovered calls appended as `tool_use` blocks, `stop_reason` `end_turn` →
 * `tool_use`. Native `tool_use` blocks win wherever they sit. Returns
 * undefined when nothing changed.
 */
export function repairAnthropicMessage(body: unknown, options: AnthropicRepairOptions = {}): unknown {
  if (!isMessage(body)) return undefined
  let clean = ''
  const calls: ToolCall[] = []
  let stopReason: string | undefined
  // A whole message: its calls are written whole (`streamToolCalls` is for streams).
  const repair = createPartRepair({ ...anthropicPartOptions(options), streamToolCalls: false }, {
    emit(part) {
      if (part.type === 'text' || part.type === 'reasoning') clean += part.text
      else if (part.type === 'synthesized-tool-call') calls.push(part.call)
      else if (part.type === 'finish') stopReason = part.reason
    },
  })
  let changed = false
  const content: AnthropicContentBlock[] = []
  body.content.forEach((block, index) => {
    if (isToolUseBlock(block?.type)) {
      repair.feed({ type: 'native-tool-call', index, id: String(block.id), name: String(block.name), arguments: JSON.stringify(block.input ?? {}) })
      content.push(block)
      return
    }
    const field = block?.type === 'text' ? 'text' : block?.type === 'thinking' ? 'thinking' : undefined
    const text = field === undefined ? undefined : block[field]
    if (field === undefined || typeof text !== 'string') {
      content.push(block)
      return
    }
    const channel: Channel = field === 'text' ? 'text' : 'reasoning'
    clean = ''
    repair.feed({ type: channel, text })
    repair.feed({ type: 'channel-end', channel })
    if (clean === text) {
      content.push(block)
      return
    }
    changed = true
    if (clean !== '' || field === 'thinking') content.push({ ...block, [field]: clean })
  })
  if (typeof body.stop_reason === 'string') repair.feed({ type: 'finish', reason: body.stop_reason })
  repair.end()
  for (const call of calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })
  if (!changed && calls.length === 0) return undefined
  const repaired: AnthropicMessage = { ...body, content }
  if (stopReason !== undefined) repaired.stop_reason = stopReason
  return repaired
}

/**
 * Repairs an Anthropic Messages `Response`, streamed (SSE) or a JSON `message`: markup removed,
 * recovered calls as `tool_use` blocks, `stop_reason` `tool_use`. Pass `request` so its declared
 * tools gate and shape the calls.
 *
 * @example
 * ```ts
 * const upstream = await fetch(`${base}/v1/messages`, { method: 'POST', headers, body })
 * return repairAnthropicResponse(upstream, { request: JSON.parse(body) })
 * ```
 */
export function repairAnthropicResponse(response: Response, options: AnthropicRepairOptions = {}): Promise<Response> {
  return repairResponse(response, {
    maxJsonChars: options.maxBufferSize,
    core: () => createAnthropicRepair(options),
    json: (body) => repairAnthropicMessage(body, options),
  })
}
