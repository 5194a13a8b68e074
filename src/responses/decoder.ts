/**
 * `createResponsesDecoder`: OpenAI Responses API SSE messages → neutral parts.
 * Each event becomes a group of parts closed by `chunk-end`, whose origin
 * keeps the event whole for the encoder.
 *
 * - `response.output_text.delta` → `text`; `response.reasoning_text.delta`
 *   and `response.reasoning_summary_text.delta` → `reasoning`;
 * - their `.done` events → `channel-end` (the part's text is resolved before
 *   it, and the encoder writes the clean full text into it);
 * - a `function_call` item's `output_item.added` and its
 *   `function_call_arguments.delta`s → native tool-call parts (indexed by
 *   `output_index`);
 * - `response.completed` → `finish` (`completed`); `response.incomplete` →
 *   `finish` with the incomplete reason (fails closed); `response.failed` and
 *   `error` → `error`;
 * - everything else → `passthrough`, forwarded as it came (sequence numbers
 *   and the texts it repeats rewritten by the encoder).
 */
import type { ChunkOrigin, Part } from '../parts/part.ts'
import { isSseComment, type SseEvent, type SseMessage } from '../sse/types.ts'
import { COMPLETED, INCOMPLETE_PREFIX, isCallItem, isResponsesEvent, type ResponsesEvent } from './types.ts'
import { closeGroup, NOT_JSON, notJsonParts, originOf, parseData, ShapedOrigin } from '../dialect-kit/chunk-origin.ts'
import { LastShape, type TextShape } from '../dialect-kit/text-shape.ts'
import { parseBoundedJson } from '../json-text.ts'
import { afterOnlyKey, stringSpanAfter } from '../dialect-kit/plain-json-string.ts'
import { RepeatedTexts } from './repeated-texts.ts'
import { type JsonAroundKnown, parseBoundedJsonAround, parseBoundedJsonKnowing } from '../json-known-strings.ts'
import type { RepeatedAt } from '../dialect-kit/repeated-bytes.ts'

export interface ResponsesDecoder {
  /** The parts of `message` (with `data`, its data as the stretches around known texts: see `DialectDecoder.feed`). */
  feed(message: SseMessage, data?: JsonAroundKnown): Part[]
  /** Where the long texts of the `.done` events so far, which the closing events repeat, occur in a read (see `DialectDecoder.repeatedIn`). */
  repeatedIn(read: Uint8Array): readonly RepeatedAt[]
  /** Just after `feed(message)`: where the text of an `output_text.delta` sits in the message's data (see `DialectDecoder.textSpan`). */
  textSpan(message: SseMessage): readonly [number, number] | undefined
  /** …and where its `sequence_number` digits sit, after the text. */
  counterSpan(message: SseMessage): readonly [number, number] | undefined
  /** An `output_text.delta` of a known shape with another text and number: the parts `feed` would make, without parsing it (see `DialectDecoder.shapedParts`). */
  shapedParts(message: SseEvent, text: string, shape: TextShape, counter: number | undefined): Part[]
}

/**
 * Responses API SSE messages → neutral parts, as a synchronous core (what `ResponsesDecoderStream`
 * runs).
 */
export function createResponsesDecoder(): ResponsesDecoder {
  return new Decoder()
}

/** The text part an event is about: its item, and its content (or summary) index. */
function partKey(event: ResponsesEvent, kind: 'content' | 'summary'): string {
  return `${String(event.item_id)}\u0000${kind}\u0000${(kind === 'content' ? event.content_index : event.summary_index) ?? 0}`
}

/** A class, so that one per open stream pays for its fields only. */
class Decoder implements ResponsesDecoder {
  /** The text parts some delta came for: a `.done` of any other carries its whole text itself. */
  #streamed = new Set<string>()
  /** The output text delta every message of the last shape asked about is (its text empty, its number 0). */
  #shapes = new LastShape<ResponsesEvent>(outputTextDeltaOf)
  /** The whole texts `.done` events carried, as they came, for the closing events that repeat them. */
  #repeated = new RepeatedTexts()
  /** The last message fed when it was an output text delta, its text and its event. */
  #textDelta: { message: SseMessage; text: string; event: ResponsesEvent } | undefined = undefined

  textSpan(message: SseMessage): readonly [number, number] | undefined {
    const last = this.#textDelta
    if (last === undefined || last.message !== message || isSseComment(message)) return undefined
    return stringSpanAfter(message.data, '"delta":"', last.text)
  }

  counterSpan(message: SseMessage): readonly [number, number] | undefined {
    const last = this.#textDelta
    if (last?.message !== message || isSseComment(message) || typeof last.event.sequence_number !== 'number') return undefined
    const data = message.data
    const start = afterOnlyKey(data, '"sequence_number":')
    if (start === -1) return undefined
    let end = start
    while (end < data.length && data.charCodeAt(end) >= 0x30 && data.charCodeAt(end) <= 0x39) end++
    // The digits are the event's own number, written plainly (no exponent, no leading zero).
    return end > start && data.substring(start, end) === String(last.event.sequence_number) ? [start, end] : undefined
  }

  shapedParts(message: SseEvent, text: string, shape: TextShape, counter: number | undefined): Part[] {
    const event = this.#shapes.of(shape)
    // A shape that is no text delta (the encoder would not have accepted it): read as any message.
    if (event === undefined) return this.feed(message)
    this.#textDelta = undefined
    this.#streamed.add(partKey(event, 'content'))
    const origin = new ShapedOrigin(message, shape, counter)
    return closeGroup(origin, [{ type: 'text', text, origin }])
  }

  repeatedIn(read: Uint8Array): readonly RepeatedAt[] {
    return this.#repeated.foundIn(read)
  }

  feed(message: SseMessage, data?: JsonAroundKnown): Part[] {
    this.#textDelta = undefined
    if (isSseComment(message)) return [{ type: 'comment', comment: message.comment }]
    const event = data !== undefined ? parseData(message, () => parseBoundedJsonAround(data)) : this.#parsed(message)
    if (event === NOT_JSON) return notJsonParts(message)
    const origin = originOf(message, event)
    if (!isResponsesEvent(event)) return closeGroup(origin, [{ type: 'passthrough', origin }])
    if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') this.#textDelta = { message, text: event.delta, event }
    return closeGroup(origin, this.#parts(event, origin, message))
  }

  /** What `message`'s data parses to, the texts it may repeat read without parsing them. */
  #parsed(message: SseEvent): unknown {
    const known = this.#repeated.knownFor(message)
    return known.length === 0 ? parseData(message) : parseData(message, (data) => parseBoundedJsonKnowing(data, known))
  }

  #parts(event: ResponsesEvent, origin: ChunkOrigin, message: SseEvent): Part[] {
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.reasoning_text.delta':
        this.#streamed.add(partKey(event, 'content'))
        break
      case 'response.reasoning_summary_text.delta':
        this.#streamed.add(partKey(event, 'summary'))
        break
      case 'response.output_text.done':
      case 'response.reasoning_text.done':
      case 'response.reasoning_summary_text.done': {
        const kind = event.type === 'response.reasoning_summary_text.done' ? 'summary' : 'content'
        const channel = event.type === 'response.output_text.done' ? 'text' : 'reasoning'
        this.#repeated.learn(partKey(event, kind), message, event.text)
        // A part whose text came whole in its `.done`, with no delta before it: that text, cleaned like a delta's.
        if (!this.#streamed.has(partKey(event, kind)) && typeof event.text === 'string' && event.text !== '') {
          return [{ type: channel, text: event.text, origin }, { type: 'channel-end', channel, origin }]
        }
        break
      }
      default:
        break
    }
    return partsOf(event, origin)
  }
}

/**
 * The event every message of `shape` is, its text empty and its number 0,
 * when the shape is an `output_text.delta`'s; else undefined. The encoder
 * reads shapes with it too (`writesShape`).
 */
export function outputTextDeltaOf(shape: TextShape): ResponsesEvent | undefined {
  if (shape.event !== undefined && shape.event !== 'response.output_text.delta') return undefined
  const parsed = parseBoundedJson(shape.counted ? `${shape.before}${shape.middle}0${shape.after}` : `${shape.before}${shape.middle}`)
  const event = parsed?.value
  if (!isResponsesEvent(event) || event.type !== 'response.output_text.delta' || event.delta !== '') return undefined
  if (typeof event.item_id !== 'string' || typeof event.output_index !== 'number') return undefined
  return event
}

function partsOf(event: ResponsesEvent, origin: ChunkOrigin): Part[] {
  const index = typeof event.output_index === 'number' ? event.output_index : 0
  switch (event.type) {
    case 'response.output_text.delta':
      return typeof event.delta === 'string' ? [{ type: 'text', text: event.delta, origin }] : [{ type: 'passthrough', origin }]
    case 'response.reasoning_text.delta':
    case 'response.reasoning_summary_text.delta':
      return typeof event.delta === 'string' ? [{ type: 'reasoning', text: event.delta, origin }] : [{ type: 'passthrough', origin }]
    case 'response.output_text.done':
      return [{ type: 'channel-end', channel: 'text', origin }]
    case 'response.reasoning_text.done':
    case 'response.reasoning_summary_text.done':
      return [{ type: 'channel-end', channel: 'reasoning', origin }]
    case 'response.output_item.added': {
      const item = event.item
      if (item === undefined || item === null || !isCallItem(item.type)) return [{ type: 'passthrough', origin }]
      const part: Part = { type: 'native-tool-call', index, origin }
      if (typeof item.call_id === 'string') part.id = item.call_id
      if (typeof item.name === 'string') part.name = item.name
      if (typeof item.arguments === 'string' && item.arguments !== '') part.arguments = item.arguments
      else if (typeof item.input === 'string' && item.input !== '') part.arguments = item.input
      return [part]
    }
    case 'response.function_call_arguments.delta':
      return typeof event.delta === 'string' ? [{ type: 'native-tool-call', index, arguments: event.delta, origin }] : [{ type: 'passthrough', origin }]
    case 'response.completed':
      return [{ type: 'finish', reason: COMPLETED, origin }]
    case 'response.incomplete': {
      const details = event.response?.incomplete_details as { reason?: unknown } | undefined
      return [{ type: 'finish', reason: `${INCOMPLETE_PREFIX}${typeof details?.reason === 'string' ? details.reason : 'unknown'}`, origin }]
    }
    case 'response.failed':
      return [{ type: 'error', error: event.response?.error ?? event, origin }]
    case 'error':
      return [{ type: 'error', error: event, origin }]
    default:
      return [{ type: 'passthrough', origin }]
  }
}
