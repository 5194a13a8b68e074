/**
 * The Lingma envelope: the `data:` prefix (with or without a space), the
 * double-JSON `{"body": "<json string>"}` (Spring `ResponseEntity`
 * serialisation, `headers` / `statusCodeValue` / `statusCode` optional), a
 * body that is an object, a bare chunk, and every `[DONE]` form. The pure
 * helpers keep the Go predecessor's behaviour (`StripSSEPrefix`, `IsDone`,
 * `UnwrapBody`); `openEnvelope` is what the decoder reads a frame with.
 */
import { topLevelValueSpan } from './json-span.ts'
import { isRecord } from '../records.ts'
import { OPEN_BRACE, OPEN_BRACKET, parseBoundedJson, QUOTE } from '../json-text.ts'

const DONE = '[DONE]'

/** Plain JSON object (not an array, not null). */

/** JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  const first = text.charCodeAt(0)
  // Only objects, arrays, strings, numbers and literals parse; most non-JSON lines fail here without a throw.
  if (!(first === OPEN_BRACE || first === OPEN_BRACKET || first === QUOTE || first === 0x2d || (first >= 0x30 && first <= 0x39) || first === 0x74 || first === 0x66 || first === 0x6e)) {
    return undefined
  }
  return parseBoundedJson(text)?.value
}

/**
 * One SSE line without its prefix: trimmed; `undefined` for an `event:` line
 * or an empty line; `data:` removed and the rest trimmed again; any other
 * line comes back trimmed (a bare payload).
 */
export function stripSsePrefix(line: string): string | undefined {
  const data = line.trim()
  if (data === '' || data.startsWith('event:')) return undefined
  if (data.startsWith('data:')) return data.slice(5).trim()
  return data
}

/** `[DONE]` after the prefix, or a JSON object whose `body` is the string `[DONE]`. */
export function isDone(line: string): boolean {
  const data = stripSsePrefix(line)
  if (data === undefined || data === '') return false
  if (data === DONE) return true
  const parsed = parseJson(data)
  return isRecord(parsed) && parsed.body === DONE
}

/**
 * The payload inside a double-JSON envelope: `body` as a string that is
 * itself JSON gives that string; `body` as an object gives its own text, as
 * written; anything else gives the line without its prefix (a `[DONE]` body
 * is not JSON, so the envelope comes back whole). An `event:` or empty line
 * gives `''`.
 */
export function unwrapBody(line: string): string {
  const data = stripSsePrefix(line)
  if (data === undefined || data === '') return ''
  const parsed = parseJson(data)
  if (!isRecord(parsed)) return data
  const body = parsed.body
  if (typeof body === 'string') return parseJson(body.trim()) === undefined ? data : body
  if (isRecord(body)) {
    const span = topLevelValueSpan(data, 'body')
    return span === undefined ? JSON.stringify(body) : data.slice(span[0], span[1])
  }
  return data
}

/** A frame's payload, opened: the envelope (`outer`) and what it carries (`inner`, the envelope itself when it carries nothing). */
export type OpenedFrame = { kind: 'done' } | { kind: 'unreadable' } | { kind: 'json'; outer: unknown; inner: unknown }

/** Reads a frame's payload (already without its `data:` prefix). */
export function openEnvelope(data: string): OpenedFrame {
  if (data === DONE) return { kind: 'done' }
  const outer = parseJson(data)
  if (outer === undefined) return { kind: 'unreadable' }
  if (!isRecord(outer)) return { kind: 'json', outer, inner: outer }
  const body = outer.body
  if (body === DONE) return { kind: 'done' }
  if (typeof body === 'string') {
    const inner = parseJson(body.trim())
    return { kind: 'json', outer, inner: inner === undefined ? outer : inner }
  }
  if (isRecord(body)) return { kind: 'json', outer, inner: body }
  return { kind: 'json', outer, inner: outer }
}
