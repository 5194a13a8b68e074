/**
 * Two wire framings the replay upstream writes, as plain functions of their
 * text deltas: a streamed OpenAI Responses API response, and a Lingma
 * upstream's stream. They import nothing, so the test tables that use them as
 * input data can run against the built package (scripts/table-bundles.mjs
 * bundles this file from source, and only files like it).
 */

/** A text as the events of a streamed Responses API response: one message item of `deltas`, then `response.completed`. */
export function responsesEvents(id: string, model: string, deltas: readonly string[], prompt: number, created: number): string[] {
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
  return events.map((event, sequence) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`)
}

/**
 * A Lingma upstream's stream of the same deltas: each chunk in the
 * double-JSON envelope (`data:{"headers":{},"body":"<chunk>",…}`), the finish
 * chunk, the usage chunk, `event:finish` with its timing frame, then
 * `data:{"body":"[DONE]"}`.
 */
export function lingmaEvents(id: string, model: string, deltas: readonly string[], prompt: number, created: number): string[] {
  const base = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created, model }
  const envelope = (chunk: unknown): string => `data:${JSON.stringify({ headers: {}, body: JSON.stringify(chunk), statusCodeValue: 200, statusCode: 'OK' })}\n\n`
  const chunk = (delta: Record<string, unknown>, finish: string | null): unknown => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })
  return [
    envelope(chunk({ role: 'assistant', content: '' }, null)),
    ...deltas.map((content) => envelope(chunk({ content }, null))),
    envelope(chunk({}, 'stop')),
    envelope({ ...base, choices: [], usage: { prompt_tokens: prompt, completion_tokens: deltas.length, total_tokens: prompt + deltas.length } }),
    `event:finish\ndata:${JSON.stringify({ firstTokenDuration: 100, totalDuration: 200 + deltas.length, serverDuration: 150 })}\n\n`,
    'data:{"body":"[DONE]"}\n\n',
  ]
}
