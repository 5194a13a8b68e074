/**
 * The Lingma wire the replay upstream writes, as a plain function of its
 * text deltas (its own framing: `data:` with no space, as Lingma writes it).
 * It imports nothing, so the test tables that use it as input data can run
 * against the built package (scripts/table-bundles.mjs bundles this file
 * from source, and only files like it).
 */

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
