/**
 * The pipeline workloads' content, framed in the other wire formats: the same
 * text deltas as Anthropic Messages events (one text block) and as an OpenAI
 * Responses API stream (one message item, the replay upstream's framing).
 * One `Uint8Array` per SSE event, as the Chat Completions workloads.
 */
import { responsesEvents } from '../src/responses/stream-events.ts'
import { encodeSseMessage } from '../src/sse/sse-encoder.ts'
import type { Workload } from './pipeline-inputs.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The content deltas of a Chat Completions workload, in order. */
export function textDeltasOf(workload: Workload): string[] {
  const deltas: string[] = []
  for (const event of workload.events) {
    const data = decoder.decode(event).slice(6, -2)
    if (!data.startsWith('{')) continue
    const content = (JSON.parse(data) as { choices: Array<{ delta?: { content?: unknown } }> }).choices[0]?.delta?.content
    if (typeof content === 'string' && content !== '') deltas.push(content)
  }
  return deltas
}

const event = (data: { type: string; [key: string]: unknown }): string => encodeSseMessage({ event: data.type, data: JSON.stringify(data) })

export function anthropicWorkload(deltas: readonly string[]): Uint8Array[] {
  return [
    event({ type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', content: [], model: 'deepseek-v4-flash', usage: { input_tokens: 12, output_tokens: 1 } } }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...deltas.map((text) => event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    event({ type: 'content_block_stop', index: 0 }),
    event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: deltas.length } }),
    event({ type: 'message_stop' }),
  ].map((text) => encoder.encode(text))
}

export function responsesWorkload(deltas: readonly string[]): Uint8Array[] {
  return responsesEvents('bench', 'deepseek-v4-flash', deltas, 12, 1_700_000_000).map((event) => encoder.encode(encodeSseMessage(event)))
}
