/**
 * `collectChatCompletion`: the `chat.completion.chunk`s of one streamed
 * completion → the `chat.completion` a non-streaming request gets, as
 * OpenAI's own SDKs accumulate a stream: per choice, content and
 * `reasoning_content` joined, each tool call (by its `index`) with its id,
 * type and name from the deltas that give them and its arguments joined, the
 * last finish reason (a call no delta gave an id or a name is dropped); the
 * usage of the chunk that carries it. A chunk that
 * is an error (`{"error": …}`) ends the collection with that error.
 */
import { isRecord } from '../records.ts'

interface CollectedCall {
  id?: unknown
  type: unknown
  function: { name: string; arguments: string }
}

interface CollectedChoice {
  role: unknown
  content: string | null
  reasoning: string | null
  calls: CollectedCall[]
  finish: unknown
}

export type CollectedCompletion = { completion: Record<string, unknown> } | { error: Record<string, unknown> }

export function collectChatCompletion(chunks: Iterable<unknown>): CollectedCompletion {
  const head: Record<string, unknown> = { id: undefined, object: 'chat.completion', created: undefined, model: undefined }
  const choices = new Map<number, CollectedChoice>()
  let usage: unknown
  for (const chunk of chunks) {
    if (!isRecord(chunk)) continue
    if (isRecord(chunk.error)) return { error: chunk.error }
    for (const key of ['id', 'created', 'model', 'system_fingerprint']) if (head[key] === undefined && chunk[key] !== undefined) head[key] = chunk[key]
    if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage
    if (!Array.isArray(chunk.choices)) continue
    for (const choice of chunk.choices) {
      if (!isRecord(choice)) continue
      const index = typeof choice.index === 'number' ? choice.index : 0
      let collected = choices.get(index)
      if (collected === undefined) choices.set(index, (collected = { role: 'assistant', content: null, reasoning: null, calls: [], finish: null }))
      if (typeof choice.finish_reason === 'string') collected.finish = choice.finish_reason
      const delta = choice.delta
      if (!isRecord(delta)) continue
      if (typeof delta.role === 'string') collected.role = delta.role
      if (typeof delta.content === 'string') collected.content = (collected.content ?? '') + delta.content
      if (typeof delta.reasoning_content === 'string') collected.reasoning = (collected.reasoning ?? '') + delta.reasoning_content
      if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) if (isRecord(call)) collectCall(collected.calls, call)
    }
  }
  const message = (choice: CollectedChoice): Record<string, unknown> => {
    const out: Record<string, unknown> = { role: choice.role, content: choice.content }
    if (choice.reasoning !== null) out.reasoning_content = choice.reasoning
    // A call no delta named (no id, no name) is no call.
    const calls = choice.calls.filter((call) => call !== undefined && (call.id !== undefined || call.function.name !== ''))
    if (calls.length > 0) out.tool_calls = calls
    return out
  }
  const completion: Record<string, unknown> = {
    ...head,
    choices: [...choices.entries()].sort(([a], [b]) => a - b).map(([index, choice]) => ({ index, message: message(choice), logprobs: null, finish_reason: choice.finish })),
  }
  if (usage !== undefined) completion.usage = usage
  return { completion }
}

function collectCall(calls: CollectedCall[], delta: Record<string, unknown>): void {
  const index = typeof delta.index === 'number' && Number.isInteger(delta.index) && delta.index >= 0 && delta.index < 1024 ? delta.index : calls.length
  let call = calls[index]
  if (call === undefined) calls[index] = call = { type: 'function', function: { name: '', arguments: '' } }
  if (typeof delta.id === 'string') call.id = delta.id
  if (typeof delta.type === 'string') call.type = delta.type
  const fn = delta.function
  if (!isRecord(fn)) return
  // Some providers repeat the name on every delta: the name is the last one given, not a concatenation.
  if (typeof fn.name === 'string' && fn.name !== '') call.function.name = fn.name
  if (typeof fn.arguments === 'string') call.function.arguments += fn.arguments
}
