/** SSE messages as the decoder produces them and the encoder writes them. */

/** One dispatched event (WHATWG HTML §9.2.6). `event` and `id` are absent when the block had none. */
export interface SseEvent {
  data: string
  event?: string
  id?: string
  /** A `retry:` field seen in the same block (forwarded by the encoder). */
  retry?: number
}

/** The fields of an event besides its data (a message read, or a chunk's origin, has them). */
export type SseEventFields = Pick<SseEvent, 'event' | 'id' | 'retry'>

/** An event of `data` with the event name, id and retry `fields` has (each only when it has it). */
export function sseEventWith(data: string, fields: SseEventFields): SseEvent {
  const message: SseEvent = { data }
  if (fields.event !== undefined) message.event = fields.event
  if (fields.id !== undefined) message.id = fields.id
  if (fields.retry !== undefined) message.retry = fields.retry
  return message
}

/** A comment line (`: keep-alive`): the text after the colon, one leading space removed. */
export interface SseComment {
  comment: string
}

export type SseMessage = SseEvent | SseComment

/** Is this SSE message a comment (`: text`), not an event? */
export function isSseComment(message: SseMessage): message is SseComment {
  return (message as SseComment).comment !== undefined
}

/** Is `written` the message `read`, field for field (a fused repair asks whether it wrote a message back as it came)? */
export function sameSseMessage(written: SseMessage, read: SseMessage): boolean {
  if (isSseComment(written) || isSseComment(read)) return isSseComment(written) && isSseComment(read) && written.comment === read.comment
  return written.data === read.data && written.event === read.event && written.id === read.id && written.retry === read.retry
}

/** Does a response with these headers carry a stream of server-sent events (`content-type: text/event-stream`)? */
export function isEventStream(headers: Headers): boolean {
  return (headers.get('content-type') ?? '').includes('text/event-stream')
}
