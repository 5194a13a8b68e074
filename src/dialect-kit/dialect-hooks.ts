/**
 * What the fused machine (`dialect-repair.ts`) asks a dialect's codecs: the
 * decoder's and the encoder's hooks. Each hook is optional; without it the
 * machine takes the slower, always exact path (see each one).
 */
import type { Part } from '../parts/part.ts'
import type { ForwardedMessage } from './forwarded-message.ts'
import type { TextShape } from './text-shape.ts'
import type { RepeatedAt } from './repeated-bytes.ts'
import type { JsonAroundKnown } from '../json-known-strings.ts'
import type { SseEvent, SseMessage } from '../sse/types.ts'

/** A dialect's decoder: one SSE message → its parts, and what the machine may ask it. */
export interface DialectDecoder {
  /**
   * The parts of `message`. With `data`: the message's data as the
   * stretches around known strings (`repeatedIn` found in its bytes),
   * for reading it without parsing them; the data itself is those joined.
   */
  feed(message: SseMessage, data?: JsonAroundKnown): Part[]
  /**
   * Before decoding a read of bytes: where long texts the decoder knows the
   * messages to come may repeat whole occur in it (`findRepeated`), or
   * none. A read that is one event holding them is decoded around them and
   * fed with where they are (`feed`'s `data`). Without it: every read is
   * decoded whole.
   */
  repeatedIn?(read: Uint8Array): readonly RepeatedAt[]
  /**
   * Before decoding, read without parsing: would `message` decode to nothing
   * but one answer text part that an idle pipeline passes as it came? Then
   * the span `[start, end)` of that text's string body in the data, or
   * `null` when it has no text; otherwise undefined (decode it). Without it:
   * every message is decoded before it can be known plain.
   */
  plainSpan?(message: SseEvent): readonly [number, number] | null | undefined
  /**
   * Just after `feed(message)`: when the message was a text delta (its parts
   * one text part), the span `[start, end)` of that text's string body in
   * `message.data`; otherwise undefined. A decoder without it learns shapes
   * only from `plainSpan`.
   */
  textSpan?(message: SseMessage): readonly [number, number] | undefined
  /**
   * With `textSpan`, for formats that number their events: the span of the
   * event's number (its digits), after the text. A shape then has two
   * holes: the text, and the number.
   */
  counterSpan?(message: SseMessage): readonly [number, number] | undefined
  /**
   * A message of `shape` whose text is `text` (and, for a counted shape,
   * whose number is `counter`): the parts `feed` would make, without parsing
   * it (their origin a `ShapedOrigin`, whose chunk is parsed only when
   * asked). Only for shapes the encoder `writesShape`.
   */
  shapedParts?(message: SseEvent, text: string, shape: TextShape, counter: number | undefined): Part[]
}

/** A dialect's encoder: parts → SSE messages, and what the machine may ask it. */
export interface DialectEncoder {
  feed(part: Part): SseMessage[]
  end(): SseMessage[]
  /**
   * A message goes by as it came, not decoded (a plain one, or one of the
   * shape with another plain text): an encoder that keeps state about what
   * it wrote (numbering, texts it repeats later, the envelope of chunks it
   * makes up) notes it and says yes, or says no when it would not write the
   * message as it came (the machine then decodes it). Without it: yes.
   */
  forwarded?(message: ForwardedMessage): boolean
  /**
   * Can every message of `shape` be written from the parts `shapedParts`
   * makes, with any text (reading the message's chunk from its
   * `ShapedOrigin` only where it must)? Asked once per shape. Without it: no
   * shaped reads.
   */
  writesShape?(shape: TextShape): boolean
}
