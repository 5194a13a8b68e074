/**
 * A message that goes by as it came, without being decoded, as the encoder
 * is told of it (`DialectEncoder.forwarded`). See `dialect-repair.ts`.
 */
import { stringBodyValue } from './plain-json-string.ts'

/**
 * A message that goes by as it came without being decoded: its data is
 * `source` from `start` to `end` (a read holding one event, or the data
 * itself); `counter`, its number when the shape has one. One object per
 * machine, filled for each such message and read only during `forwarded`.
 */
export interface ForwardedMessage {
  readonly source: string
  readonly start: number
  readonly end: number
  readonly counter: number | undefined
  /** Its text (the string body's value), or undefined when the body is no JSON string body; read on demand. */
  text(): string | undefined
}

/** The message going by (`ForwardedMessage`): one per machine, filled for each. */
export class Forwarding implements ForwardedMessage {
  source = ''
  start = 0
  end = 0
  counter: number | undefined = undefined
  /** The text's string body, and what `readBody` found in it. */
  #bodyStart = 0
  #bodyEnd = 0
  #plain = true
  /** The text, when the machine read it already. */
  #text: string | undefined = undefined

  /** `plain`: the body has no escape. `text`: its value, when already read (else read on demand). */
  set(source: string, start: number, end: number, counter: number | undefined, bodyStart: number, bodyEnd: number, plain: boolean, text?: string): void {
    this.source = source
    this.start = start
    this.end = end
    this.counter = counter
    this.#bodyStart = bodyStart
    this.#bodyEnd = bodyEnd
    this.#plain = plain
    this.#text = text
  }

  text(): string | undefined {
    if (this.#text !== undefined) return this.#text
    // A body without escapes is its own value.
    return this.#plain ? this.source.substring(this.#bodyStart, this.#bodyEnd) : stringBodyValue(this.source, this.#bodyStart, this.#bodyEnd)
  }
}
