/**
 * `createAnthropicDecoder`: Anthropic Messages SSE messages → neutral parts.
 * Each event becomes a group of parts closed by `chunk-end`, whose origin
 * keeps the event whole for the encoder.
 *
 * - `text_delta` → `text`; `thinking_delta` → `reasoning`;
 * - a `tool_use` block's start and its `input_json_delta`s → native tool-call
 *   parts (indexed by the block's index);
 * - the stop of a text or thinking block → `channel-end`, so what the
 *   channel holds is resolved inside the block;
 * - `message_delta` → `finish` (its `stop_reason`) and `usage`;
 *   `message_stop` → `done`; `error` → `error`;
 * - everything else (`message_start`, `ping`, `signature_delta`,
 *   `redacted_thinking`, server tools, unknown events) → `passthrough`,
 *   forwarded as it came; unreadable JSON too, with a `malformed-chunk`
 *   diagnostic.
 */
import type { Channel, ChunkOrigin, Part } from '../parts/part.ts'
import { isSseComment, type SseEvent, type SseMessage } from '../sse/types.ts'
import { type AnthropicEvent, isAnthropicEvent, isToolUseBlock } from './types.ts'
import { closeGroup, NOT_JSON, notJsonParts, originOf, parseData, ShapedOrigin } from '../dialect-kit/chunk-origin.ts'
import type { TextShape } from '../dialect-kit/text-shape.ts'
import { stringSpanAfter } from '../dialect-kit/plain-json-string.ts'

export interface AnthropicDecoder {
  feed(message: SseMessage): Part[]
  /** Just after `feed(message)`: where the text of a `text_delta` sits in the message's data (see `DialectDecoder.textSpan`). */
  textSpan(message: SseMessage): readonly [number, number] | undefined
  /** A `text_delta` of a known shape with another text: the parts `feed` would make, without parsing it (see `DialectDecoder.shapedParts`). */
  shapedParts(message: SseEvent, text: string, shape: TextShape): Part[]
}

/**
 * Anthropic Messages SSE messages → neutral parts, as a synchronous core (what
 * `AnthropicDecoderStream` runs).
 */
export function createAnthropicDecoder(): AnthropicDecoder {
  return new Decoder()
}

/** A class, so that one per open stream pays for its fields only. */
class Decoder implements AnthropicDecoder {
  /** The channel of each open text or thinking block, by index. */
  #channels = new Map<number, Channel>()
  /** The message being fed, and the last one fed when it was a text delta, with its text. */
  #message: SseMessage | undefined = undefined
  #textDelta: { message: SseMessage; text: string } | undefined = undefined

  textSpan(message: SseMessage): readonly [number, number] | undefined {
    const last = this.#textDelta
    if (last === undefined || last.message !== message || isSseComment(message)) return undefined
    // The string found is the delta's text (whatever the key order), or no span.
    return stringSpanAfter(message.data, '"text":"', last.text)
  }

  shapedParts(message: SseEvent, text: string, shape: TextShape): Part[] {
    // The shape is a text delta's (textSpan found it in one), and another string in place of its text changes nothing else.
    this.#textDelta = undefined
    const origin = new ShapedOrigin(message, shape)
    return closeGroup(origin, [{ type: 'text', text, origin }])
  }

  feed(message: SseMessage): Part[] {
    this.#textDelta = undefined
    this.#message = message
    if (isSseComment(message)) return [{ type: 'comment', comment: message.comment }]
    const event = parseData(message)
    if (event === NOT_JSON) return notJsonParts(message)
    const origin = originOf(message, event)
    if (!isAnthropicEvent(event)) return closeGroup(origin, [{ type: 'passthrough', origin }])
    return closeGroup(origin, this.#parts(event, origin))
  }

  #parts(event: AnthropicEvent, origin: ChunkOrigin): Part[] {
    const index = typeof event.index === 'number' ? event.index : -1
    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block
        if (block?.type === 'text') {
          this.#channels.set(index, 'text')
          // Text in the start itself is text like a delta's (the encoder writes the start with its text moved out).
          if (typeof block.text === 'string' && block.text !== '') return [{ type: 'passthrough', origin }, { type: 'text', text: block.text, origin }]
        }
        else if (block?.type === 'thinking') this.#channels.set(index, 'reasoning')
        else if (block !== undefined && block !== null && isToolUseBlock(block.type)) {
          const part: Part = { type: 'native-tool-call', index, origin }
          if (typeof block.id === 'string') part.id = block.id
          if (typeof block.name === 'string') part.name = block.name
          // Some proxies send the whole input here and no deltas.
          const input = block.input
          if (input !== null && typeof input === 'object' && Object.keys(input).length > 0) part.arguments = JSON.stringify(input)
          return [part]
        }
        return [{ type: 'passthrough', origin }]
      }
      case 'content_block_delta': {
        const delta = event.delta
        if (delta?.type === 'text_delta' && typeof delta.text === 'string') {
          this.#textDelta = { message: this.#message!, text: delta.text }
          return [{ type: 'text', text: delta.text, origin }]
        }
        if (delta?.type === 'thinking_delta' && typeof delta.thinking === 'string') return [{ type: 'reasoning', text: delta.thinking, origin }]
        if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          return [{ type: 'native-tool-call', index, arguments: delta.partial_json, origin }]
        }
        return [{ type: 'passthrough', origin }]
      }
      case 'content_block_stop': {
        const channel = this.#channels.get(index)
        if (channel === undefined) return [{ type: 'passthrough', origin }]
        this.#channels.delete(index)
        return [{ type: 'channel-end', channel, origin }]
      }
      case 'message_delta': {
        const parts: Part[] = []
        const reason = event.delta?.stop_reason
        if (typeof reason === 'string') parts.push({ type: 'finish', reason, origin })
        if (event.usage !== undefined && event.usage !== null) parts.push({ type: 'usage', usage: event.usage, origin })
        return parts.length > 0 ? parts : [{ type: 'passthrough', origin }]
      }
      case 'message_stop':
        return [{ type: 'done', origin }]
      case 'error':
        return [{ type: 'error', error: event.error ?? event, origin }]
      default:
        return [{ type: 'passthrough', origin }]
    }
  }
}
