/**
 * `encodeSseMessage`: one message as `event:` / `id:` / `retry:` / `data:`
 * lines and a blank line. Data is split on every CR, LF and CRLF into one
 * `data:` line each; `event` and `id` must be single lines (a `TypeError`
 * otherwise: values are rejected, not silently rewritten). The one owner of
 * how a message is written: `singleLineFrame` says what surrounds the data
 * of a one-line message, for the fused repairs that compare a read with it.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#interpreting-an-event-stream
 */
import { type KnownJsonString, stringifyKnowing } from '../json-known-strings.ts'
import { isSseComment, type SseEvent, type SseEventFields, sseEventWith, type SseMessage } from './types.ts'

/** The field names as written, each with the space after its colon; a comment's line starts with `COMMENT`. */
const DATA = 'data: '
const EVENT = 'event: '
const COMMENT = ': '
/** Ends a field's line; one more ends the message. */
const LINE_END = '\n'

function assertSingleLine(field: 'event' | 'id', value: string): void {
  if (value.includes('\n') || value.includes('\r')) {
    throw new TypeError(`Cannot encode SSE field "${field}": value contains a line break`)
  }
  if (field === 'id' && value.includes('\0')) throw new TypeError('Cannot encode SSE field "id": value contains NUL')
}

function hasLineBreak(text: string): boolean {
  return text.includes('\n') || text.includes('\r')
}

/** `text` as lines each after `prefix`; `oneLine`: `text` is known to hold no line break (not looked for). */
function prefixLines(prefix: string, text: string, oneLine = false): string {
  if (oneLine || !hasLineBreak(text)) return `${prefix}${text}${LINE_END}`
  let out = ''
  let start = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 0x0a || code === 0x0d) {
      out += `${prefix}${text.slice(start, index)}${LINE_END}`
      if (code === 0x0d && text.charCodeAt(index + 1) === 0x0a) index++
      start = index + 1
    }
  }
  return `${out}${prefix}${text.slice(start)}${LINE_END}`
}

/**
 * How `encodeSseMessage` writes a message with this `event` (or none), no
 * `id` or `retry`, and data without a line break: `before` the data, and
 * `after` it. A read that is one such message whole is `before`, the data,
 * `after` (the fused repairs compare a read with it, after asking the SSE
 * decoder whether a read may be one event: `SseDecoderCore.ready`).
 */
export interface SseFrame {
  readonly before: string
  readonly after: string
}

export function singleLineFrame(event: string | undefined): SseFrame {
  if (event !== undefined) assertSingleLine('event', event)
  return { before: event === undefined ? DATA : `${EVENT}${event}${LINE_END}${DATA}`, after: `${LINE_END}${LINE_END}` }
}

export function encodeSseMessage(message: SseMessage): string {
  if (isSseComment(message)) return `${prefixLines(COMMENT, message.comment)}${LINE_END}`
  let out = ''
  if (message.event !== undefined) {
    assertSingleLine('event', message.event)
    out += `${EVENT}${message.event}${LINE_END}`
  }
  if (message.id !== undefined) {
    assertSingleLine('id', message.id)
    out += `id: ${message.id}${LINE_END}`
  }
  if (message.retry !== undefined) {
    if (!Number.isSafeInteger(message.retry) || message.retry < 0) {
      throw new TypeError(`Cannot encode SSE field "retry": expected a non-negative integer, got ${String(message.retry)}`)
    }
    out += `retry: ${message.retry}${LINE_END}`
  }
  return `${out}${prefixLines(DATA, message.data, isJsonData(message))}${LINE_END}`
}

/**
 * Data longer than this is looked up in `JSON_DATA` before it is searched
 * for line breaks: a search of long JSON data reads all of it, and joins it
 * first when it is the rope of spliced parts (`stringifyKnowing`) — a copy of
 * the whole — where the look-up costs the same at any length (shorter data is
 * searched at once).
 */
const LONG_DATA = 4096

/**
 * The data `jsonDataEvent` wrote, by event: one line by construction, while
 * the event still holds that very string (data set on it since is searched
 * as any other). Only long data is looked up (`isJsonData`).
 */
const JSON_DATA = new WeakMap<SseEvent, string>()

/** Is `message`'s data JSON that `jsonDataEvent` wrote, long (`LONG_DATA`), and still the event's: one line, not searched? */
function isJsonData(message: SseEvent): boolean {
  return message.data.length > LONG_DATA && JSON_DATA.get(message) === message.data
}

/**
 * An event with `fields` (its event name, id and retry) whose data is
 * `value` written as JSON: one line by construction (`JSON.stringify`, not
 * indented, escapes every CR and LF inside its strings and writes none
 * between them), so `encodeSseMessage` writes it as one `data:` line without
 * looking for line breaks in it. The strings of `value` that are `known` are
 * spliced in as they are written (`stringifyKnowing`), not escaped again:
 * each `written` must be a JSON string as `knownJsonString` makes it (a JSON
 * string holds no raw line break).
 */
export function jsonDataEvent(value: object, fields: SseEventFields, known: readonly KnownJsonString[] = []): SseEvent {
  const message = sseEventWith(stringifyKnowing(value, known), fields)
  JSON_DATA.set(message, message.data)
  return message
}

/** The SSE text of `messages`, one after another. */
export function encodeSseMessages(messages: readonly SseMessage[]): string {
  let out = ''
  for (let index = 0; index < messages.length; index++) out += encodeSseMessage(messages[index]!)
  return out
}
