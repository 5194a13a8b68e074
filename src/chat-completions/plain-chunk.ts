/**
 * `createChunkReader`: what the data of an SSE message is, read without
 * `JSON.parse` (one pass over the text, no allocation on the common path).
 *
 * A chunk is *plain* when the data is valid JSON (as `JSON.parse` reads it)
 * for an object whose top-level `choices` is an array (a chat chunk), and
 * decoding it could give nothing but a `text` part that no stage changes
 * while the DSML sanitizer is idle:
 *
 * - no string holds a character that could disturb an idle sanitizer
 *   (`disturbsIdleSanitizer`: `<`, a bar, a line break — raw or escaped), a
 *   control character, U+FFFD or a `\u` escape (so no escape can spell one);
 * - `finish_reason`, `usage`, `tool_calls` and `reasoning_content` are `null`
 *   wherever they appear, there is no `error` key, and no key is written with
 *   an escape.
 *
 * Anything unusual (whitespace other than spaces, nesting deeper than 32)
 * is not plain: the caller then takes the full path, so "not plain" is
 * always safe.
 *
 * Chunks of one stream differ mostly in their `content` string: the last
 * plain chunk is kept as a *shape*, cut around that string. A chunk of the
 * same shape (the same text before and after the content string, a string
 * between) is the shape with another content: plain if that string is, and
 * otherwise readable without parsing the rest (`CHUNK_SHAPED`). Putting one
 * string value in place of another keeps the JSON valid and every other value
 * as it was, so only the new string is read.
 */

import { disturbsIdleSanitizer } from '../dsml/sanitizer.ts'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const REPLACEMENT_CHARACTER = 0xfffd
const MAX_DEPTH = 32

/** Is `code` never plain inside a string: it could disturb an idle sanitizer, or it is a control character. */
function refusedInString(code: number): boolean {
  return code < 0x20 || code === REPLACEMENT_CHARACTER || disturbsIdleSanitizer(code)
}

/** Per ASCII code inside a string: 0 plain, 1 quote, 2 backslash, 3 refused. */
const STRING_CLASS = new Uint8Array(128)
for (let code = 0; code < 128; code++) if (refusedInString(code)) STRING_CLASS[code] = 3
STRING_CLASS[QUOTE] = 1
STRING_CLASS[BACKSLASH] = 2

/** Escapes that decode to a plain character (`\" \\ \/ \b \f \t`, not `\n` or `\r`): 1. */
const SIMPLE_ESCAPE = new Uint8Array(128)
for (const [escape, decoded] of [['"', '"'], ['\\', '\\'], ['/', '/'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t']]) {
  const code = decoded!.charCodeAt(0)
  // Control characters are refused raw, but an escaped tab, backspace or form feed is plain text.
  if (!disturbsIdleSanitizer(code)) SIMPLE_ESCAPE[escape!.charCodeAt(0)] = 1
}

// What `scanString` found.
/** The closing quote, at `stringEnd`. */
const CLOSED = 0
/** Something that is never plain inside a string, met before any closing quote. */
const REFUSED = 1
/** `end` came first. */
const UNTERMINATED = 2

/** Set by `scanString`: the closing quote (CLOSED), or where the scan stopped (UNTERMINATED). */
let stringEnd = 0
let stringEscaped = false

/** Reads a string body from `index` (after the opening quote) up to `end`. */
function scanString(data: string, index: number, end: number): number {
  stringEscaped = false
  while (index < end) {
    const code = data.charCodeAt(index)
    if (code < 128) {
      const kind = STRING_CLASS[code]!
      if (kind === 0) {
        index++
        continue
      }
      if (kind === 1) {
        stringEnd = index
        return CLOSED
      }
      if (kind === 3) return REFUSED
      // A backslash: only the simple escapes (`\u` could spell anything).
      const next = data.charCodeAt(index + 1)
      if (!(next < 128 && SIMPLE_ESCAPE[next] === 1)) return REFUSED
      stringEscaped = true
      index += 2
      continue
    }
    if (refusedInString(code)) return REFUSED
    index++
  }
  stringEnd = index
  return UNTERMINATED
}

/** Index after a JSON number starting at `start`, or -1. */
function skipNumber(data: string, start: number, length: number): number {
  let index = start
  if (data.charCodeAt(index) === 0x2d) index++
  let code = data.charCodeAt(index)
  if (code === 0x30) {
    index++
  } else if (code >= 0x31 && code <= 0x39) {
    index++
    while (index < length && (code = data.charCodeAt(index)) >= 0x30 && code <= 0x39) index++
  } else {
    return -1
  }
  if (data.charCodeAt(index) === 0x2e) {
    index++
    const digits = index
    while (index < length && (code = data.charCodeAt(index)) >= 0x30 && code <= 0x39) index++
    if (index === digits) return -1
  }
  code = data.charCodeAt(index)
  if (code === 0x65 || code === 0x45) {
    index++
    code = data.charCodeAt(index)
    if (code === 0x2b || code === 0x2d) index++
    const digits = index
    while (index < length && (code = data.charCodeAt(index)) >= 0x30 && code <= 0x39) index++
    if (index === digits) return -1
  }
  return index
}

// What a key means for its value.
const KEY_OTHER = 0
/** `finish_reason`, `usage`, `tool_calls`, `reasoning_content`: only `null` is plain. */
const KEY_NULL_ONLY = 1
/** `choices` at the top level: must be an array. */
const KEY_CHOICES = 2
/** `content`: a string value here is where the next chunks are expected to differ. */
const KEY_CONTENT = 3
/** `error`: never plain. */
const KEY_REFUSED = 4

/** The kind of the key between `start` and `end` (its closing quote). */
function keyKind(data: string, start: number, end: number): number {
  switch (end - start) {
    case 5:
      return data.startsWith('usage', start) ? KEY_NULL_ONLY : data.startsWith('error', start) ? KEY_REFUSED : KEY_OTHER
    case 7:
      return data.startsWith('choices', start) ? KEY_CHOICES : data.startsWith('content', start) ? KEY_CONTENT : KEY_OTHER
    case 10:
      return data.startsWith('tool_calls', start) ? KEY_NULL_ONLY : KEY_OTHER
    case 13:
      return data.startsWith('finish_reason', start) ? KEY_NULL_ONLY : KEY_OTHER
    case 17:
      return data.startsWith('reasoning_content', start) ? KEY_NULL_ONLY : KEY_OTHER
    default:
      return KEY_OTHER
  }
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

/** Set by `isPlainJson` when it answers true: the body of the last string value of a `content` key (-1 if none). */
let contentStart = -1
let contentEnd = -1

/** The full check, over the whole text. */
function isPlainJson(data: string): boolean {
  const length = data.length
  if (length < 2 || data.charCodeAt(0) !== 0x7b) return false
  // One bit per open container, 1 for an array; the top-level object is depth 1.
  let arrays = 0
  let depth = 1
  let index = 1
  let state = KEY_OR_CLOSE
  let kind = KEY_OTHER
  let choicesIsArray = false
  contentStart = -1
  contentEnd = -1
  while (index < length) {
    let code = data.charCodeAt(index)
    if (code === 0x20) {
      index++
      continue
    }
    switch (state) {
      case KEY_OR_CLOSE:
      case KEY: {
        if (code !== QUOTE) {
          if (code !== 0x7d || state !== KEY_OR_CLOSE) return false
          break // `{}`: the `}` is read below, as after a value
        }
        // A key written with an escape could hide one of the keys looked for.
        if (scanString(data, index + 1, length) !== CLOSED || stringEscaped) return false
        kind = keyKind(data, index + 1, stringEnd)
        if (kind === KEY_REFUSED) return false
        if (kind === KEY_CHOICES && depth !== 1) kind = KEY_OTHER
        index = stringEnd + 1
        while ((code = data.charCodeAt(index)) === 0x20) index++
        if (code !== 0x3a) return false
        index++
        state = VALUE
        continue
      }
      case VALUE_OR_CLOSE:
        if (code === 0x5d) break // `[]`
      // falls through
      case VALUE: {
        const valueKind = kind
        kind = KEY_OTHER
        if (valueKind === KEY_NULL_ONLY) {
          if (!data.startsWith('null', index)) return false
          index += 4
        } else if (code === QUOTE) {
          if (scanString(data, index + 1, length) !== CLOSED) return false
          if (valueKind === KEY_CONTENT) {
            contentStart = index + 1
            contentEnd = stringEnd
          }
          index = stringEnd + 1
        } else if (code === 0x7b || code === 0x5b) {
          if (depth === MAX_DEPTH) return false
          if (valueKind === KEY_CHOICES) choicesIsArray = code === 0x5b
          depth++
          arrays = code === 0x5b ? (arrays << 1) | 1 : arrays << 1
          index++
          state = code === 0x5b ? VALUE_OR_CLOSE : KEY_OR_CLOSE
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
          index = skipNumber(data, index, length)
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
    if (code === 0x2c && state === AFTER_VALUE) {
      state = (arrays & 1) === 1 ? VALUE : KEY
      index++
      continue
    }
    if (code !== ((arrays & 1) === 1 ? 0x5d : 0x7d)) return false
    index++
    depth--
    arrays >>>= 1
    state = AFTER_VALUE
    if (depth === 0) {
      while (data.charCodeAt(index) === 0x20) index++
      return index === length && choicesIsArray
    }
  }
  return false
}

// What `readBody` found.
/** A plain string body exactly up to `end`, without escapes. */
const BODY_PLAIN = 0
/** The same, with simple escapes. */
const BODY_PLAIN_ESCAPED = 1
/** Something never plain before any quote: not plain, but maybe a string body still. */
const BODY_REFUSED = 2
/** A quote ends the string early, or an escape takes the character at `end` with it: another shape. */
const BODY_OTHER = 3

/** Reads `data` from `start` to `end` as the inside of a string. */
function readBody(data: string, start: number, end: number): number {
  const found = scanString(data, start, end)
  if (found === REFUSED) return BODY_REFUSED
  // A quote before `end`, or an escape that takes the character at `end` with it.
  if (found === CLOSED || stringEnd !== end) return BODY_OTHER
  return stringEscaped ? BODY_PLAIN_ESCAPED : BODY_PLAIN
}

// What `ChunkReader.read` found.
/** Read it in full. */
export const CHUNK_OTHER = 0
/** Plain (see above): forward it as it came if the sanitizer is quiet. */
export const CHUNK_PLAIN = 1
/**
 * The shape of the last plain chunk with another `content` string (in
 * `reader.content`), known to sit at `choices[0].delta.content`: the chunk
 * reads as that shape with this content (`reader.shape`), no parse needed.
 */
export const CHUNK_SHAPED = 2

/** The last plain chunk, cut around its content string. */
export interface ChunkShape {
  /** Up to and with the opening quote of the content string. */
  readonly before: string
  /** From the closing quote of the content string. */
  readonly after: string
}

/**
 * Reads chunks with its own memory of the last plain chunk (one per stream).
 * A class, so that an open stream pays for its fields only.
 */
export class ChunkReader {
  /** The last plain chunk's shape (undefined until one has a content string). */
  shape: ChunkShape | undefined = undefined
  /** After CHUNK_SHAPED: the content string, decoded. */
  content = ''
  /** The shape as the text of a read: `data: ` before, a blank line after (made when first needed). */
  #eventBefore = ''
  #eventAfter = ''
  /** Whether `shape` may be used for CHUNK_SHAPED (undefined: not asked yet). */
  #usable: boolean | undefined = undefined

  /**
   * Classifies the data of a message. `plain`: whether a plain answer is
   * wanted (the sanitizer is quiet); without it, CHUNK_PLAIN is never given.
   * `usable`, if given, says whether a shape may be used for CHUNK_SHAPED
   * (asked once per shape); without it, CHUNK_SHAPED is never given.
   */
  read(data: string, plain: boolean, usable: ((shape: ChunkShape) => boolean) | undefined): number {
    const shape = this.shape
    if (shape !== undefined) {
      const found = this.#readShaped(data, shape.before, shape.after, plain, usable)
      if (found !== -1) return found
    }
    if (!plain || !isPlainJson(data)) return CHUNK_OTHER
    if (contentStart === -1) {
      this.shape = undefined
    } else {
      this.shape = { before: data.slice(0, contentStart), after: data.slice(contentEnd) }
      this.#eventBefore = ''
      this.#usable = undefined
    }
    return CHUNK_PLAIN
  }

  /**
   * The same for the text of a whole read, `data: ` + data + a blank line,
   * against the last shape only: CHUNK_OTHER (which says nothing about the
   * data) when the text does not have that shape. CHUNK_PLAIN means the text
   * is exactly one such event: a single line, no control character.
   */
  readEvent(text: string, plain: boolean, usable: ((shape: ChunkShape) => boolean) | undefined): number {
    const shape = this.shape
    if (shape === undefined) return CHUNK_OTHER
    if (this.#eventBefore === '') {
      this.#eventBefore = `data: ${shape.before}`
      this.#eventAfter = `${shape.after}\n\n`
    }
    const found = this.#readShaped(text, this.#eventBefore, this.#eventAfter, plain, usable)
    return found === -1 ? CHUNK_OTHER : found
  }

  /** Reads against the last shape: CHUNK_PLAIN, CHUNK_SHAPED, CHUNK_OTHER (not plain), or -1 (does not fit). */
  #readShaped(data: string, before: string, after: string, plain: boolean, usable: ((shape: ChunkShape) => boolean) | undefined): number {
    const start = before.length
    const end = data.length - after.length
    // Equality of substrings: faster than startsWith / endsWith in V8.
    if (end < start || data.substring(end) !== after || data.substring(0, start) !== before) return -1
    const found = readBody(data, start, end)
    if (found === BODY_OTHER) return -1
    if (plain && found <= BODY_PLAIN_ESCAPED) return CHUNK_PLAIN
    if (usable === undefined) return found === BODY_REFUSED ? CHUNK_OTHER : -1
    if (this.#usable === undefined) this.#usable = usable(this.shape!)
    if (!this.#usable) return found === BODY_REFUSED ? CHUNK_OTHER : -1
    if (found === BODY_PLAIN) {
      this.content = data.substring(start, end)
      return CHUNK_SHAPED
    }
    // Escapes (any, `\u` too) or characters a string cannot hold raw: JSON decides.
    try {
      this.content = JSON.parse(data.substring(start - 1, end + 1)) as string
    } catch {
      return CHUNK_OTHER
    }
    return CHUNK_SHAPED
  }
}

export function createChunkReader(): ChunkReader {
  return new ChunkReader()
}
