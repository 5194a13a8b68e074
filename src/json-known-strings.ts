/**
 * `parseBoundedJsonKnowing`: `parseBoundedJson` for a JSON text that repeats
 * long strings its reader already holds (each of a Responses stream's four
 * closing events repeats the whole text of its `.done`). Each known string
 * found written as it is known (as the text it came in wrote it, or as
 * `JSON.stringify` writes it) is swapped for a short stand-in before parsing
 * and put back after, so the parser reads only the rest: the same value as
 * `parseBoundedJson(text)`, for a search and a compare where the long string
 * was parsed.
 *
 * Exact. A stand-in is a string that begins with the characters U+0000
 * U+0001, which no string of a text without the escapes `\u0000\u0001` can
 * hold (a control character is written escaped in JSON, and `0` and `1` are
 * hex digits of one spelling). A stand-in read back as one whole string
 * value was read from its opening quote to its closing one; the text before
 * it is the text's own, so its known string's written form began a string
 * there too, and that form, a whole JSON string with no other unescaped
 * quote, ended where the stand-in does. Anything else — a text that holds
 * those escapes, a stand-in read as a key or inside a longer string, fewer
 * stand-ins read than were put in — and the text is parsed as it is.
 *
 * The other way, `stringifyKnowing` writes a value that holds known strings
 * with each spliced in as it is written, escaped once however many texts it
 * is written into (each of those four events, rewritten with a repaired
 * text, holds that text).
 */
import { parseBoundedJson } from './json-text.ts'

/** A string the reader holds, with a JSON string (quotes included) that spells it. */
export interface KnownJsonString {
  readonly value: string
  readonly written: string
}

/** `value`, written as `JSON.stringify` writes it. */
export function knownJsonString(value: string): KnownJsonString {
  return { value, written: JSON.stringify(value) }
}

/**
 * `JSON.stringify(value)`, but each string of `value` that is one of `known`
 * is written as `written` spells it, spliced in, not escaped again: a long
 * string written into several texts is escaped once (given as
 * `knownJsonString` makes it, the text is exactly `JSON.stringify`'s; each
 * `written` must be a JSON string, which holds no raw line break). The text
 * is written with a stand-in for each (see the file's doc), then split at
 * them; when it holds the stand-ins' escapes anywhere else (a string or key
 * of `value` held U+0000 U+0001), it is written again as it is (a `toJSON`
 * then runs twice). The result is one
 * line (neither part holds a raw line break) and stays the rope of its
 * parts: nothing copies the long strings.
 */
export function stringifyKnowing(value: object, known: readonly KnownJsonString[]): string {
  if (known.length === 0) return JSON.stringify(value)
  const used: KnownJsonString[] = []
  const text = JSON.stringify(value, (_key, entry: unknown) => {
    if (typeof entry === 'string') {
      for (let index = 0; index < known.length; index++) {
        if (entry !== known[index]!.value) continue
        used.push(known[index]!)
        return `${STAND_IN_START}${used.length - 1}`
      }
    }
    return entry
  })
  if (used.length === 0) return text
  // Each stand-in's escapes occur once, where it was put: any more, and one of them is the value's own.
  let escapes = 0
  for (let at = text.indexOf(STAND_IN_ESCAPES); at !== -1; at = text.indexOf(STAND_IN_ESCAPES, at + 1)) escapes++
  if (escapes !== used.length) return JSON.stringify(value)
  let joined = ''
  let last = 0
  for (let index = 0; index < used.length; index++) {
    const standIn = `"${STAND_IN_ESCAPES}${index}"`
    const at = text.indexOf(standIn, last)
    joined += text.slice(last, at) + used[index]!.written
    last = at + standIn.length
  }
  return joined + text.slice(last)
}

/** The escapes a stand-in begins with, as JSON text: a text that holds them is parsed as it is. */
const STAND_IN_ESCAPES = '\\u0000\\u0001'
/** The characters a stand-in begins with, once parsed. */
const STAND_IN_START = '\u0000\u0001'
/** Digits read of a stand-in's number: more than any list of known strings needs. */
const MAX_INDEX_DIGITS = 6

/**
 * A JSON text given as the stretches around known strings, never joined:
 * `around[0]`, `known[0].written`, `around[1]`, …, `known[n-1].written`,
 * `around[n]` (one more stretch than strings). A reader that found the known
 * strings elsewhere than in a string (in bytes) gives the text so.
 */
export interface JsonAroundKnown {
  readonly around: readonly string[]
  readonly known: readonly KnownJsonString[]
}

/** The whole text of `text`. */
export function joinedJson(text: JsonAroundKnown): string {
  let joined = text.around[0] ?? ''
  for (let index = 0; index < text.known.length; index++) joined += text.known[index]!.written + (text.around[index + 1] ?? '')
  return joined
}

/** `parseBoundedJson(text)`, reading the `known` strings found in it without parsing them (see the file's doc). */
export function parseBoundedJsonKnowing(text: string, known: readonly KnownJsonString[]): { value: unknown } | undefined {
  if (known.length === 0 || text.includes(STAND_IN_ESCAPES)) return parseBoundedJson(text)
  const found = occurrences(text, known)
  if (found.length === 0) return parseBoundedJson(text)
  const around: string[] = []
  let last = 0
  for (const { start, end } of found) {
    around.push(text.slice(last, start))
    last = end
  }
  around.push(text.slice(last))
  return parseWithStandIns(around, found.map(({ index }) => known[index]!)) ?? parseBoundedJson(text)
}

/**
 * `parseBoundedJson` of the text `text` gives whole, its known strings read
 * without parsing them (the same stand-ins as `parseBoundedJsonKnowing`).
 * A stand-in's escapes cannot begin in one stretch and end in a known
 * string (the written form of a string begins and ends with a quote, which
 * the escapes do not hold), so only the stretches are searched for them.
 */
export function parseBoundedJsonAround(text: JsonAroundKnown): { value: unknown } | undefined {
  if (text.known.length === 0 || text.around.some((stretch) => stretch.includes(STAND_IN_ESCAPES))) return parseBoundedJson(joinedJson(text))
  return parseWithStandIns(text.around, text.known) ?? parseBoundedJson(joinedJson(text))
}

/**
 * The stretches `around` joined with a stand-in for each of `known` (the
 * nth for the nth), parsed, and each stand-in read back put back; undefined
 * when the swapped text is not JSON or a stand-in was not read back whole,
 * once, in place (the caller then parses the text as it is). The stretches
 * hold no stand-in escapes.
 */
function parseWithStandIns(around: readonly string[], known: readonly KnownJsonString[]): { value: unknown } | undefined {
  let swapped = around[0]!
  for (let index = 0; index < known.length; index++) swapped += `"${STAND_IN_ESCAPES}${index}"${around[index + 1]!}`
  const parsed = parseBoundedJson(swapped)
  if (parsed === undefined) return undefined
  const restorer = new Restorer(known)
  const value = restorer.restore(parsed.value)
  return restorer.intact && restorer.count === known.length ? { value } : undefined
}

/** Where the known strings' written forms occur in `text`, in order, none overlapping an earlier one. */
function occurrences(text: string, known: readonly KnownJsonString[]): Array<{ start: number; end: number; index: number }> {
  const found: Array<{ start: number; end: number; index: number }> = []
  for (let index = 0; index < known.length; index++) {
    const written = known[index]!.written
    for (let start = text.indexOf(written); start !== -1; start = text.indexOf(written, start + written.length)) {
      found.push({ start, end: start + written.length, index })
    }
  }
  found.sort((first, second) => first.start - second.start)
  const kept: Array<{ start: number; end: number; index: number }> = []
  for (const occurrence of found) if (kept.length === 0 || occurrence.start >= kept[kept.length - 1]!.end) kept.push(occurrence)
  return kept
}

/** Puts the known strings back where their stand-ins were read, counting them; `intact` turns false at a stand-in out of place. */
class Restorer {
  #known: readonly KnownJsonString[]
  count = 0
  intact = true

  constructor(known: readonly KnownJsonString[]) {
    this.#known = known
  }

  /** `value` with each stand-in value replaced by its known string (arrays and objects changed in place: they are the parser's own). */
  restore(value: unknown): unknown {
    if (typeof value === 'string') return value.startsWith(STAND_IN_START) ? this.#knownFor(value) : value
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const entry: unknown = value[index]
        if (typeof entry === 'object' ? entry !== null : typeof entry === 'string') value[index] = this.restore(entry)
      }
      return value
    }
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>
      for (const key of Object.keys(record)) {
        if (key.startsWith(STAND_IN_START)) this.intact = false
        const entry = record[key]
        if (typeof entry === 'object' ? entry === null : typeof entry !== 'string') continue
        const restored = this.restore(entry)
        // A key `__proto__` is the parser's own data property: assigning sets it, not the prototype.
        if (restored !== entry) record[key] = restored
      }
    }
    return value
  }

  #knownFor(standIn: string): string {
    // One of the stand-ins put in is the start and the number of a known string, and no more.
    const index = Number(standIn.slice(STAND_IN_START.length, STAND_IN_START.length + MAX_INDEX_DIGITS))
    const known = Number.isInteger(index) ? this.#known[index] : undefined
    if (known === undefined || standIn !== `${STAND_IN_START}${index}`) {
      this.intact = false
      return standIn
    }
    this.count++
    return known.value
  }
}
