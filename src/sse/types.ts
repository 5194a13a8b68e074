/** SSE messages as the decoder produces them and the encoder writes them. */

/** One dispatched event (WHATWG HTML §9.2.6). `event` and `id` are absent when the block had none. */
export interface SseEvent {
  data: string
  event?: string
  id?: string
  /** A `retry:` field seen in the same block (forwarded by the encoder). */
  retry?: number
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
