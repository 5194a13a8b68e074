/**
 * `createAnthropicEncoder`: neutral parts → Anthropic Messages SSE messages.
 * Parts are gathered up to each `chunk-end`; an event whose parts are exactly
 * what the decoder made for it is forwarded as it came (its `index`
 * renumbered when blocks before it were dropped). Otherwise:
 *
 * - clean text goes out as `text_delta`s of its block, whose
 *   `content_block_start` is held back until the block's first clean text: a
 *   text block that ends up empty is not written at all (start, deltas, stop);
 * - clean reasoning goes out as `thinking_delta`s of its block (thinking
 *   blocks are always written: they carry signatures);
 * - a recovered call becomes a `tool_use` block of its own — start (`id`,
 *   `name`, `input: {}`), one `input_json_delta` with the whole input, stop —
 *   at the next index, before the `message_delta` that carries the finish;
 * - a rewritten finish rewrites `message_delta.delta.stop_reason`.
 *
 * Block indexes stay dense and in order: each written block takes the next
 * one. Text with no open block to go to (held text released by an error or
 * the end of the stream) gets a text block of its own.
 */
import type { ChunkOrigin, Part } from '../parts/part.ts'
import type { SseMessage } from '../sse/types.ts'
import { type AnthropicEvent, isAnthropicEvent } from './types.ts'
import { sameParts, ShapedOrigin, withOrigin } from '../dialect-kit/chunk-origin.ts'
import type { ForwardedMessage } from '../dialect-kit/forwarded-message.ts'
import { LastShape, type TextShape } from '../dialect-kit/text-shape.ts'
import { parseBoundedJson } from '../json-text.ts'

export interface AnthropicEncoder {
  feed(part: Part): SseMessage[]
  /** Writes any parts left without a `chunk-end`. */
  end(): SseMessage[]
  /** Can every event of `shape` be written from its text part alone? When it is a `text_delta` (see `DialectEncoder.writesShape`). */
  writesShape(shape: TextShape): boolean
  /**
   * A text delta of the shape goes by as it came (see `DialectEncoder.forwarded`): yes while the text block it
   * belongs to is open, its start written, under its own number. A call streamed as it forms ends that block (the
   * text after it opens it again at the next number): then no, and the delta is written from its parts.
   */
  forwarded(message: ForwardedMessage): boolean
}

/**
 * Neutral parts → Anthropic Messages SSE messages, as a synchronous core (what
 * `AnthropicEncoderStream` runs).
 */
export function createAnthropicEncoder(): AnthropicEncoder {
  return new Encoder()
}

/** The block index of a shape whose events are `content_block_delta`s of a `text_delta`, else undefined. */
function textDeltaIndex(shape: TextShape): number | undefined {
  if (shape.counted || shape.event !== 'content_block_delta') return undefined
  // The shape with an empty string body: the event every text of the shape is.
  const parsed = parseBoundedJson(`${shape.before}${shape.middle}`)
  const event = parsed?.value
  if (!isAnthropicEvent(event) || event.type !== 'content_block_delta' || typeof event.index !== 'number') return undefined
  return event.delta?.type === 'text_delta' && event.delta.text === '' ? event.index : undefined
}

function madeUp(event: Record<string, unknown> & { type: string }): SseMessage {
  return { event: event.type, data: JSON.stringify(event) }
}

/** A class, so that one per open stream pays for its fields only. */
class Encoder implements AnthropicEncoder {
  #group: Part[] = []
  #out: SseMessage[] = []
  /** Upstream block index → output index, for every block written so far. */
  #indexes = new Map<number, number>()
  #next = 0
  /** The open text block: its upstream index, its held start, whether the start went out. */
  #text: { index: number; start: ChunkOrigin; event: AnthropicEvent; started: boolean } | undefined = undefined
  /** The open thinking block's upstream index. */
  #thinking: number | undefined = undefined
  /** Calls streamed as they form: the block each writes to, by its index in the message's calls. */
  #streamedBlocks = new Map<number, number>()
  /** The block index of the last shape asked about (`writesShape`), when it is a `text_delta`'s. */
  #shapes = new LastShape<number>(textDeltaIndex)

  feed(part: Part): SseMessage[] {
    switch (part.type) {
      case 'chunk-end':
        this.#writeGroup(part.origin)
        break
      case 'comment':
        return [{ comment: part.comment }]
      case 'diagnostic':
      case 'tool-call':
        return []
      default:
        this.#group.push(part)
        return []
    }
    const out = this.#out
    this.#out = []
    return out
  }

  end(): SseMessage[] {
    if (this.#group.length > 0) this.#writeGroup(undefined)
    const out = this.#out
    this.#out = []
    return out
  }

  forwarded(): boolean {
    // The shape is learned from a delta of the open text block written as it came, and any event that opens another
    // block is decoded, which drops the shape: a delta of the shape is the open text block's.
    const text = this.#text
    return text !== undefined && text.started && this.#indexes.get(text.index) === text.index
  }

  writesShape(shape: TextShape): boolean {
    return this.#shapes.of(shape) !== undefined
  }

  #writeGroup(origin: ChunkOrigin | undefined): void {
    const parts = this.#group
    this.#group = []
    if (origin instanceof ShapedOrigin && this.#writeShaped(origin, parts)) return
    const event = origin !== undefined && isAnthropicEvent(origin.chunk) ? origin.chunk : undefined
    if (origin !== undefined && sameParts(parts, origin)) {
      this.#forward(origin, event, true)
      return
    }
    let written = false
    for (const part of parts) {
      switch (part.type) {
        case 'text':
          this.#writeText(part.text)
          continue
        case 'reasoning':
          this.#writeThinking(part.text)
          continue
        case 'synthesized-tool-call':
          this.#writeToolUse(part.call.id, part.call.name, JSON.stringify(part.call.arguments))
          continue
        case 'synthesized-tool-call-start': {
          // A call streamed as it forms gets a block of its own now: the text block before it ends first (text after it
          // opens the block again, at the next index).
          const text = this.#text
          if (text?.started) {
            this.#out.push(madeUp({ type: 'content_block_stop', index: this.#indexes.get(text.index)! }))
            text.started = false
          }
          const index = this.#next++
          this.#streamedBlocks.set(part.index, index)
          this.#out.push(madeUp({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: part.id, name: part.name, input: {} } }))
          continue
        }
        case 'synthesized-tool-call-delta': {
          const index = this.#streamedBlocks.get(part.index)
          if (index !== undefined) this.#out.push(madeUp({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part.delta } }))
          continue
        }
        case 'synthesized-tool-call-end': {
          const index = this.#streamedBlocks.get(part.index)
          this.#streamedBlocks.delete(part.index)
          if (index !== undefined) this.#out.push(madeUp({ type: 'content_block_stop', index }))
          continue
        }
        case 'finish':
          // A finish the stages made (a runaway ended the message): the open blocks close, then the message's delta.
          if (part.origin !== undefined) break
          this.#closeBlocks()
          this.#out.push(madeUp({ type: 'message_delta', delta: { stop_reason: part.reason, stop_sequence: null }, usage: { output_tokens: 0 } }))
          continue
        case 'done':
          if (part.origin === undefined) this.#out.push(madeUp({ type: 'message_stop' }))
          continue
        default:
          break
      }
      if (origin === undefined || !('origin' in part) || part.origin !== origin || written) continue
      written = true
      if (part.type === 'finish' && event !== undefined && event.delta?.stop_reason !== part.reason) {
        this.#out.push(withOrigin(origin, JSON.stringify({ ...event, delta: { ...event.delta, stop_reason: part.reason } })))
      } else {
        this.#forward(origin, event, false)
      }
    }
  }

  /**
   * A text delta read without parsing (`ShapedOrigin`): written as an
   * unshaped one would be, without its event — as it came when its parts
   * came through untouched, else from its text parts. False when it needs
   * its event after all (another part of its own), which is then parsed.
   */
  #writeShaped(origin: ShapedOrigin, parts: readonly Part[]): boolean {
    const index = this.#shapes.of(origin.shape)
    if (index === undefined) return false
    if (sameParts(parts, origin)) {
      if (this.#text?.index === index) this.#startText()
      const output = this.#indexes.get(index) ?? index
      this.#out.push(output === index ? withOrigin(origin, origin.data) : this.#renumbered(origin, origin.chunk as AnthropicEvent))
      return true
    }
    for (const part of parts) if (part.type !== 'text' && part.type !== 'synthesized-tool-call') return false
    for (const part of parts) {
      if (part.type === 'text') this.#writeText(part.text)
      else if (part.type === 'synthesized-tool-call') this.#writeToolUse(part.call.id, part.call.name, JSON.stringify(part.call.arguments))
    }
    return true
  }

  /**
   * The upstream event as it came (index renumbered), with the block
   * bookkeeping it implies. `untouched`: the event's parts came through the
   * pipeline unchanged.
   */
  #forward(origin: ChunkOrigin, event: AnthropicEvent | undefined, untouched: boolean): void {
    if (event === undefined || typeof event.index !== 'number') {
      this.#out.push(withOrigin(origin, origin.data))
      return
    }
    const index = event.index
    switch (event.type) {
      case 'content_block_start':
        if (event.content_block?.type === 'text') {
          const text = event.content_block.text
          if (typeof text === 'string' && text !== '') {
            if (untouched) {
              // Its text comes out as it came: the start goes out at once, carrying it.
              this.#text = { index, start: origin, event, started: true }
              this.#assign(index)
              break
            }
            // Its text, cleaned, goes out as the block's first delta: the start is held without it.
            const blank = { ...event, content_block: { ...event.content_block, text: '' } }
            this.#text = { index, start: { ...origin, data: JSON.stringify(blank) }, event: blank, started: false }
            return
          }
          this.#text = { index, start: origin, event, started: false }
          return
        }
        if (event.content_block?.type === 'thinking') this.#thinking = index
        this.#assign(index)
        break
      case 'content_block_delta':
        if (this.#text?.index === index) this.#startText()
        break
      case 'content_block_stop':
        if (this.#text?.index === index) {
          const started = this.#text.started
          this.#text = undefined
          // A text block that ended up empty is not written: neither its start nor its stop.
          if (!started) return
        }
        if (this.#thinking === index) this.#thinking = undefined
        break
      default:
        break
    }
    this.#out.push(this.#renumbered(origin, event))
  }

  #assign(index: number): number {
    const output = this.#next++
    this.#indexes.set(index, output)
    return output
  }

  #renumbered(origin: ChunkOrigin, event: AnthropicEvent): SseMessage {
    const index = event.index!
    const output = this.#indexes.get(index) ?? index
    return output === index ? withOrigin(origin, origin.data) : withOrigin(origin, JSON.stringify({ ...event, index: output }))
  }

  /** The open text block's held start goes out, at the next index. */
  #startText(): void {
    const text = this.#text!
    if (text.started) return
    text.started = true
    this.#assign(text.index)
    this.#out.push(this.#renumbered(text.start, text.event))
  }

  /** The open text and thinking blocks end here (the message ends before their upstream stops came). */
  #closeBlocks(): void {
    const text = this.#text
    if (text?.started) this.#out.push(madeUp({ type: 'content_block_stop', index: this.#indexes.get(text.index)! }))
    this.#text = undefined
    if (this.#thinking !== undefined) this.#out.push(madeUp({ type: 'content_block_stop', index: this.#indexes.get(this.#thinking) ?? this.#thinking }))
    this.#thinking = undefined
  }

  #writeText(text: string): void {
    if (text === '') return
    if (this.#text === undefined) {
      // No open block to go to: a block of its own.
      const index = this.#next++
      this.#out.push(
        madeUp({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
        madeUp({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }),
        madeUp({ type: 'content_block_stop', index }),
      )
      return
    }
    this.#startText()
    const index = this.#indexes.get(this.#text.index)!
    this.#out.push(madeUp({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }))
  }

  #writeThinking(text: string): void {
    if (text === '') return
    if (this.#thinking === undefined) {
      const index = this.#next++
      this.#out.push(
        madeUp({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        madeUp({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } }),
        madeUp({ type: 'content_block_stop', index }),
      )
      return
    }
    const index = this.#indexes.get(this.#thinking) ?? this.#thinking
    this.#out.push(madeUp({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } }))
  }

  #writeToolUse(id: string, name: string, input: string): void {
    const index = this.#next++
    this.#out.push(
      madeUp({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }),
      madeUp({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: input } }),
      madeUp({ type: 'content_block_stop', index }),
    )
  }
}
