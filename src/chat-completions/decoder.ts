/**
 * `createChatCompletionsDecoder`: SSE messages → neutral parts. Each message
 * becomes a group of parts closed by `chunk-end`; the group's origin keeps the
 * message whole, so the encoder can forward it untouched.
 *
 * Only choice 0 is read (one message per stream); other choices are kept in
 * the chunk as they came.
 */
import type { Part } from '../parts/part.ts'
import { isSseComment, type SseEvent, type SseMessage } from '../sse/types.ts'
import { type ChatChoice, type ChatCompletionChunk, isChatCompletionChunk } from './types.ts'
import { closeGroup, NOT_JSON, notJsonParts, originOf, parseData } from '../dialect-kit/chunk-origin.ts'

export interface ChatCompletionsDecoder {
  feed(message: SseMessage): Part[]
}

/** What a key of a chat chunk makes when decoded (see `CHUNK_KEY_MEANINGS`). */
export type ChunkKeyMeaning = 'text' | 'part' | 'error' | 'choices'

/**
 * The keys `decodeChatCompletionsMessage` reads, and what each makes — for
 * readers that classify a chunk without decoding it (the fused repair's
 * chunk reader). Kept beside the decoder, which reads exactly these:
 * - `text`: `content`, the answer text part;
 * - `part`: unless `null`, a part other than the answer text;
 * - `error`: the chunk is an error part;
 * - `choices`: the array the message's choice is read from.
 * Any other key makes nothing.
 */
export const CHUNK_KEY_MEANINGS: Readonly<Record<string, ChunkKeyMeaning>> = {
  content: 'text',
  reasoning_content: 'part',
  tool_calls: 'part',
  finish_reason: 'part',
  usage: 'part',
  error: 'error',
  choices: 'choices',
}

/** An SSE message the decoder reads as an error whatever its data (`event: error`). */
export function isErrorEvent(message: SseEvent): boolean {
  return message.event === 'error'
}

/** The choice the dialect reads: index 0. */
export function primaryChoice(chunk: ChatCompletionChunk): ChatChoice | undefined {
  const choices = chunk.choices
  for (let index = 0; index < choices.length; index++) {
    const choice = choices[index]
    if (choice !== undefined && (choice.index === 0 || choice.index === undefined)) return choice
  }
  return undefined
}

/** Decodes one message; pure, so a decoder needs no state. */
export function decodeChatCompletionsMessage(message: SseMessage): Part[] {
  if (isSseComment(message)) return [{ type: 'comment', comment: message.comment }]
  const data = message.data
  if (data === '[DONE]') {
    const origin = originOf(message, undefined)
    return closeGroup(origin, [{ type: 'done', origin }])
  }
  const chunk = parseData(message)
  if (chunk === NOT_JSON) return notJsonParts(message)
  const origin = originOf(message, chunk)
  if (chunk !== null && typeof chunk === 'object' && ('error' in chunk || isErrorEvent(message))) {
    return closeGroup(origin, [{ type: 'error', error: (chunk as { error?: unknown }).error ?? chunk, origin }])
  }
  if (!isChatCompletionChunk(chunk)) return closeGroup(origin, [{ type: 'passthrough', origin }])
  const parts: Part[] = []
  const choice = primaryChoice(chunk)
  const delta = choice?.delta
  if (delta !== undefined && delta !== null) {
    if (typeof delta.reasoning_content === 'string') parts.push({ type: 'reasoning', text: delta.reasoning_content, origin })
    if (typeof delta.content === 'string') parts.push({ type: 'text', text: delta.content, origin })
    const toolCalls = delta.tool_calls
    if (Array.isArray(toolCalls)) {
      for (const call of toolCalls) {
        const part: Part = { type: 'native-tool-call', index: typeof call.index === 'number' ? call.index : 0, origin }
        if (typeof call.id === 'string') part.id = call.id
        if (typeof call.function?.name === 'string') part.name = call.function.name
        if (typeof call.function?.arguments === 'string') part.arguments = call.function.arguments
        parts.push(part)
      }
    }
  }
  if (choice !== undefined && typeof choice.finish_reason === 'string') {
    parts.push({ type: 'finish', reason: choice.finish_reason, origin })
  }
  if (chunk.usage !== undefined && chunk.usage !== null) parts.push({ type: 'usage', usage: chunk.usage, origin })
  return closeGroup(origin, parts)
}

export function createChatCompletionsDecoder(): ChatCompletionsDecoder {
  return { feed: decodeChatCompletionsMessage }
}
