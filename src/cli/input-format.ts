/**
 * Which format `dsml-streams sanitize` reads an input as, decided from the
 * input's start so that text and SSE can be repaired as they are read:
 *
 * - `json`: a JSON object with `choices` (a `chat.completion`). Only the whole
 *   input can be parsed, so an input that opens an object (`{` after JSON
 *   whitespace) is read whole and parsed once; the parsed body goes on to the
 *   repair. One that does not parse, or has no `choices`, is SSE or text by
 *   the next rule.
 * - `sse`: a line starting `data:` (after a line break of any kind, as `^` in
 *   a multiline RegExp) within the first `FORMAT_WINDOW` characters.
 * - `text`: anything else.
 */
import { isRecord } from '../records.ts'
import { isJsonWhitespace, OPEN_BRACE, parseBoundedJson } from '../json-text.ts'
import type { InputReads } from './input-reads.ts'

export type InputFormat = 'text' | 'sse' | 'json'

/** How many characters of an input's start may show a `data:` line (64 Ki: room for an SSE stream's comments and fields before its first event). */
export const FORMAT_WINDOW = 65_536

/** The input, detected: a JSON body already parsed, or text or SSE still to be read. */
export type DetectedInput = { format: 'json'; body: unknown } | { format: 'text' | 'sse'; reads: InputReads }

/** Past JSON whitespace, does the text open an object? Undefined when it is all whitespace. */
function opensObject(text: string): boolean | undefined {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (!isJsonWhitespace(code)) return code === OPEN_BRACE
  }
  return undefined
}

/** Whether a line starting `data:` lies within the first `FORMAT_WINDOW` characters of a text given a piece at a time, each character searched once. */
class DataLineWindow {
  /** Characters read, up to the window's end. */
  #seen = 0
  /** The last five of them: a line that begins in a piece's last four characters is found with the next piece, the line break before it included. */
  #tail = ''

  /** The next piece: true once such a line is found, false once the window is full without one, else undefined. */
  read(piece: string): boolean | undefined {
    if (this.#seen >= FORMAT_WINDOW) return false
    const fresh = piece.slice(0, FORMAT_WINDOW - this.#seen)
    const text = this.#tail + fresh
    const dataLine = /^data:/gm
    // Past the input's start, the tail's first character is only there as the line break before the rest.
    dataLine.lastIndex = this.#seen > this.#tail.length ? 1 : 0
    if (dataLine.test(text)) return true
    this.#seen += fresh.length
    this.#tail = text.slice(-5)
    return this.#seen >= FORMAT_WINDOW ? false : undefined
  }
}

/**
 * Detects the input's format (see the file header), reading no more of it
 * than decides: the first `FORMAT_WINDOW` characters or fewer for text and
 * SSE, whose reads are handed on unconsumed; the whole input for one that
 * opens a JSON object.
 */
export async function detectFormat(reads: InputReads): Promise<DetectedInput> {
  const window = new DataLineWindow()
  let object: boolean | undefined
  let sse: boolean | undefined
  for (let read = await reads.lookAhead(); read !== undefined; read = await reads.lookAhead()) {
    object ??= opensObject(read)
    if (object === true) return asObject(reads)
    sse = window.read(read)
    if (object === false && sse !== undefined) break
  }
  return { format: sse === true ? 'sse' : 'text', reads }
}

/** An input that opens a JSON object: `json` when it parses to one with `choices`, else given back whole as SSE or text. */
async function asObject(reads: InputReads): Promise<DetectedInput> {
  const text = await reads.text()
  const body = parseBoundedJson(text)?.value
  if (isRecord(body) && 'choices' in body) return { format: 'json', body }
  reads.unread(text)
  return { format: new DataLineWindow().read(text) === true ? 'sse' : 'text', reads }
}
