/**
 * `PlainStringScanner`: reads the body of a JSON string in raw JSON text, in
 * one pass and without allocating, to answer: is it *plain* — a complete
 * string body that holds no character that could disturb an idle sanitizer
 * (`disturbsIdleSanitizer`, the sanitizer's answer), no control character,
 * no U+FFFD, and no escape but the simple ones that decode to a plain
 * character (a `\\u` escape could spell anything)?
 *
 * The fused shortcuts of every dialect read strings with it: the Chat
 * Completions chunk scanner (`json-scan.ts`), and the text-delta shape of the
 * block dialects (`dialect-repair.ts`). Results of a call are left on the
 * scanner's fields.
 */
import { disturbsIdleSanitizer } from '../dsml/sanitizer.ts'
import { BACKSLASH, QUOTE, SIMPLE_ESCAPES, UNICODE_ESCAPE_LETTER } from '../json-text.ts'
import { mayNotEncodeBack } from '../sse/utf8-round-trip.ts'

/**
 * Is `code` never plain inside a string: it could disturb an idle sanitizer,
 * it is a control character, or it may not encode back to the bytes it was
 * read from (`mayNotEncodeBack`: a U+FFFD).
 */
function refusedInString(code: number): boolean {
  return code < 0x20 || mayNotEncodeBack(code) || disturbsIdleSanitizer(code)
}

/** Per ASCII code inside a string: 0 plain, 1 quote, 2 backslash, 3 refused. */
const STRING_CLASS = new Uint8Array(128)
for (let code = 0; code < 128; code++) if (refusedInString(code)) STRING_CLASS[code] = 3
STRING_CLASS[QUOTE] = 1
STRING_CLASS[BACKSLASH] = 2

/** Escapes that decode to a plain character (`\" \\ \/ \b \f \t`, not `\n` or `\r`): 1. */
const SIMPLE_ESCAPE = new Uint8Array(128)
for (const [letter, decoded] of SIMPLE_ESCAPES) {
  // Control characters are refused raw, but an escaped tab, backspace or form feed is plain text.
  if (!disturbsIdleSanitizer(decoded.charCodeAt(0))) SIMPLE_ESCAPE[letter] = 1
}

// What `scanString` found.
/** The closing quote, at `stringEnd`. */
export const CLOSED = 0
/** Something that is never plain inside a string, met before any closing quote. */
export const REFUSED = 1
/** `end` came first. */
export const UNTERMINATED = 2

/** Reads a string body from `index` (after the opening quote) up to `end`; leaves `stringEnd` and `stringEscaped` on `scan`. */
export function scanString(scan: PlainStringScanner, data: string, index: number, end: number): number {
  scan.stringEscaped = false
  while (index < end) {
    const code = data.charCodeAt(index)
    if (code < 128) {
      const kind = STRING_CLASS[code]!
      if (kind === 0) {
        index++
        continue
      }
      if (kind === 1) {
        scan.stringEnd = index
        return CLOSED
      }
      if (kind === 3) return REFUSED
      // A backslash: only the simple escapes (`\u` could spell anything).
      const next = data.charCodeAt(index + 1)
      if (!(next < 128 && SIMPLE_ESCAPE[next] === 1)) return REFUSED
      scan.stringEscaped = true
      index += 2
      continue
    }
    if (refusedInString(code)) return REFUSED
    index++
  }
  scan.stringEnd = index
  return UNTERMINATED
}

// What `readBody` found.
/** A plain string body exactly up to `end`, without escapes. */
export const BODY_PLAIN = 0
/** The same, with simple escapes. */
export const BODY_PLAIN_ESCAPED = 1
/** Something never plain before any quote: not plain, but maybe a string body still. */
export const BODY_REFUSED = 2
/** A quote ends the string early, or an escape takes the character at `end` with it: another shape. */
export const BODY_OTHER = 3

/** One scanner per reader (a class, so that an open stream pays for its fields only). */
export class PlainStringScanner {
  /** After a string scan: the closing quote (CLOSED), or where the scan stopped (UNTERMINATED). */
  stringEnd = 0
  /** After a string scan: it met a (simple) escape. */
  stringEscaped = false

  /** Reads `data` from `start` to `end` as the inside of a string: BODY_PLAIN, BODY_PLAIN_ESCAPED, BODY_REFUSED or BODY_OTHER. */
  readBody(data: string, start: number, end: number): number {
    const found = scanString(this, data, start, end)
    if (found === REFUSED) return BODY_REFUSED
    // A quote before `end`, or an escape that takes the character at `end` with it.
    if (found === CLOSED || this.stringEnd !== end) return BODY_OTHER
    return this.stringEscaped ? BODY_PLAIN_ESCAPED : BODY_PLAIN
  }
}

/**
 * Where the one occurrence of `key` (a key with its quotes and colon, as in
 * `"sequence_number":`) ends in raw JSON `data`, or -1 when it occurs not
 * once. Raw JSON holds a quote inside a string only escaped, so an
 * occurrence is a real key; a single one is the key the caller decoded (an
 * object at any depth that also had it would show it twice).
 */
export function afterOnlyKey(data: string, key: string): number {
  const at = data.indexOf(key)
  if (at === -1 || data.indexOf(key, at + key.length) !== -1) return -1
  return at + key.length
}

/**
 * The span `[start, end)` of the body of the JSON string after the one
 * occurrence of `key` (its opening quote included, as in `"text":"`) in raw
 * JSON `data`, when that string's value is `text`; otherwise undefined. The
 * codecs use it to say where a text they decoded sits in its event
 * (`textSpan`), and the Responses decoder where a `.done` event's long text
 * sits (`repeated-texts.ts`): a key that occurs once is the key they read it
 * from (its quotes, escaped by no backslash, are no string's).
 */
export function stringSpanAfter(data: string, key: string, text: string): readonly [number, number] | undefined {
  const start = afterOnlyKey(data, key)
  if (start === -1) return undefined
  // The string's closing quote: the first one no backslash escapes (an odd run of them before it).
  let end = data.indexOf('"', start)
  while (end !== -1 && (end - startOfBackslashes(data, start, end)) % 2 === 1) end = data.indexOf('"', end + 1)
  if (end === -1) return undefined
  const escape = data.indexOf('\\', start)
  // Without escapes the body is the value itself.
  if (escape === -1 || escape > end) return end - start === text.length && data.substring(start, end) === text ? [start, end] : undefined
  return bodySpells(data, start, end, text) ? [start, end] : undefined
}

/** Where the run of backslashes that ends right before `at` begins (not before `from`). */
function startOfBackslashes(data: string, from: number, at: number): number {
  let index = at
  while (index > from && data.charCodeAt(index - 1) === BACKSLASH) index--
  return index
}

/**
 * Does the JSON string body `data[start, end)` spell `text`? Compared a
 * stretch between escapes at a time (as strings: the engine compares them
 * as memory), each escape decoded: no copy of a long body is made and
 * parsed.
 */
function bodySpells(data: string, start: number, end: number, text: string): boolean {
  let at = 0
  let index = start
  while (index < end) {
    const escape = data.indexOf('\\', index)
    const stretchEnd = escape === -1 || escape > end ? end : escape
    const length = stretchEnd - index
    if (length > 0) {
      // Substrings compared (views of both, compared as memory), not `startsWith`, which V8 compares a character at a time.
      if (at + length > text.length || data.substring(index, stretchEnd) !== text.substring(at, at + length)) return false
      at += length
      index = stretchEnd
      if (index === end) break
    }
    const letter = data.charCodeAt(index + 1)
    let code: number
    if (letter === UNICODE_ESCAPE_LETTER) {
      code = hexValue(data, index + 2)
      if (code === -1) return false
      index += 6
    } else {
      const decoded = SIMPLE_ESCAPES.get(letter)
      if (decoded === undefined) return false
      code = decoded.charCodeAt(0)
      index += 2
    }
    if (at >= text.length || text.charCodeAt(at) !== code) return false
    at++
  }
  return index === end && at === text.length
}

/** The value of the four hex digits at `index` (a `\u` escape's), or -1. */
function hexValue(data: string, index: number): number {
  let value = 0
  for (let digit = index; digit < index + 4; digit++) {
    const code = data.charCodeAt(digit)
    const nibble = code >= 0x30 && code <= 0x39 ? code - 0x30 : code >= 0x61 && code <= 0x66 ? code - 0x57 : code >= 0x41 && code <= 0x46 ? code - 0x37 : -1
    if (nibble === -1) return -1
    value = value * 16 + nibble
  }
  return value
}

/**
 * The value of the JSON string body `data[start, end)` (the text between its
 * quotes), or undefined when it is no string body: a raw quote or control
 * character in it, or an escape JSON does not have. A body without escapes
 * is its own value; the simple escapes (`SIMPLE_ESCAPES`) are decoded here,
 * in the same pass; a body with a `\u` escape, or a backslash that ends it,
 * is read by `JSON.parse`.
 */
export function stringBodyValue(data: string, start: number, end: number): string | undefined {
  let value = ''
  /** Where the stretch since the last escape begins. */
  let stretch = start
  for (let index = start; index < end; index++) {
    const code = data.charCodeAt(index)
    if (code === BACKSLASH) {
      const decoded = index + 1 < end ? SIMPLE_ESCAPES.get(data.charCodeAt(index + 1)) : undefined
      if (decoded === undefined) return parsedBody(data, start, end)
      value += data.substring(stretch, index) + decoded
      index++
      stretch = index + 1
    } else if (code === QUOTE || code < 0x20) {
      return undefined
    }
  }
  return stretch === start ? data.substring(start, end) : value + data.substring(stretch, end)
}

/** `stringBodyValue` by `JSON.parse`: for a body with a `\u` escape, or one JSON refuses. */
function parsedBody(data: string, start: number, end: number): string | undefined {
  try {
    const value: unknown = JSON.parse(`"${data.substring(start, end)}"`)
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}
