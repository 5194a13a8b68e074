/**
 * `topLevelValueSpan`: where the value of one top-level key sits in a JSON
 * object's text, so a nested object can be handed on exactly as it was
 * written (`unwrapBody` returns the `body` object's own bytes, not a
 * re-serialisation). A char-code scan that skips strings and nested values;
 * the text is expected to be valid JSON (the caller has parsed it).
 */

import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, endOfJsonString, isJsonWhitespace, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../json-text.ts'

/** The index just past the value that starts at `start`. */
function skipValue(text: string, start: number): number {
  const first = text.charCodeAt(start)
  if (first === QUOTE) return endOfJsonString(text, start)
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let index = start
    while (index < text.length) {
      const code = text.charCodeAt(index)
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isJsonWhitespace(code)) break
      index++
    }
    return index
  }
  let depth = 0
  let index = start
  while (index < text.length) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) {
      index = endOfJsonString(text, index)
      continue
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--
      if (depth === 0) return index + 1
    }
    index++
  }
  return text.length
}

function skipWhitespace(text: string, index: number): number {
  while (index < text.length && isJsonWhitespace(text.charCodeAt(index))) index++
  return index
}

/** `[start, end)` of the value of `key` in the top-level object `text`, or undefined. The last occurrence wins, as in `JSON.parse`. */
export function topLevelValueSpan(text: string, key: string): [number, number] | undefined {
  let index = skipWhitespace(text, 0)
  if (text.charCodeAt(index) !== OPEN_BRACE) return undefined
  index++
  let found: [number, number] | undefined
  for (;;) {
    index = skipWhitespace(text, index)
    if (text.charCodeAt(index) !== QUOTE) return found
    const keyEnd = endOfJsonString(text, index)
    const name = JSON.parse(text.slice(index, keyEnd)) as string
    index = skipWhitespace(text, keyEnd)
    if (text.charCodeAt(index) !== COLON) return found
    const valueStart = skipWhitespace(text, index + 1)
    const valueEnd = skipValue(text, valueStart)
    if (name === key) found = [valueStart, valueEnd]
    index = skipWhitespace(text, valueEnd)
    if (text.charCodeAt(index) !== COMMA) return found
    index++
  }
}
