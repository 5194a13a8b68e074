/**
 * Anthropic Messages framing for tests: a text (a real capture's, or a
 * built leak) framed as the events DeepSeek's `/anthropic` endpoint streams,
 * and a reader that folds repaired SSE back into the message a client SDK
 * would accumulate, checking the block structure on the way.
 */
import { createSseDecoder, isSseComment } from '../../src/sse/index.ts'
import { createAnthropicRepair } from '../../src/anthropic/index.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import type { AnthropicRepairOptions } from '../../src/anthropic/repair.ts'

export interface Block {
  type: string
  [key: string]: unknown
}

/** One SSE event as the endpoint writes it: `event:` equal to the JSON `type`. */
export function event(data: { type: string; [key: string]: unknown }): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`
}

export const MESSAGE_START = event({
  type: 'message_start',
  message: { id: 'msg_test', type: 'message', role: 'assistant', content: [], model: 'deepseek-v4-flash', stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } },
})
export const PING = event({ type: 'ping' })
export const MESSAGE_STOP = event({ type: 'message_stop' })

export function textBlock(index: number, pieces: readonly string[]): string {
  let out = event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
  for (const text of pieces) out += event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })
  return out + event({ type: 'content_block_stop', index })
}

export function thinkingBlock(index: number, pieces: readonly string[], signature = 'c2lnbmF0dXJl'): string {
  let out = event({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } })
  for (const thinking of pieces) out += event({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } })
  out += event({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } })
  return out + event({ type: 'content_block_stop', index })
}

export function toolUseBlock(index: number, id: string, name: string, input: string): string {
  return (
    event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }) +
    event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }) +
    event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: input } }) +
    event({ type: 'content_block_stop', index })
  )
}

export function messageDelta(stopReason: string): string {
  return event({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 42 } })
}

/** A whole message: start, the given blocks, the finish, the stop. */
export function message(blocks: string, stopReason = 'end_turn'): string {
  return MESSAGE_START + PING + blocks + messageDelta(stopReason) + MESSAGE_STOP
}

export interface Folded {
  content: Block[]
  stopReason: string | undefined
  events: Array<{ event: string | undefined; data: Record<string, unknown> }>
  /** Block-structure faults: indexes not dense, deltas outside their block, a start without a stop. */
  faults: string[]
}

/** Repaired SSE text folded into the message a client accumulates (the SDK's `MessageStream` rules). */
export function fold(sse: string): Folded {
  const decoder = createSseDecoder()
  const messages = [...decoder.feed(sse), ...decoder.end()]
  const content: Block[] = []
  const open = new Set<number>()
  const partialJson = new Map<number, string>()
  const faults: string[] = []
  const events: Folded['events'] = []
  let stopReason: string | undefined
  for (const message of messages) {
    if (isSseComment(message)) continue
    const data = JSON.parse(message.data) as Record<string, unknown> & { type: string; index?: number }
    events.push({ event: message.event, data })
    if (message.event !== data.type) faults.push(`event name ${String(message.event)} ≠ type ${data.type}`)
    const index = data.index
    switch (data.type) {
      case 'content_block_start':
        if (index !== content.length) faults.push(`block started at ${String(index)}, expected ${content.length}`)
        content.push({ ...(data.content_block as Block) })
        open.add(index!)
        break
      case 'content_block_delta': {
        if (!open.has(index!)) faults.push(`delta for block ${String(index)}, which is not open`)
        const block = content[index!]!
        const delta = data.delta as Record<string, string>
        if (delta.type === 'text_delta') block.text = String(block.text ?? '') + delta.text
        else if (delta.type === 'thinking_delta') block.thinking = String(block.thinking ?? '') + delta.thinking
        else if (delta.type === 'signature_delta') block.signature = delta.signature
        else if (delta.type === 'input_json_delta') partialJson.set(index!, (partialJson.get(index!) ?? '') + delta.partial_json)
        break
      }
      case 'content_block_stop':
        if (!open.delete(index!)) faults.push(`stop for block ${String(index)}, which is not open`)
        if (partialJson.has(index!)) {
          const json = partialJson.get(index!)!
          content[index!]!.input = json === '' ? {} : (JSON.parse(json) as unknown)
        }
        break
      case 'message_delta':
        stopReason = (data.delta as { stop_reason?: string }).stop_reason
        break
      default:
        break
    }
  }
  for (const index of open) faults.push(`block ${index} never stopped`)
  return { content, stopReason, events, faults }
}

export interface AnthropicRun {
  output: string
  diagnostics: Diagnostic[]
}

/** Deterministic ids: `toolu_1`, `toolu_2`, … */
export function toolUseIds(): () => string {
  let counter = 0
  return () => `toolu_${++counter}`
}

/** The fused core over `chunks`. */
export function repairAnthropic(chunks: Iterable<string | Uint8Array>, options: AnthropicRepairOptions = {}): AnthropicRun {
  const diagnostics: Diagnostic[] = []
  const repair = createAnthropicRepair({ generateId: toolUseIds(), ...options, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) })
  let output = ''
  for (const chunk of chunks) output += repair.feed(chunk) ?? repair.text()
  output += repair.end()
  return { output, diagnostics }
}

export const textOf = (content: readonly Block[]): string => content.filter((block) => block.type === 'text').map((block) => String(block.text)).join('')
export const toolUses = (content: readonly Block[]): Array<{ id: unknown; name: unknown; input: unknown }> =>
  content.filter((block) => block.type === 'tool_use').map((block) => ({ id: block.id, name: block.name, input: block.input }))
