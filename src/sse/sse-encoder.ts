/**
 * `encodeSseMessage`: one message as `event:` / `id:` / `retry:` / `data:`
 * lines and a blank line. Data is split on every CR, LF and CRLF into one
 * `data:` line each; `event` and `id` must be single lines (a `TypeError`
 * otherwise: values are rejected, not silently rewritten).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#interpreting-an-event-stream
 */
import { isSseComment, type SseMessage } from './types.ts'

function assertSingleLine(field: 'event' | 'id', value: string): void {
  if (value.includes('\n') || value.includes('\r')) {
    throw new TypeError(`Cannot encode SSE field "${field}": value contains a line break`)
  }
  if (field === 'id' && value.includes('\0')) throw new TypeError('Cannot encode SSE field "id": value contains NUL')
}

function hasLineBreak(text: string): boolean {
  return text.includes('\n') || text.includes('\r')
}

function prefixLines(prefix: string, text: string): string {
  if (!hasLineBreak(text)) return `${prefix}${text}\n`
  let out = ''
  let start = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 0x0a || code === 0x0d) {
      out += `${prefix}${text.slice(start, index)}\n`
      if (code === 0x0d && text.charCodeAt(index + 1) === 0x0a) index++
      start = index + 1
    }
  }
  return `${out}${prefix}${text.slice(start)}\n`
}

export function encodeSseMessage(message: SseMessage): string {
  if (isSseComment(message)) return `${prefixLines(': ', message.comment)}\n`
  let out = ''
  if (message.event !== undefined) {
    assertSingleLine('event', message.event)
    out += `event: ${message.event}\n`
  }
  if (message.id !== undefined) {
    assertSingleLine('id', message.id)
    out += `id: ${message.id}\n`
  }
  if (message.retry !== undefined) {
    if (!Number.isSafeInteger(message.retry) || message.retry < 0) {
      throw new TypeError(`Cannot encode SSE field "retry": expected a non-negative integer, got ${String(message.retry)}`)
    }
    out += `retry: ${message.retry}\n`
  }
  return `${out}${prefixLines('data: ', message.data)}\n`
}
