/**
 * Reads that are whole one-line events: an optional `event: NAME` line, one
 * `data: X` line, then a blank line, LF only. The SSE decoder reads such a
 * read itself instead of feeding it to the parser, when it holds nothing
 * (`readWholeEvents` for a decoded read; `eventAroundTexts` for a read of
 * bytes decoded around texts a caller found in it, `SseDecoderCore.eventAround`).
 * Both give exactly the messages the parser would, or undefined; the line
 * cap is counted as the parser counts it: the event's lines without their
 * line feeds.
 */
import type { SseEvent, SseMessage } from './types.ts'
import { encodesBackAsRead } from './utf8-round-trip.ts'

export const LINE_FEED = 0x0a
/** `event: ` and `data: `: the field names as the one-line form writes them. */
const EVENT_FIELD_LENGTH = 7
const DATA_FIELD_LENGTH = 6

/** `event: ` at `at`. */
export function isEventLine(text: string, at: number): boolean {
  return text.startsWith('event: ', at)
}

/** `data: ` at `at`. */
function isDataLine(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 0x64 &&
    text.charCodeAt(at + 1) === 0x61 &&
    text.charCodeAt(at + 2) === 0x74 &&
    text.charCodeAt(at + 3) === 0x61 &&
    text.charCodeAt(at + 4) === 0x3a &&
    text.charCodeAt(at + 5) === 0x20
  )
}

/**
 * Where an event's data line starts in `text` from `at` (after its `event:`
 * line, when it has one), with the event's name; undefined when `text` does
 * not go on so (an empty name is the default type, which the parser gives
 * as no `event`: not this form).
 */
function eventStart(text: string, at: number): { event: string | undefined; dataLine: number } | undefined {
  if (!isEventLine(text, at)) return isDataLine(text, at) ? { event: undefined, dataLine: at } : undefined
  const eventEnd = text.indexOf('\n', at + EVENT_FIELD_LENGTH)
  if (eventEnd === -1 || eventEnd === at + EVENT_FIELD_LENGTH || !isDataLine(text, eventEnd + 1)) return undefined
  return { event: text.slice(at + EVENT_FIELD_LENGTH, eventEnd), dataLine: eventEnd + 1 }
}

/**
 * A decoded read of whole one-line events: the messages the parser would
 * give for it; undefined for anything else (a CR, another field, a line
 * or an event past `maxBufferSize`: the parser reads it and reports it).
 */
export function readWholeEvents(text: string, maxBufferSize: number): SseMessage[] | undefined {
  const length = text.length
  if (length < 8 || text.charCodeAt(length - 1) !== LINE_FEED || text.charCodeAt(length - 2) !== LINE_FEED) return undefined
  if (text.indexOf('\r') !== -1) return undefined
  const messages: SseMessage[] = []
  let at = 0
  while (at < length) {
    const start = eventStart(text, at)
    if (start === undefined) return undefined
    const lineEnd = text.indexOf('\n', start.dataLine + DATA_FIELD_LENGTH)
    // The event's lines without their line feeds: its `event:` line, its data line.
    const eventLength = start.dataLine - at - (start.event === undefined ? 0 : 1) + (lineEnd - start.dataLine)
    if (text.charCodeAt(lineEnd + 1) !== LINE_FEED || eventLength > maxBufferSize) return undefined
    const data = text.slice(start.dataLine + DATA_FIELD_LENGTH, lineEnd)
    messages.push(start.event === undefined ? { data } : { event: start.event, data })
    at = lineEnd + 2
  }
  return messages
}

/**
 * A read decoded around texts found in its bytes: `stretches` are the
 * decoded bytes before, between and after them (one more than `texts`).
 * When the whole read is one one-line event (every text inside its data,
 * no text holding a line break or a U+FFFD, no stretch a CR or a U+FFFD,
 * within `maxBufferSize`): its message, the stretches of its data around the
 * texts, and the read's whole text (the pieces joined, never read whole
 * here). Undefined otherwise.
 */
export function eventAroundTexts(
  stretches: readonly string[],
  texts: readonly { readonly text: string }[],
  maxBufferSize: number,
): { message: SseEvent; around: string[]; text: string } | undefined {
  let textLength = 0
  for (const { text } of texts) {
    if (text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1 || !encodesBackAsRead(text)) return undefined
    textLength += text.length
  }
  for (const stretch of stretches) if (stretch.indexOf('\r') !== -1 || !encodesBackAsRead(stretch)) return undefined
  // The first stretch: the event's start and its data line's; the last: the data line's end and the blank line; none other holds a line end.
  const head = stretches[0]!
  const start = eventStart(head, 0)
  if (start === undefined || head.indexOf('\n', start.dataLine) !== -1) return undefined
  const last = stretches.length - 1
  const tail = stretches[last]!
  if (last === 0 || tail.length < 2 || tail.indexOf('\n') !== tail.length - 2 || tail.charCodeAt(tail.length - 1) !== LINE_FEED) return undefined
  let eventLength = start.dataLine - (start.event === undefined ? 0 : 1) + head.length - start.dataLine + textLength + tail.length - 2
  for (let index = 1; index < last; index++) {
    if (stretches[index]!.indexOf('\n') !== -1) return undefined
    eventLength += stretches[index]!.length
  }
  if (eventLength > maxBufferSize) return undefined
  const around = stretches.slice()
  around[0] = head.slice(start.dataLine + DATA_FIELD_LENGTH)
  around[last] = tail.slice(0, -2)
  let data = around[0]
  let text = head
  for (let index = 0; index < texts.length; index++) {
    data += texts[index]!.text + around[index + 1]!
    text += texts[index]!.text + stretches[index + 1]!
  }
  return { message: start.event === undefined ? { data } : { event: start.event, data }, around, text }
}
