/**
 * JSON text from outside, read raw: JSON's structural characters (RFC 8259
 * §2) as char codes and where a string ends (`endOfJsonString`), for the
 * scanners that read JSON text without parsing it
 * (a string's body in `dialect-kit/plain-json-string.ts`, one value's span in
 * `lingma/json-span.ts`); and `parseBoundedJson`, the one way such text is
 * parsed.
 *
 * JSON from outside (an upstream's SSE data or body, a client's request, a
 * leaked call's `string="false"` value or JSON body, a native call's
 * arguments, a string a schema asks to be an object) is parsed only when it
 * nests at most `MAX_JSON_DEPTH` arrays and objects deep. Deeper text is read
 * as not JSON, and each reader keeps it as it is: a value nested thousands
 * deep parses, but then overflows the stack of whatever walks it
 * (`JSON.stringify` in every encoder, comparing calls), and no real message
 * or tool argument nests that deep.
 *
 * A leaked call's values are parsed with `parseExactJson` (a parameter value
 * holding a number whose literal a double cannot hold, `1e999` or a 20-digit
 * id, keeps its text) or, for a JSON text of arguments, with
 * `parseJsonKeepingNumbers` (such a number becomes its literal text): a
 * recovered argument never silently changes value.
 */

export const QUOTE = 0x22
export const BACKSLASH = 0x5c
export const OPEN_BRACE = 0x7b
export const CLOSE_BRACE = 0x7d
export const OPEN_BRACKET = 0x5b
export const CLOSE_BRACKET = 0x5d
export const COMMA = 0x2c
export const COLON = 0x3a
export const SPACE = 0x20

/** JSON's insignificant whitespace: space, tab, line feed, carriage return. */
/** What a backslash and each of these letters stand for inside a JSON string, by the letter's code (`\u` and its four hex digits apart: `UNICODE_ESCAPE_LETTER`). */
export const SIMPLE_ESCAPES: ReadonlyMap<number, string> = new Map(
  [['"', '"'], ['\\', '\\'], ['/', '/'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t']].map(([letter, decoded]) => [letter!.charCodeAt(0), decoded!]),
)
/** The letter after a backslash that opens a `\uXXXX` escape. */
export const UNICODE_ESCAPE_LETTER = 0x75

export function isJsonWhitespace(code: number): boolean {
  return code === SPACE || code === 0x09 || code === 0x0a || code === 0x0d
}

/** The index just past the JSON string that opens at `start` (a quote); the text's length when it never closes. */
export function endOfJsonString(text: string, start: number): number {
  let index = start + 1
  while (index < text.length) {
    const code = text.charCodeAt(index)
    if (code === BACKSLASH) index += 2
    else if (code === QUOTE) return index + 1
    else index++
  }
  return text.length
}

// The characters of a number besides its digits: sign, decimal point, exponent (read by `endOfJsonNumber`).
/** `-` */
export const MINUS = 0x2d
/** `+` */
export const PLUS = 0x2b
const DIGIT_ZERO = 0x30
const DIGIT_ONE = 0x31
const DIGIT_NINE = 0x39
/** `.` */
export const FULL_STOP = 0x2e
/** `e` */
export const SMALL_E = 0x65
/** `E` */
export const CAPITAL_E = 0x45

export function isAsciiDigit(code: number): boolean {
  return code >= DIGIT_ZERO && code <= DIGIT_NINE
}

/** The index just past the JSON number that starts at `start` (reading no further than `length`), or -1 when none starts there. */
export function endOfJsonNumber(text: string, start: number, length = text.length): number {
  let index = start
  if (text.charCodeAt(index) === MINUS) index++
  let code = text.charCodeAt(index)
  if (code === DIGIT_ZERO) {
    index++
  } else if (code >= DIGIT_ONE && code <= DIGIT_NINE) {
    index++
    while (index < length && isAsciiDigit(text.charCodeAt(index))) index++
  } else {
    return -1
  }
  if (text.charCodeAt(index) === FULL_STOP) {
    index++
    const digits = index
    while (index < length && isAsciiDigit(text.charCodeAt(index))) index++
    if (index === digits) return -1
  }
  code = text.charCodeAt(index)
  if (code === SMALL_E || code === CAPITAL_E) {
    index++
    code = text.charCodeAt(index)
    if (code === PLUS || code === MINUS) index++
    const digits = index
    while (index < length && isAsciiDigit(text.charCodeAt(index))) index++
    if (index === digits) return -1
  }
  return index
}

/** The deepest nesting of arrays and objects read as JSON from outside. */
export const MAX_JSON_DEPTH = 512

/**
 * Whether `text` holds at most `MAX_JSON_DEPTH` opening brackets and braces in
 * all (strings included): then it cannot nest deeper. A few native searches,
 * so the common message is never read character by character here.
 */
function fewOpeners(text: string): boolean {
  let count = 0
  for (let index = text.indexOf('{'); index !== -1; index = text.indexOf('{', index + 1)) if (++count > MAX_JSON_DEPTH) return false
  for (let index = text.indexOf('['); index !== -1; index = text.indexOf('[', index + 1)) if (++count > MAX_JSON_DEPTH) return false
  return true
}

/** Whether `text`'s brackets and braces, outside strings, never nest deeper than `MAX_JSON_DEPTH`. One pass. */
function nestsWithinLimit(text: string): boolean {
  let depth = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) index = endOfJsonString(text, index) - 1
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > MAX_JSON_DEPTH) return false
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--
  }
  return true
}

/** `{ value }` when `text` is JSON nested at most `MAX_JSON_DEPTH` deep; else undefined. */
export function parseBoundedJson(text: string): { value: unknown } | undefined {
  if (!fewOpeners(text) && !nestsWithinLimit(text)) return undefined
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

// ── exact numbers ─────────────────────────────────────────────────────────


/** A number literal's value as significant digits and a decimal exponent (`0.0120` → `12`, -3); zero has no digits. */
function decimalOf(literal: string): { negative: boolean; digits: string; exponent: number } {
  let index = 0
  const negative = literal.charCodeAt(0) === MINUS
  if (negative) index++
  let digits = ''
  let pointAt = -1
  let exponent = 0
  for (; index < literal.length; index++) {
    const code = literal.charCodeAt(index)
    if (code === FULL_STOP) pointAt = digits.length
    else if (code === SMALL_E || code === CAPITAL_E) {
      exponent = Number(literal.slice(index + 1))
      break
    } else digits += literal[index]
  }
  const integerDigits = pointAt === -1 ? digits.length : pointAt
  let leading = 0
  while (leading < digits.length && digits.charCodeAt(leading) === DIGIT_ZERO) leading++
  let trailing = digits.length
  while (trailing > leading && digits.charCodeAt(trailing - 1) === DIGIT_ZERO) trailing--
  const significant = digits.slice(leading, trailing)
  // The value is 0.SIGNIFICANT × 10^(exponent + integer digits − leading zeros).
  return { negative, digits: significant, exponent: significant === '' ? 0 : exponent + integerDigits - leading }
}

/**
 * Does a JSON number literal keep its value through a double? `1e999`
 * (infinite), `1e-999` (zero) and `12345678901234567890` (digits lost) do not.
 */
function survivesDouble(literal: string): boolean {
  const value = Number(literal)
  if (!Number.isFinite(value)) return false
  const written = decimalOf(literal)
  const read = decimalOf(String(Math.abs(value)))
  return written.digits === read.digits && written.exponent === read.exponent
}

/** Where the number tokens of JSON `text` that a double cannot hold (`survivesDouble`) are, outside strings: `[start, end]` pairs. */
function lossyNumbers(text: string): number[] {
  const found: number[] = []
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) {
      index = endOfJsonString(text, index) - 1
      continue
    }
    const end = code === MINUS || isAsciiDigit(code) ? endOfJsonNumber(text, index) : -1
    if (end === -1) continue
    if (!survivesDouble(text.slice(index, end))) found.push(index, end)
    index = end - 1
  }
  return found
}

/**
 * Like `parseBoundedJson`, but JSON holding a number whose literal does not
 * survive a round trip through a double (`survivesDouble`) is read as not
 * JSON: its reader keeps the text as it is. So a parameter's `1e999` or
 * `[1e999]` stays the text `"1e999"`, `"[1e999]"` (never `Infinity`, which
 * every encoder writes as `null`), and a 20-digit id keeps its digits. One
 * pass over the numbers of text that parsed.
 */
export function parseExactJson(text: string): { value: unknown } | undefined {
  const parsed = parseBoundedJson(text)
  if (parsed === undefined || lossyNumbers(text).length > 0) return undefined
  return parsed
}

/**
 * Like `parseBoundedJson`, for a JSON text that holds a call's arguments
 * (a raw JSON body, JSON in a tag, a special-token call): a number a double
 * cannot hold becomes its literal text, a string (`{"id": 12345678901234567890}`
 * reads `{ id: "12345678901234567890" }`), so one such number never costs the
 * whole call, nor silently changes value.
 */
export function parseJsonKeepingNumbers(text: string): { value: unknown } | undefined {
  const parsed = parseBoundedJson(text)
  if (parsed === undefined) return undefined
  const lossy = lossyNumbers(text)
  if (lossy.length === 0) return parsed
  let rewritten = ''
  let copied = 0
  for (let at = 0; at < lossy.length; at += 2) {
    rewritten += text.slice(copied, lossy[at]) + JSON.stringify(text.slice(lossy[at], lossy[at + 1]))
    copied = lossy[at + 1]!
  }
  return parseBoundedJson(rewritten + text.slice(copied))
}
