/**
 * The neutral part model that flows between a dialect's decoder and encoder
 * (docs/layout.md). A dialect decoder turns each provider chunk into parts and
 * closes it with a `chunk-end` part; the stages in between (sanitizer,
 * synthesizer) transform parts; the dialect encoder turns each group of parts
 * up to a `chunk-end` back into one provider chunk.
 *
 * A part the decoder made carries its `origin`. The encoder forwards a chunk
 * as it came — without re-serialising — when every part of its group is one
 * the decoder made for it, untouched, in the same order.
 */
import type { Diagnostic, ToolCall } from '../dsml/types.ts'

/** Where a group of parts came from: one provider chunk, kept whole. */
export interface ChunkOrigin<Chunk = unknown> {
  /** The SSE `event` field of the message, if any. */
  event: string | undefined
  /** The SSE `id` field of the message, if any. */
  id: string | undefined
  /** The SSE `retry` field of the message, if any. */
  retry?: number
  /** The message's data exactly as received. */
  data: string
  /** The parsed chunk (undefined when the data was not JSON). */
  chunk: Chunk | undefined
  /** The parts the decoder made from this chunk, in order (the encoder's "untouched" check). */
  parts: Part[]
}

/** Which channel text came from: the answer (`content`) or the reasoning (`reasoning_content`). */
export type Channel = 'text' | 'reasoning'

export type Part =
  /** Answer text. */
  | { type: 'text'; text: string; origin?: ChunkOrigin }
  /** Reasoning text. */
  | { type: 'reasoning'; text: string; origin?: ChunkOrigin }
  /** A native tool-call delta, as the upstream sent it (OpenAI shape: index, id?, name?, arguments?). */
  | {
      type: 'native-tool-call'
      index: number
      id?: string
      name?: string
      arguments?: string
      origin?: ChunkOrigin
    }
  /** A call recovered from leaked markup (not yet given a protocol id and index); `streamed`: it ends a call streamed as it formed. */
  | { type: 'tool-call'; call: ToolCall; source: string; channel?: Channel; streamed?: true }
  /** A call that streams as it forms begins (`streamToolCalls`): its invoke's name was read. */
  | { type: 'tool-call-start'; id: string; name: string; channel?: Channel }
  /** The next piece of a streamed call's arguments, as JSON text. */
  | { type: 'tool-call-delta'; id: string; delta: string; channel?: Channel }
  /** A call ready for the wire: the synthesizer gave it its index. */
  | { type: 'synthesized-tool-call'; index: number; call: ToolCall; channel?: Channel }
  /** A streamed call on the wire: it begins, with its index, id and name (the settlement let it go at once). */
  | { type: 'synthesized-tool-call-start'; index: number; id: string; name: string; channel?: Channel }
  /** The next piece of a streamed call's arguments on the wire. */
  | { type: 'synthesized-tool-call-delta'; index: number; id: string; delta: string; channel?: Channel }
  /** A streamed call on the wire ends: its pieces joined are `call.arguments`' JSON text (unless cut off or mismatched). */
  | { type: 'synthesized-tool-call-end'; index: number; call: ToolCall; channel?: Channel }
  /** Something the sanitizer removed or decided; encoders do not write these. */
  | { type: 'diagnostic'; diagnostic: Diagnostic; channel?: Channel }
  /** The end of a message: finish reason as the provider spells it (`stop`, `length`, `tool_calls`…). */
  | { type: 'finish'; reason: string; origin?: ChunkOrigin }
  /** Token usage, as the provider sent it. */
  | { type: 'usage'; usage: unknown; origin?: ChunkOrigin }
  /** An error object the upstream sent inside the stream. */
  | { type: 'error'; error: unknown; origin?: ChunkOrigin }
  /** The stream's terminator (`[DONE]`). */
  | { type: 'done'; origin?: ChunkOrigin }
  /** An SSE comment (`: keep-alive`), kept so a gateway can forward it. */
  | { type: 'comment'; comment: string }
  /** Anything the decoder could not read (malformed JSON, unknown events): forwarded unchanged. */
  | { type: 'passthrough'; origin: ChunkOrigin }
  /**
   * The end of a channel's text block, in dialects whose text comes in blocks
   * (Anthropic's `content_block_stop`): what the channel holds is resolved
   * before it, so the block's text is complete when it closes.
   */
  | { type: 'channel-end'; channel: Channel; origin?: ChunkOrigin }
  /** Closes the group of parts made from `origin` (or, without origin, a group the stages made). */
  | { type: 'chunk-end'; origin?: ChunkOrigin }

export type PartType = Part['type']
