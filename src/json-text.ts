/**
 * JSON text from outside, read raw: JSON's structural characters (RFC 8259
 * §2) as char codes, for the scanners that read JSON text without parsing it
 * (a string's body in `sse/plain-json-string.ts`, one value's span in
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
export function isJsonWhitespace(code: number): boolean {
  return code === SPACE || code === 0x09 || code === 0x0a || code === 0x0d
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
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) inString = true
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
