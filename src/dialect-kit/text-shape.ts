/**
 * The shape of the last text message that went by as it came (`TextShape`),
 * how the machine makes one (`makeShape`) and keeps it (`Shape`), and what an
 * encoder knows of it, worked out once (`LastShape`). See `dialect-repair.ts`.
 */
import { encodesBackAsRead } from '../sse/utf8-round-trip.ts'
import { singleLineFrame } from '../sse/sse-encoder.ts'

/**
 * The last text message that went by as it came, cut around its text's
 * string body (and its number): its data is `before`, the body, `middle`,
 * then (when `counted`) the number's digits and `after`.
 */
export interface TextShape {
  readonly event: string | undefined
  readonly before: string
  readonly middle: string
  readonly after: string
  readonly counted: boolean
}

/** The shape, with what the machine keeps about it. */
export interface Shape extends TextShape {
  /** How a whole read of the shape starts: its frame up to the data (`singleLineFrame`), then `before`. */
  readonly readPrefix: string
  /** How it ends: the frame after the data. */
  readonly readSuffix: string
  /** Whether messages of the shape with a text that is not plain are read without parsing (asked once). */
  shaped: boolean | undefined
}

/**
 * What an encoder knows of a shape (`writesShape` and its shaped writes ask
 * for it), worked out once for the last shape asked about: the machine keeps
 * one shape at a time.
 */
export class LastShape<Facts> {
  #shape: TextShape | undefined = undefined
  #facts: Facts | undefined = undefined
  #read: (shape: TextShape) => Facts | undefined

  constructor(read: (shape: TextShape) => Facts | undefined) {
    this.#read = read
  }

  /** The facts of `shape` (undefined: the encoder does not write its messages from their parts). */
  of(shape: TextShape): Facts | undefined {
    if (this.#shape !== shape) {
      this.#shape = shape
      this.#facts = this.#read(shape)
    }
    return this.#facts
  }
}

/**
 * The shape of a message of `event` whose data is `data`, with its text's
 * string body at `span` (and its number at `counter`); undefined when the
 * data cannot be a shape: more than one line (a fixed part of a later read
 * must hold no line break), or a U+FFFD in it or in the event name (bytes
 * that were not UTF-8 must not be forwarded as they came).
 */
export function makeShape(event: string | undefined, data: string, span: readonly [number, number], counter: readonly [number, number] | undefined): Shape | undefined {
  if (data.indexOf('\n') !== -1 || data.indexOf('\r') !== -1 || !encodesBackAsRead(data)) return undefined
  if (event !== undefined && !encodesBackAsRead(event)) return undefined
  if (counter !== undefined && counter[0] < span[1]) return undefined
  const frame = singleLineFrame(event)
  const before = data.slice(0, span[0])
  const readPrefix = frame.before + before
  if (counter === undefined) return { event, before, middle: data.slice(span[1]), after: '', counted: false, readPrefix, readSuffix: frame.after, shaped: undefined }
  return { event, before, middle: data.slice(span[1], counter[0]), after: data.slice(counter[1]), counted: true, readPrefix, readSuffix: frame.after, shaped: undefined }
}
