/**
 * `createJsonReader`: JSON text read in pieces, for a server that parses a
 * request body of tens of megabytes in slices (it feeds decoded pieces and
 * gives the event loop a turn between them), never making the body one
 * string and never holding the loop for one `JSON.parse` of the whole.
 *
 * A char-code state machine: between tokens it reads one structural
 * character at a time; inside a string it moves over runs of plain
 * characters in a tight loop and keeps each run as a slice of its piece
 * (`TextBuilder`), so a long string stays the pieces it came in (`LongTexts`)
 * and is never joined here; a number's characters are held until it ends and
 * then checked by the number grammar (`endOfJsonNumber`). Open arrays and
 * objects are a stack of frames. Any cut is allowed: inside a string, an
 * escape, a `\uXXXX`, a number, a literal, a surrogate pair. Linear: every
 * character is looked at once, and once the text is known not to be JSON,
 * later pieces cost nothing. The answers are `parseBoundedJson`'s for the
 * joined text: JSON.parse's value, or undefined for text that is not JSON or
 * nests deeper than `MAX_JSON_DEPTH`.
 */
import type { LongTexts } from './long-texts.ts'
import { BACKSLASH, CAPITAL_E, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, endOfJsonNumber, FULL_STOP, isAsciiDigit, isJsonWhitespace, MAX_JSON_DEPTH, MINUS, OPEN_BRACE, OPEN_BRACKET, PLUS, QUOTE, SIMPLE_ESCAPES, SMALL_E, SPACE, UNICODE_ESCAPE_LETTER } from './json-text.ts'
import { TextBuilder } from './text-builder.ts'

/** Options of `createJsonReader`. */
export interface JsonReaderOptions {
  /** Where a long string value is kept as its pieces (`LongTexts.take`); keys are always joined. @default none: every string joined */
  longTexts?: LongTexts
}

/** One JSON text read in pieces: `feed` each, then `end`. */
export interface JsonReader {
  /** Whether the text is known not to be JSON already: later pieces change nothing, and `end()` will be undefined. */
  readonly failed: boolean
  /** Reads the next piece of the JSON text (any cut: inside a string, an escape, a \uXXXX, a number, a literal, a surrogate pair). Work proportional to the piece. */
  feed(text: string): void
  /** `{ value }` when the text fed was exactly one JSON value (whitespace around it allowed) nested at most MAX_JSON_DEPTH arrays/objects deep: the value JSON.parse gives for the joined text. Else undefined. */
  end(): { value: unknown } | undefined
}

/** A reader of one JSON text, fed in pieces. */
export function createJsonReader(options: JsonReaderOptions = {}): JsonReader {
  return new PieceFedJsonReader(options.longTexts)
}

// ── states ────────────────────────────────────────────────────────────────

/** A value is due: at the start, after `:`, after `,` in an array. */
const BEFORE_VALUE = 0
/** Just after `[`: a value or `]`. */
const ARRAY_START = 1
/** Just after `{`: a key or `}`. */
const OBJECT_START = 2
/** After `,` in an object: a key. */
const BEFORE_KEY = 3
/** After a key: `:`. */
const BEFORE_COLON = 4
/** After a value inside an array or object: `,` or its closing bracket or brace. */
const AFTER_VALUE = 5
/** After the whole value: whitespace only. */
const DONE = 6
/** Inside a string (a key or a value), its characters so far held. */
const IN_STRING = 7
/** Just after a backslash inside a string. */
const IN_ESCAPE = 8
/** Inside a `\uXXXX` escape, some of its hex digits read. */
const IN_UNICODE_ESCAPE = 9
/** Inside a number, its characters so far held. */
const IN_NUMBER = 10
/** Inside `true`, `false` or `null`, some of its letters matched. */
const IN_LITERAL = 11
/** Not JSON: nothing more is read. */
const FAILED = 12

type State =
  | typeof BEFORE_VALUE | typeof ARRAY_START | typeof OBJECT_START | typeof BEFORE_KEY | typeof BEFORE_COLON | typeof AFTER_VALUE | typeof DONE
  | typeof IN_STRING | typeof IN_ESCAPE | typeof IN_UNICODE_ESCAPE | typeof IN_NUMBER | typeof IN_LITERAL | typeof FAILED

// ── what single characters stand for ──────────────────────────────────────

const HEX_DIGITS_IN_ESCAPE = 4

/** `true`, `false` and `null`, by their first letter. */
const LITERALS: ReadonlyMap<number, { readonly text: string; readonly value: boolean | null }> = new Map(
  [true, false, null].map((value) => [String(value).charCodeAt(0), { text: String(value), value }]),
)

/** The value of the hex digit `code` (either case), or -1. */
function hexDigitValue(code: number): number {
  if (isAsciiDigit(code)) return code - 0x30
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1
}

/** Can `code` be part of a number? (Whether the characters make one is `endOfJsonNumber`'s to say, once the number ends.) */
function isNumberCharacter(code: number): boolean {
  return isAsciiDigit(code) || code === MINUS || code === PLUS || code === FULL_STOP || code === SMALL_E || code === CAPITAL_E
}

/** Sets `object[key]` as JSON.parse does: an own data property, for `__proto__` too (never the prototype); a key seen again keeps its place. */
function assign(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  else object[key] = value
}

// ── the reader ────────────────────────────────────────────────────────────

/** An open object, and the key its next value goes under. */
interface ObjectFrame {
  readonly object: Record<string, unknown>
  key: string
}
/** An open array, or an open object. */
type Frame = unknown[] | ObjectFrame

class PieceFedJsonReader implements JsonReader {
  readonly #longTexts: LongTexts | undefined
  #state: State = BEFORE_VALUE
  readonly #frames: Frame[] = []
  /** The value read, once the state is `DONE`. */
  #value: unknown
  /** The string being read, and whether it is a key. */
  readonly #string = new TextBuilder()
  #stringIsKey = false
  /** The `\uXXXX` being read: its digits so far, and their value. */
  #hexDigits = 0
  #codeUnit = 0
  /** The number being read. */
  readonly #number = new TextBuilder()
  /** The literal being read, and how many of its letters matched. */
  #literal = { text: '', value: null as boolean | null }
  #literalMatched = 0

  constructor(longTexts: LongTexts | undefined) {
    this.#longTexts = longTexts
  }

  get failed(): boolean {
    return this.#state === FAILED
  }

  feed(text: string): void {
    let index = 0
    while (index < text.length) {
      switch (this.#state) {
        case FAILED:
          return
        case IN_STRING:
          index = this.#readString(text, index)
          break
        case IN_NUMBER:
          index = this.#readNumber(text, index)
          break
        case IN_ESCAPE:
          this.#readEscape(text.charCodeAt(index++))
          break
        case IN_UNICODE_ESCAPE:
          this.#readHexDigit(text.charCodeAt(index++))
          break
        case IN_LITERAL:
          this.#readLiteral(text.charCodeAt(index++))
          break
        default:
          index = this.#readBetweenTokens(text, index)
      }
    }
  }

  end(): { value: unknown } | undefined {
    const state = this.#state
    switch (state) {
      case DONE:
        return { value: this.#value }
      case IN_NUMBER:
        // The number ends with the text: the value, if it is one and no array or object is left open (else it goes into one).
        this.#endNumber()
        return this.#state === DONE ? { value: this.#value } : undefined
      case BEFORE_VALUE: // Nothing but whitespace, or a value still due after `:` or `,`.
      case ARRAY_START: // An array or object left open.
      case OBJECT_START:
      case BEFORE_KEY:
      case BEFORE_COLON:
      case AFTER_VALUE:
      case IN_STRING: // A string left open.
      case IN_ESCAPE:
      case IN_UNICODE_ESCAPE:
      case IN_LITERAL: // `true`, `false` or `null` cut short.
      case FAILED:
        return undefined
      default: {
        const unknownState: never = state
        throw new Error(`Unknown JSON reader state ${String(unknownState)}`)
      }
    }
  }

  /** Outside strings, numbers and literals: reads the character at `index` (whitespace, or one structural character, or the start of a token); the index to read next. */
  #readBetweenTokens(text: string, index: number): number {
    const code = text.charCodeAt(index)
    if (isJsonWhitespace(code)) return index + 1
    switch (this.#state) {
      case BEFORE_VALUE:
        return this.#startValue(code, index)
      case ARRAY_START:
        if (code === CLOSE_BRACKET) this.#closeContainer(code)
        else return this.#startValue(code, index)
        break
      case OBJECT_START:
        if (code === CLOSE_BRACE) this.#closeContainer(code)
        else this.#startString(code, true)
        break
      case BEFORE_KEY:
        this.#startString(code, true)
        break
      case BEFORE_COLON:
        if (code === COLON) this.#state = BEFORE_VALUE
        else this.#fail()
        break
      case AFTER_VALUE:
        this.#readAfterValue(code)
        break
      case DONE: // Only whitespace may follow the value.
        this.#fail()
        break
      case IN_STRING: // `feed` reads these itself.
      case IN_ESCAPE:
      case IN_UNICODE_ESCAPE:
      case IN_NUMBER:
      case IN_LITERAL:
      case FAILED:
        throw new Error(`The JSON reader read state ${this.#state} between tokens`)
      default: {
        const unknownState: never = this.#state
        throw new Error(`Unknown JSON reader state ${String(unknownState)}`)
      }
    }
    return index + 1
  }

  /** Starts the value whose first character `code` is at `index`; the index to read next (a number's first character is read as part of it). */
  #startValue(code: number, index: number): number {
    if (code === MINUS || isAsciiDigit(code)) {
      this.#state = IN_NUMBER
      return index
    }
    if (code === OPEN_BRACKET) this.#open([], ARRAY_START)
    else if (code === OPEN_BRACE) this.#open({ object: {}, key: '' }, OBJECT_START)
    else if (code === QUOTE) this.#startString(code, false)
    else this.#startLiteral(code)
    return index + 1
  }

  #open(frame: Frame, state: State): void {
    if (this.#frames.length === MAX_JSON_DEPTH) return this.#fail()
    this.#frames.push(frame)
    this.#state = state
  }

  /** After a value in an array or object: `,`, or the closing bracket or brace. */
  #readAfterValue(code: number): void {
    if (code === COMMA) this.#state = Array.isArray(this.#frames.at(-1)) ? BEFORE_VALUE : BEFORE_KEY
    else this.#closeContainer(code)
  }

  /** Closes the innermost array (`code` is `]`) or object (`}`). */
  #closeContainer(code: number): void {
    const frame = this.#frames.pop()!
    if (Array.isArray(frame)) {
      if (code === CLOSE_BRACKET) return this.#valueRead(frame)
    } else if (code === CLOSE_BRACE) return this.#valueRead(frame.object)
    this.#fail()
  }

  /** A whole value was read: it goes into the innermost array or object, or it is the text's value. */
  #valueRead(value: unknown): void {
    const frame = this.#frames.at(-1)
    if (frame === undefined) {
      this.#value = value
      this.#state = DONE
      return
    }
    if (Array.isArray(frame)) frame.push(value)
    else assign(frame.object, frame.key, value)
    this.#state = AFTER_VALUE
  }

  #startString(code: number, isKey: boolean): void {
    if (code !== QUOTE) return this.#fail()
    this.#stringIsKey = isKey
    this.#state = IN_STRING
  }

  /** Inside a string: reads its run of plain characters from `start`, and what ends the run; the index to read next. */
  #readString(text: string, start: number): number {
    let index = start
    let code = 0
    // A quote, a backslash or a control character (raw, not JSON) ends the run.
    while (index < text.length && (code = text.charCodeAt(index)) !== QUOTE && code !== BACKSLASH && code >= SPACE) index++
    if (index > start) this.#string.append(text.slice(start, index))
    if (index === text.length) return index
    if (code === QUOTE) this.#endString()
    else if (code === BACKSLASH) this.#state = IN_ESCAPE
    else this.#fail()
    return index + 1
  }

  /** The closing quote: the string is a key, or a value. */
  #endString(): void {
    // A key is joined whatever its length: it becomes a property name, read whole, anyway.
    if (!this.#stringIsKey) return this.#valueRead(this.#longTexts?.take(this.#string) ?? this.#string.take())
    ;(this.#frames.at(-1) as ObjectFrame).key = this.#string.take()
    this.#state = BEFORE_COLON
  }

  /** The letter after a backslash. */
  #readEscape(code: number): void {
    if (code === UNICODE_ESCAPE_LETTER) {
      this.#hexDigits = 0
      this.#codeUnit = 0
      this.#state = IN_UNICODE_ESCAPE
      return
    }
    const decoded = SIMPLE_ESCAPES.get(code)
    if (decoded === undefined) return this.#fail()
    this.#string.append(decoded)
    this.#state = IN_STRING
  }

  /** A hex digit of `\uXXXX`; the fourth makes the code unit (any, a lone surrogate too). */
  #readHexDigit(code: number): void {
    const digit = hexDigitValue(code)
    if (digit === -1) return this.#fail()
    this.#codeUnit = this.#codeUnit * 16 + digit
    if (++this.#hexDigits < HEX_DIGITS_IN_ESCAPE) return
    this.#string.append(String.fromCharCode(this.#codeUnit))
    this.#state = IN_STRING
  }

  /** Inside a number: holds its characters from `start`; at the first character that is not one, the number ends there. The index to read next. */
  #readNumber(text: string, start: number): number {
    let index = start
    while (index < text.length && isNumberCharacter(text.charCodeAt(index))) index++
    if (index > start) this.#number.append(text.slice(start, index))
    if (index < text.length) this.#endNumber()
    return index
  }

  /** The number's characters are all held: its value, if they make a JSON number. */
  #endNumber(): void {
    const text = this.#number.take()
    if (endOfJsonNumber(text, 0) !== text.length) return this.#fail()
    this.#valueRead(Number(text))
  }

  #startLiteral(code: number): void {
    const literal = LITERALS.get(code)
    if (literal === undefined) return this.#fail()
    this.#literal = literal
    this.#literalMatched = 1
    this.#state = IN_LITERAL
  }

  #readLiteral(code: number): void {
    const literal = this.#literal
    if (code !== literal.text.charCodeAt(this.#literalMatched)) return this.#fail()
    if (++this.#literalMatched === literal.text.length) this.#valueRead(literal.value)
  }

  /** Not JSON: drops what was held; nothing more is read. */
  #fail(): void {
    this.#state = FAILED
    this.#frames.length = 0
    this.#string.clear()
    this.#number.clear()
  }
}
