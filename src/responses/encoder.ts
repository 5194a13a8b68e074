/**
 * `createResponsesEncoder`: neutral parts → OpenAI Responses API SSE messages.
 * Parts are gathered up to each `chunk-end`; an event whose parts are what
 * the decoder made for it is forwarded as it came, when nothing it carries
 * has to change. Otherwise:
 *
 * - clean text goes out as `response.output_text.delta` events of its content
 *   part (clean reasoning as the reasoning delta of its part);
 * - every event that repeats a text — `output_text.done`, `content_part.done`,
 *   `output_item.done`, the reasoning `.done` events, and the `output` of
 *   `response.completed` — carries the clean text instead;
 * - a recovered call becomes a `function_call` output item of its own
 *   (`output_item.added`, one `function_call_arguments.delta` with the whole
 *   arguments, `.done`, `output_item.done`; an `fc_` item id, the call's
 *   `call_` id) at the next output index, before `response.completed`, whose
 *   `output` lists it too;
 * - `sequence_number` stays monotonic: every event written takes the next. A
 *   delta whose text is all held or removed is written with an empty delta
 *   rather than dropped, so the events after it keep the upstream's numbers
 *   (and are forwarded as they came).
 */
import type { ChunkOrigin, Part } from '../parts/part.ts'
import type { SseMessage } from '../sse/types.ts'
import { jsonDataEvent } from '../sse/sse-encoder.ts'
import { INCOMPLETE_PREFIX, isResponsesEvent, type ResponsesEvent, type ResponsesItem, type ResponsesObject } from './types.ts'
import { sameParts, ShapedOrigin, withOrigin } from '../dialect-kit/chunk-origin.ts'
import type { ForwardedMessage } from '../dialect-kit/forwarded-message.ts'
import { LastShape, type TextShape } from '../dialect-kit/text-shape.ts'
import { outputTextDeltaOf } from './decoder.ts'
import { isRecord } from '../records.ts'
import { FunctionCallItems } from './function-call-items.ts'
import { TextBuilder } from '../text-builder.ts'
import { CleanJson } from './clean-json.ts'

export interface ResponsesEncoder {
  feed(part: Part): SseMessage[]
  /** Writes any parts left without a `chunk-end`. */
  end(): SseMessage[]
  /**
   * An output text delta of the open part goes by as it came (a fused
   * shortcut, `DialectEncoder.forwarded`): its text noted, when its number
   * is the next one; otherwise false, and it must come through `feed`.
   */
  forwarded(message: ForwardedMessage): boolean
  /** Can every message of `shape` be written from its text part? When it is an `output_text.delta`'s (see `DialectEncoder.writesShape`). */
  writesShape(shape: TextShape): boolean
}

/**
 * Neutral parts → Responses API SSE messages, as a synchronous core (what `ResponsesEncoderStream`
 * runs).
 */
export function createResponsesEncoder(): ResponsesEncoder {
  return new Encoder()
}

/** Where a text goes: an item's content part (or reasoning summary part). */
interface Place {
  itemId: string
  outputIndex: number
  /** `content_index`, or `summary_index` for a reasoning summary. */
  index: number
  /** The delta event type text of this place is written with. */
  deltaType: string
  /** Which index `index` is: `content`, or `summary` for a reasoning summary. */
  kind: string
  /** Its key in the texts written (`keyOf`), made once. */
  key: string
}

/** A recovered call's part, whole or streamed. */
function isSynthesizedCall(part: Part): boolean {
  return part.type === 'synthesized-tool-call' || part.type === 'synthesized-tool-call-start' || part.type === 'synthesized-tool-call-delta' || part.type === 'synthesized-tool-call-end'
}

/** A text or reasoning delta event. */
function isDelta(event: ResponsesEvent): boolean {
  return event.type === 'response.output_text.delta' || event.type === 'response.reasoning_text.delta' || event.type === 'response.reasoning_summary_text.delta'
}

const keyOf = (itemId: string, kind: string, index: number): string => `${itemId}\u0000${kind}\u0000${index}`

/** The key of an event's text: its place's, when the place is that text's (`#notePlace` made it), or made. */
function keyIn(place: Place | undefined, itemId: unknown, kind: string, index: number): string {
  return place !== undefined && place.itemId === itemId && place.index === index && place.kind === kind ? place.key : keyOf(String(itemId), kind, index)
}

/** The place named, or `current` when it is that place already (its key made once). */
function placeOf(itemId: string, outputIndex: number, index: number, deltaType: string, current: Place | undefined): Place {
  if (current !== undefined && current.itemId === itemId && current.outputIndex === outputIndex && current.index === index && current.deltaType === deltaType) return current
  const kind = deltaType === 'response.reasoning_summary_text.delta' ? 'summary' : 'content'
  return { itemId, outputIndex, index, deltaType, kind, key: keyOf(itemId, kind, index) }
}

/** A class, so that one per open stream pays for its fields only. */
class Encoder implements ResponsesEncoder {
  #group: Part[] = []
  #out: SseMessage[] = []
  /** The next sequence number to write. */
  #sequence = 0
  /** Clean text written so far, by item, kind (`content`, `summary`) and index; the long ones' JSON strings, for the events that repeat them. */
  #texts = new Map<string, TextBuilder>()
  #json = new CleanJson()
  #text: Place | undefined = undefined
  #reasoning: Place | undefined = undefined
  #nextOutputIndex = 0
  /** The function-call items of recovered calls (their `made` ones go in `response.completed`). */
  #calls = new FunctionCallItems(
    (event) => this.#write(undefined, event, { sequence_number: this.#sequence }),
    () => this.#nextOutputIndex++,
  )
  /** The response as the last event that carried it described it (`response.created`, `.in_progress`): a made-up ending's. */
  #response: ResponsesObject | undefined = undefined
  /** The output text delta the last shape asked about is (`writesShape`), when it is one. */
  #shapes = new LastShape<ResponsesEvent>(outputTextDeltaOf)

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

  forwarded(message: ForwardedMessage): boolean {
    const place = this.#text
    if (place === undefined || message.counter !== this.#sequence) return false
    const text = message.text()
    if (text === undefined) return false
    this.#sequence++
    this.#append(place.key, text)
    return true
  }

  writesShape(shape: TextShape): boolean {
    return this.#shapes.of(shape) !== undefined
  }

  end(): SseMessage[] {
    if (this.#group.length > 0) this.#writeGroup(undefined)
    const out = this.#out
    this.#out = []
    return out
  }

  #writeGroup(origin: ChunkOrigin | undefined): void {
    const parts = this.#group
    this.#group = []
    if (origin instanceof ShapedOrigin && this.#writeShaped(origin, parts)) return
    const event = origin !== undefined && isResponsesEvent(origin.chunk) ? origin.chunk : undefined
    if (event !== undefined) this.#notePlace(event)
    if (origin !== undefined && sameParts(parts, origin)) {
      // A `.done` that carried its part's whole text (no delta came), untouched: that text is the clean text.
      if (event !== undefined && event.type.endsWith('text.done') && (parts[0]?.type === 'text' || parts[0]?.type === 'reasoning')) {
        const kind = event.type === 'response.reasoning_summary_text.done' ? 'summary' : 'content'
        this.#append(keyOf(String(event.item_id), kind, (kind === 'content' ? event.content_index : event.summary_index) ?? 0), parts[0].text)
      }
      this.#forward(origin, event)
      return
    }
    this.#writeParts(origin, event, parts)
  }

  /**
   * The parts of an event that did not come through as they came, each
   * written in its place: text as deltas of its part, recovered calls as
   * items, the event itself once for a part of its own.
   */
  #writeParts(origin: ChunkOrigin | undefined, event: ResponsesEvent | undefined, parts: readonly Part[]): void {
    let written = false
    const before = this.#out.length
    for (const part of parts) {
      if (part.type === 'finish' && part.origin === undefined) this.#writeIncomplete(part.reason)
      else if (part.type === 'text') this.#writeDelta(this.#text, part.text)
      else if (part.type === 'reasoning') this.#writeDelta(this.#reasoning, part.text)
      else if (part.type === 'synthesized-tool-call') this.#calls.whole(part.call.id, part.call.name, JSON.stringify(part.call.arguments))
      else if (part.type === 'synthesized-tool-call-start') this.#calls.start(part.index, part.id, part.name)
      else if (part.type === 'synthesized-tool-call-delta') this.#calls.arguments(part.index, part.delta)
      else if (part.type === 'synthesized-tool-call-end') this.#calls.end(part.index)
      else if (origin !== undefined && 'origin' in part && part.origin === origin && !written) {
        written = true
        this.#forward(origin, event)
      }
    }
    // A delta whose text is all held or removed stays, empty: the events after it keep their sequence numbers.
    if (this.#out.length === before && origin !== undefined && event !== undefined && isDelta(event)) this.#write(origin, event, { delta: '' })
  }

  /**
   * An output text delta read without parsing (`ShapedOrigin`): its part
   * untouched and its number the next one, forwarded as it came, with what
   * `#notePlace` and `#forward` note of a parsed one; its text changed, and
   * its parts text and recovered calls alone, written from them as a parsed
   * one's would be (the shape's event stands for its own: the same fields,
   * its text and number aside). False otherwise: its event is then parsed,
   * and it takes the common path.
   */
  #writeShaped(origin: ShapedOrigin, parts: readonly Part[]): boolean {
    const event = this.#shapes.of(origin.shape)
    if (event === undefined) return false
    if (!sameParts(parts, origin)) {
      for (const part of parts) if (part.type !== 'text' && !isSynthesizedCall(part)) return false
      this.#notePlace(event)
      this.#writeParts(origin, event, parts)
      return true
    }
    if (parts[0]?.type !== 'text') return false
    const numbered = origin.shape.counted ? origin.counter === this.#sequence : event.sequence_number === undefined
    if (!numbered) return false
    this.#notePlace(event)
    this.#append(this.#text!.key, parts[0].text)
    this.#sequence++
    this.#out.push(withOrigin(origin, origin.data))
    return true
  }

  /** Where the text of an event's part goes, from the events that name it. */
  #notePlace(event: ResponsesEvent): void {
    if (typeof event.output_index === 'number' && event.output_index >= this.#nextOutputIndex) this.#nextOutputIndex = event.output_index + 1
    const itemId = event.item_id
    if (typeof itemId !== 'string' || typeof event.output_index !== 'number') return
    switch (event.type) {
      case 'response.content_part.added':
      case 'response.output_text.delta':
      // A `.done` names its part too: text that came whole in it has its place even when no event opened the part.
      case 'response.output_text.done':
        if (event.type === 'response.content_part.added' && event.part?.type !== 'output_text') return
        this.#text = placeOf(itemId, event.output_index, event.content_index ?? 0, 'response.output_text.delta', this.#text)
        return
      case 'response.reasoning_text.delta':
      case 'response.reasoning_text.done':
        this.#reasoning = placeOf(itemId, event.output_index, event.content_index ?? 0, 'response.reasoning_text.delta', this.#reasoning)
        return
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_summary_text.done':
        this.#reasoning = placeOf(itemId, event.output_index, event.summary_index ?? 0, 'response.reasoning_summary_text.delta', this.#reasoning)
        return
      default:
        return
    }
  }

  /** `texts`: clean texts the event may carry whole, their JSON strings spliced in if it is written (`CleanJson`). */
  #write(origin: ChunkOrigin | undefined, event: ResponsesEvent, changes: Partial<ResponsesEvent> | undefined, texts?: Iterable<TextBuilder>): void {
    const sequence = this.#sequence++
    if (origin !== undefined && changes === undefined && (event.sequence_number === sequence || event.sequence_number === undefined)) {
      this.#out.push(withOrigin(origin, origin.data))
      return
    }
    const written = { ...event, ...changes, ...(event.sequence_number === undefined && origin !== undefined ? {} : { sequence_number: sequence }) }
    this.#out.push(jsonDataEvent(written, origin ?? { event: event.type }, texts === undefined ? [] : this.#json.of(texts)))
  }

  /** An upstream event, its sequence number and the texts it repeats made current. */
  #forward(origin: ChunkOrigin, event: ResponsesEvent | undefined): void {
    if (event === undefined) {
      this.#out.push(withOrigin(origin, origin.data))
      return
    }
    const itemId = event.item_id
    switch (event.type) {
      case 'response.output_text.delta':
        this.#append(keyIn(this.#text, itemId, 'content', event.content_index ?? 0), String(event.delta ?? ''))
        return this.#write(origin, event, undefined)
      case 'response.reasoning_text.delta':
        this.#append(keyIn(this.#reasoning, itemId, 'content', event.content_index ?? 0), String(event.delta ?? ''))
        return this.#write(origin, event, undefined)
      case 'response.reasoning_summary_text.delta':
        this.#append(keyIn(this.#reasoning, itemId, 'summary', event.summary_index ?? 0), String(event.delta ?? ''))
        return this.#write(origin, event, undefined)
      case 'response.output_text.done':
      case 'response.reasoning_text.done': {
        // The part's clean text is now known, even when nothing of it was left: the events after it repeat it.
        const clean = this.#cleanText(keyOf(String(itemId), 'content', event.content_index ?? 0))
        if (event.type === 'response.output_text.done') this.#text = undefined
        else this.#reasoning = undefined
        return this.#write(origin, event, clean.equals(event.text) ? undefined : { text: clean.toString() }, [clean])
      }
      case 'response.reasoning_summary_text.done': {
        const clean = this.#cleanText(keyOf(String(itemId), 'summary', event.summary_index ?? 0))
        this.#reasoning = undefined
        return this.#write(origin, event, clean.equals(event.text) ? undefined : { text: clean.toString() }, [clean])
      }
      case 'response.content_part.done':
      case 'response.reasoning_summary_part.done': {
        const kind = event.type === 'response.content_part.done' ? 'content' : 'summary'
        const clean = this.#texts.get(keyOf(String(itemId), kind, (kind === 'content' ? event.content_index : event.summary_index) ?? 0))
        const part = event.part
        if (!isRecord(part) || clean === undefined || typeof part.text !== 'string' || clean.equals(part.text)) return this.#write(origin, event, undefined)
        return this.#write(origin, event, { part: { ...part, text: clean.toString() } }, [clean])
      }
      case 'response.output_item.done': {
        const item = event.item === undefined || event.item === null ? event.item : this.#cleanItem(event.item)
        return this.#write(origin, event, item === event.item ? undefined : { item }, this.#texts.values())
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': {
        const response = event.response === undefined || event.response === null ? event.response : this.#cleanResponse(event.response)
        return this.#write(origin, event, response === event.response ? undefined : { response }, this.#texts.values())
      }
      default:
        if (isRecord(event.response)) this.#response = event.response
        return this.#write(origin, event, undefined)
    }
  }

  /**
   * A finish the stages made (a runaway ended the message, `reason` the
   * `incomplete: …` spelling): the open text part and its message item end
   * with the clean text written, then `response.incomplete`.
   */
  #writeIncomplete(reason: string): void {
    const output: ResponsesItem[] = []
    const place = this.#text
    if (place !== undefined) {
      const clean = [this.#cleanText(place.key)]
      const part = { type: 'output_text', text: clean[0]!.toString(), annotations: [] }
      const item: ResponsesItem = { id: place.itemId, type: 'message', status: 'incomplete', role: 'assistant', content: [part] }
      const at = { item_id: place.itemId, output_index: place.outputIndex, content_index: place.index }
      this.#write(undefined, { type: 'response.output_text.done', ...at, text: part.text, logprobs: [] }, { sequence_number: this.#sequence }, clean)
      this.#write(undefined, { type: 'response.content_part.done', ...at, part }, { sequence_number: this.#sequence }, clean)
      this.#write(undefined, { type: 'response.output_item.done', output_index: place.outputIndex, item }, { sequence_number: this.#sequence }, clean)
      this.#text = undefined
      output.push(item)
    }
    const details = { reason: reason.startsWith(INCOMPLETE_PREFIX) ? reason.slice(INCOMPLETE_PREFIX.length) : reason }
    const response: ResponsesObject = { ...this.#response, status: 'incomplete', incomplete_details: details, output: [...output, ...this.#calls.made] }
    this.#write(undefined, { type: 'response.incomplete', response }, { sequence_number: this.#sequence }, this.#texts.values())
  }

  #append(key: string, text: string): void {
    this.#cleanText(key).append(text)
  }

  /** The clean text written for a part, known from now on even when nothing of it was left (the events after its `.done` repeat it). */
  #cleanText(key: string): TextBuilder {
    let builder = this.#texts.get(key)
    if (builder === undefined) this.#texts.set(key, (builder = new TextBuilder()))
    return builder
  }

  /** The item with the clean texts written for it (the same object when nothing changed, or when it is not an item). */
  #cleanItem(item: ResponsesItem): ResponsesItem {
    if (!isRecord(item) || typeof item.id !== 'string') return item
    const id = item.id
    let changed = false
    const mapTexts = (entries: unknown, kind: string): ResponsesItem['content'] => {
      if (!Array.isArray(entries)) return undefined
      return entries.map((entry, index) => {
        const clean = this.#texts.get(keyOf(id, kind, index))
        if (clean === undefined || !isRecord(entry) || typeof entry.text !== 'string' || clean.equals(entry.text)) return entry
        changed = true
        return { ...entry, text: clean.toString() }
      })
    }
    const content = mapTexts(item.content, 'content')
    const summary = mapTexts(item.summary, 'summary')
    if (!changed) return item
    const cleaned: ResponsesItem = { ...item }
    if (content !== undefined) cleaned.content = content
    if (summary !== undefined) cleaned.summary = summary
    return cleaned
  }

  #cleanResponse(response: ResponsesObject): ResponsesObject {
    if (!isRecord(response)) return response
    const output = Array.isArray(response.output) ? response.output : []
    let changed = this.#calls.made.length > 0
    const items = output.map((item) => {
      const cleaned = this.#cleanItem(item)
      if (cleaned !== item) changed = true
      return cleaned
    })
    return changed ? { ...response, output: [...items, ...this.#calls.made] } : response
  }

  #writeDelta(place: Place | undefined, text: string): void {
    // Text with no part to go to (a stream cut before any) has no place in this format.
    if (text === '' || place === undefined) return
    this.#append(place.key, text)
    const event: ResponsesEvent = { type: place.deltaType, item_id: place.itemId, output_index: place.outputIndex }
    if (place.deltaType === 'response.reasoning_summary_text.delta') event.summary_index = place.index
    else event.content_index = place.index
    event.delta = text
    if (place.deltaType === 'response.output_text.delta') event.logprobs = []
    this.#write(undefined, event, { sequence_number: this.#sequence })
  }
}
