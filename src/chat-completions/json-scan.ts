/**
 * `PlainJsonScanner`: reads the data of a chat chunk in one pass, without
 * `JSON.parse` and without allocating, to answer one question: is it *plain*
 * — valid JSON (as `JSON.parse` reads it) for an object whose top-level
 * `choices` is an array, that decoding could turn into nothing but an answer
 * text part that an idle sanitizer passes through unchanged?
 *
 * It asks the owners of that question rather than knowing it:
 * - what each key makes is the decoder's (`CHUNK_KEY_MEANINGS`): a `part`
 *   key must be `null`, an `error` key is never plain, `choices` must be an
 *   array, the last `content` string is remembered (`contentStart`/`contentEnd`);
 * - which strings are plain is the string reader's (`PlainStringScanner`,
 *   which asks the sanitizer's `disturbsIdleSanitizer`).
 *
 * Anything unusual (whitespace other than spaces, nesting deeper than 32, a
 * key written with an escape) is not plain: the caller then decodes, so "not
 * plain" is always safe. Results of a call are left on the scanner's fields.
 */
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, endOfJsonNumber, OPEN_BRACE, OPEN_BRACKET, QUOTE, SPACE } from '../json-text.ts'
import { CLOSED, PlainStringScanner, scanString } from '../dialect-kit/plain-json-string.ts'
import { CHUNK_KEY_MEANINGS, type ChunkKeyMeaning } from './chunk-keys.ts'

/** Nesting the scanner follows (one bit per level in `arrays`); deeper is not plain. */
const MAX_DEPTH = 32

// What a key means for its value (from the decoder's `CHUNK_KEY_MEANINGS`).
const KEY_OTHER = 0
/** A key that makes a part (`part`): only `null` is plain. */
const KEY_NULL_ONLY = 1
/** `choices` at the top level: must be an array. */
const KEY_CHOICES = 2
/** The answer text (`text`): a string value here is where the next chunks are expected to differ. */
const KEY_CONTENT = 3
/** `error`: never plain. */
const KEY_REFUSED = 4

const KIND_OF_MEANING: Record<ChunkKeyMeaning, number> = { text: KEY_CONTENT, part: KEY_NULL_ONLY, error: KEY_REFUSED, choices: KEY_CHOICES }

/** The decoder's keys, by length, with their kinds. */
const KEYS_BY_LENGTH: Array<Array<readonly [string, number]>> = []
for (const [name, meaning] of Object.entries(CHUNK_KEY_MEANINGS)) (KEYS_BY_LENGTH[name.length] ??= []).push([name, KIND_OF_MEANING[meaning]])

/** The kind of the key between `start` and `end` (its closing quote). */
function keyKind(data: string, start: number, end: number): number {
  const candidates = KEYS_BY_LENGTH[end - start]
  if (candidates === undefined) return KEY_OTHER
  for (const [name, kind] of candidates) if (data.startsWith(name, start)) return kind
  return KEY_OTHER
}

// Parser states.
/** After `{`: a key or `}`. */
const KEY_OR_CLOSE = 0
/** After `,` in an object: a key. */
const KEY = 1
/** After `:` or `,` in an array: a value. */
const VALUE = 2
/** After `[`: a value or `]`. */
const VALUE_OR_CLOSE = 3
/** After a value: `,` or the closer of the container. */
const AFTER_VALUE = 4

/** The full check, over the whole text; leaves `contentStart`/`contentEnd` on `scan`. */
function isPlainJson(scan: PlainJsonScanner, data: string): boolean {
  const length = data.length
  if (length < 2 || data.charCodeAt(0) !== OPEN_BRACE) return false
  // One bit per open container, 1 for an array; the top-level object is depth 1.
  let arrays = 0
  let depth = 1
  let index = 1
  let state = KEY_OR_CLOSE
  let kind = KEY_OTHER
  let choicesIsArray = false
  scan.contentStart = -1
  scan.contentEnd = -1
  while (index < length) {
    let code = data.charCodeAt(index)
    if (code === SPACE) {
      index++
      continue
    }
    switch (state) {
      case KEY_OR_CLOSE:
      case KEY: {
        if (code !== QUOTE) {
          if (code !== CLOSE_BRACE || state !== KEY_OR_CLOSE) return false
          break // `{}`: the `}` is read below, as after a value
        }
        // A key written with an escape could hide one of the keys looked for.
        if (scanString(scan, data, index + 1, length) !== CLOSED || scan.stringEscaped) return false
        kind = keyKind(data, index + 1, scan.stringEnd)
        if (kind === KEY_REFUSED) return false
        if (kind === KEY_CHOICES && depth !== 1) kind = KEY_OTHER
        index = scan.stringEnd + 1
        while ((code = data.charCodeAt(index)) === SPACE) index++
        if (code !== COLON) return false
        index++
        state = VALUE
        continue
      }
      case VALUE_OR_CLOSE:
        if (code === CLOSE_BRACKET) break // `[]`
      // falls through
      case VALUE: {
        const valueKind = kind
        kind = KEY_OTHER
        if (valueKind === KEY_NULL_ONLY) {
          if (!data.startsWith('null', index)) return false
          index += 4
        } else if (code === QUOTE) {
          if (scanString(scan, data, index + 1, length) !== CLOSED) return false
          if (valueKind === KEY_CONTENT) {
            scan.contentStart = index + 1
            scan.contentEnd = scan.stringEnd
          }
          index = scan.stringEnd + 1
        } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
          if (depth === MAX_DEPTH) return false
          if (valueKind === KEY_CHOICES) choicesIsArray = code === OPEN_BRACKET
          depth++
          arrays = code === OPEN_BRACKET ? (arrays << 1) | 1 : arrays << 1
          index++
          state = code === OPEN_BRACKET ? VALUE_OR_CLOSE : KEY_OR_CLOSE
          continue
        } else if (code === 0x74) {
          if (!data.startsWith('true', index)) return false
          index += 4
        } else if (code === 0x66) {
          if (!data.startsWith('false', index)) return false
          index += 5
        } else if (code === 0x6e) {
          if (!data.startsWith('null', index)) return false
          index += 4
        } else {
          index = endOfJsonNumber(data, index, length)
          if (index === -1) return false
        }
        if (valueKind === KEY_CHOICES) choicesIsArray = false
        state = AFTER_VALUE
        continue
      }
      default:
        break
    }
    // After a value (or right after an opener, for `{}` and `[]`), at a non-space `code`.
    if (code === COMMA && state === AFTER_VALUE) {
      state = (arrays & 1) === 1 ? VALUE : KEY
      index++
      continue
    }
    if (code !== ((arrays & 1) === 1 ? CLOSE_BRACKET : CLOSE_BRACE)) return false
    index++
    depth--
    arrays >>>= 1
    state = AFTER_VALUE
    if (depth === 0) {
      while (data.charCodeAt(index) === SPACE) index++
      return index === length && choicesIsArray
    }
  }
  return false
}

/** The Chat Completions chunk check on top of the string reader: its fields are the results of the last call. */
export class PlainJsonScanner extends PlainStringScanner {
  /** After `isPlain` answered true: the body of the last string value of a `content` key (-1 if none). */
  contentStart = -1
  contentEnd = -1

  /** Is `data` a plain chat chunk (see the file's comment)? */
  isPlain(data: string): boolean {
    return isPlainJson(this, data)
  }
}

