/**
 * The events of a streamed Responses API response that says a text in
 * `deltas`, as SSE messages (written with `encodeSseMessage`): what the
 * replay upstream sends, and the bench and the tests read. It imports only a
 * type, so the test tables that use it as input data can run against the
 * built package (scripts/table-bundles.mjs bundles this file from source,
 * and only files like it).
 */
import type { SseEvent } from '../sse/types.ts'

/** A text as the events of a streamed Responses API response: one message item of `deltas`, then `response.completed`. */
export function responsesEvents(id: string, model: string, deltas: readonly string[], prompt: number, created: number): SseEvent[] {
  const text = deltas.join('')
  const itemId = `msg_${id}`
  const response = { id: `resp_${id}`, object: 'response', created_at: created, status: 'in_progress', model, output: [] as unknown[] }
  const doneItem = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }
  const events: Array<Record<string, unknown> & { type: string }> = [
    { type: 'response.created', response },
    { type: 'response.in_progress', response },
    { type: 'response.output_item.added', output_index: 0, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.content_part.added', item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
    ...deltas.map((delta) => ({ type: 'response.output_text.delta', item_id: itemId, output_index: 0, content_index: 0, delta, logprobs: [] })),
    { type: 'response.output_text.done', item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] },
    { type: 'response.content_part.done', item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text, annotations: [] } },
    { type: 'response.output_item.done', output_index: 0, item: doneItem },
    {
      type: 'response.completed',
      response: { ...response, status: 'completed', output: [doneItem], usage: { input_tokens: prompt, output_tokens: deltas.length, total_tokens: prompt + deltas.length } },
    },
  ]
  return events.map((event, sequence) => ({ event: event.type, data: JSON.stringify({ ...event, sequence_number: sequence }) }))
}
