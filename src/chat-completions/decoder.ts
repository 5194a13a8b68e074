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
import { type ChatChoice, type ChatCompletionChunk, DONE_DATA, isChatCompletionChunk } from './types.ts'
import { closeGroup, NOT_JSON, notJsonParts, originOf, parseData, ShapedOrigin } from '../dialect-kit/chunk-origin.ts'
import type { DialectDecoder } from '../dialect-kit/dialect-hooks.ts'
import type { TextShape } from '../dialect-kit/text-shape.ts'
import { PlainJsonScanner } from './json-scan.ts'

export interface ChatCompletionsDecoder {
  feed(message: SseMessage): Part[]
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
  if (data === DONE_DATA) {
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

/**
 * Chat Completions SSE messages → neutral parts, as a synchronous core (what
 * `ChatCompletionsDecoderStream` runs).
 */
export function createChatCompletionsDecoder(): ChatCompletionsDecoder {
  return { feed: decodeChatCompletionsMessage }
}

/** The decoder with what the fused repair may ask it (internal; not exported from the package). */
export function createChatCompletionsDecoderCore(): DialectDecoder {
  return new DecoderCore()
}

/** A class, so that one per open stream pays for its scanner only. */
class DecoderCore implements DialectDecoder {
  #scan = new PlainJsonScanner()

  feed(message: SseMessage): Part[] {
    return decodeChatCompletionsMessage(message)
  }

  /** A chunk `PlainJsonScanner` finds plain (never an `event: error`): its `content` string's body, or null without one. */
  plainSpan(message: SseEvent): readonly [number, number] | null | undefined {
    const scan = this.#scan
    if (isErrorEvent(message) || !scan.isPlain(message.data)) return undefined
    return scan.contentStart === -1 ? null : [scan.contentStart, scan.contentEnd]
  }

  /**
   * A chunk of a plain chunk's shape with another content: the one text part
   * decoding it gives (the shape is a chat chunk whose only part is its
   * `content`, and a string value in place of another changes nothing else).
   */
  shapedParts(message: SseEvent, text: string, shape: TextShape): Part[] {
    const origin = new ShapedOrigin(message, shape)
    const part: Part = { type: 'text', text, origin }
    origin.parts.push(part)
    return [part, { type: 'chunk-end', origin }]
  }
}
