/**
 * How a dialect's codecs tie parts to the SSE message they came from, the
 * same for every dialect: the decoder keeps the message whole as the origin
 * of its group of parts (`originOf`, `closeGroup`); the encoder forwards the
 * message as it came when the group is exactly what the decoder made
 * (`sameParts`), and writes new data with the message's own fields
 * (`withOrigin`); and a message whose data is not JSON, the same in every
 * dialect (`parseData`, `notJsonParts`).
 */
import type { ChunkOrigin, Part } from '../parts/part.ts'
import { type SseEvent, sseEventWith, type SseMessage } from '../sse/types.ts'
import type { TextShape } from './text-shape.ts'
import { MAX_JSON_DEPTH, parseBoundedJson } from '../json-text.ts'

/** The origin of the parts made from `message`, whose data parsed to `chunk`. */
export function originOf(message: SseEvent, chunk: unknown): ChunkOrigin {
  const origin: ChunkOrigin = { event: message.event, id: message.id, data: message.data, chunk, parts: [] }
  if (message.retry !== undefined) origin.retry = message.retry
  return origin
}

/** Records `parts` as the decoder's for `origin`, and closes the group with its `chunk-end`. */
export function closeGroup(origin: ChunkOrigin, parts: Part[]): Part[] {
  origin.parts = parts.slice()
  parts.push({ type: 'chunk-end', origin })
  return parts
}

/** Is the group exactly the parts the decoder made for `origin`, untouched, in order? */
export function sameParts(group: readonly Part[], origin: ChunkOrigin): boolean {
  const original = origin.parts
  if (group.length !== original.length) return false
  for (let index = 0; index < group.length; index++) if (group[index] !== original[index]) return false
  return true
}

/** A message with `data` and the origin's own event, id and retry. */
export function withOrigin(origin: ChunkOrigin, data: string): SseMessage {
  return sseEventWith(data, origin)
}

/** What a message's data parses to, or NOT_JSON (a dialect decoder then forwards it, see `notJsonParts`). */
export const NOT_JSON: unique symbol = Symbol('not JSON')

/** `parse`: `parseBoundedJson`, or a dialect's reading of the same answer (the Responses decoder's `parseBoundedJsonKnowing`). */
export function parseData(message: SseEvent, parse: (data: string) => { value: unknown } | undefined = parseBoundedJson): unknown {
  const parsed = parse(message.data)
  return parsed === undefined ? NOT_JSON : parsed.value
}

/** The parts of a message whose data is not JSON: forwarded as it came, with a `malformed-chunk` diagnostic. */
export function notJsonParts(message: SseEvent): Part[] {
  const origin = originOf(message, undefined)
  const parts = closeGroup(origin, [{ type: 'passthrough', origin }])
  parts.push({ type: 'diagnostic', diagnostic: { kind: 'malformed-chunk', text: '', message: `An SSE message was not JSON (or nested deeper than ${MAX_JSON_DEPTH}); forwarded unchanged` } })
  return parts
}

/**
 * The origin of a message of a known shape with another text, read without
 * parsing (`DialectDecoder.shapedParts`): `chunk` is parsed from `data` only
 * when something asks for it, and `shape` tells the encoder which shape it is.
 */
export class ShapedOrigin implements ChunkOrigin {
  event: string | undefined
  id: string | undefined
  retry?: number
  data: string
  parts: Part[] = []
  readonly shape: TextShape
  /** Its number, for a counted shape (the second hole); undefined for an uncounted one. */
  readonly counter: number | undefined
  #chunk: unknown
  #parsed = false

  constructor(message: SseEvent, shape: TextShape, counter?: number) {
    this.event = message.event
    this.id = message.id
    if (message.retry !== undefined) this.retry = message.retry
    this.data = message.data
    this.shape = shape
    this.counter = counter
  }

  get chunk(): unknown {
    if (!this.#parsed) {
      this.#chunk = JSON.parse(this.data)
      this.#parsed = true
    }
    return this.#chunk
  }

  set chunk(value: unknown) {
    this.#chunk = value
    this.#parsed = true
  }
}
