/**
 * Turning DSML parameter values into tool-call arguments: entities, hugging
 * newlines, `string="true|false"` typing, raw JSON bodies, XML children, and
 * pollution-safe assignment.
 */
import { ARGUMENT_WRAPPER_KEYS, asksForJson, CDATA_CLOSE, CDATA_OPEN, ENTITIES, FENCE, FENCED_JSON_INFO, SPECIAL_CALL_TYPE, TOOL_NAME_CARRIER, isBlank, isElementNameCharacter, isToolName, isWhitespace, LESS_THAN, GREATER_THAN } from './grammar.ts'
import { parseExactJson, parseJsonKeepingNumbers } from '../json-text.ts'

/** Longest entity name (`&apos;`): an `&` farther than this from the next `;` starts none. */
const LONGEST_ENTITY = Math.max(...Object.keys(ENTITIES).map((name) => name.length))

/**
 * Decodes `&amp; &lt; &gt; &quot; &apos;`; anything else stays as written.
 * Linear: the next `;` is searched for again only once an `&` has passed it.
 */
export function decodeEntities(text: string): string {
  let ampersand = text.indexOf('&')
  if (ampersand === -1) return text
  let out = ''
  let sectionStart = 0
  let semicolon = -1
  while (ampersand !== -1) {
    if (semicolon <= ampersand) {
      semicolon = text.indexOf(';', ampersand + 1)
      // No `;` after this `&`: no entity from here on.
      if (semicolon === -1) break
    }
    if (semicolon - ampersand > LONGEST_ENTITY + 1) {
      ampersand = text.indexOf('&', ampersand + 1)
      continue
    }
    const name = text.slice(ampersand + 1, semicolon)
    const replacement = Object.hasOwn(ENTITIES, name) ? ENTITIES[name] : undefined
    if (replacement !== undefined) {
      out += text.slice(sectionStart, ampersand) + replacement
      sectionStart = semicolon + 1
    }
    ampersand = text.indexOf('&', replacement === undefined ? ampersand + 1 : semicolon + 1)
  }
  return out + text.slice(sectionStart)
}

/** Where a value starts once the line break hugging its start is dropped (`\r\n` or `\n`). */
function huggingStart(value: string): number {
  return value.startsWith('\r\n') ? 2 : value.startsWith('\n') ? 1 : 0
}

/** Removes one line break right after the opener and one right before the closer (V23). */
export function removeHuggingNewlines(value: string): string {
  const start = huggingStart(value)
  let end = value.length
  if (end - start >= 2 && value.endsWith('\r\n')) end -= 2
  else if (end > start && value.endsWith('\n')) end -= 1
  return start === 0 && end === value.length ? value : value.slice(start, end)
}

/**
 * A string argument's value as its raw text arrives, for a call streamed as
 * it forms: `push(raw)` gives the decoded text certain so far, a prefix of
 * the `typeValue` the whole raw text will have. Held back: the start until a
 * hugging line break there is known, the last two characters (one may be a
 * hugging line break at the end), an `&` an entity may still complete, and a
 * high surrogate whose pair is still to come. A value that may be CDATA
 * (`<` first, after blanks) is not given at all (`streams` false): its
 * content is known only whole.
 */
export class StringValuePieces {
  /** Raw text not given yet: a few characters once the start is decided. */
  #held = ''
  #started = false
  #streams = true

  get streams(): boolean {
    return this.#streams
  }

  push(raw: string): string {
    if (!this.#streams) return ''
    let text = this.#held + raw
    if (!this.#started) {
      let first = 0
      while (first < text.length && isWhitespace(text.charCodeAt(first))) first++
      if (first === text.length) {
        this.#held = text
        return ''
      }
      if (text.charCodeAt(first) === LESS_THAN) {
        this.#streams = false
        this.#held = ''
        return ''
      }
      this.#started = true
      text = text.slice(huggingStart(text))
    }
    let safe = text.length - 2
    if (safe <= 0) {
      this.#held = text
      return ''
    }
    const ampersand = text.lastIndexOf('&', safe - 1)
    if (ampersand !== -1 && safe - ampersand <= LONGEST_ENTITY + 1) {
      const semicolon = text.indexOf(';', ampersand + 1)
      if (semicolon === -1 || semicolon >= safe) safe = ampersand
    }
    const last = text.charCodeAt(safe - 1)
    if (safe > 0 && last >= 0xd800 && last <= 0xdbff) safe--
    this.#held = text.slice(safe)
    return safe > 0 ? decodeEntities(text.slice(0, safe)) : ''
  }
}

export interface TypedValue {
  value: unknown
  /** `string="false"` asked for JSON, and the text was not JSON. */
  invalidJson: boolean
}

/**
 * The content of a value wrapped whole in one CDATA section (spaces and line
 * breaks around it allowed), verbatim; undefined when it is not. A section
 * the value's closer cut short (its `]]>` never came) holds the rest of the value.
 */
function cdataContent(value: string): string | undefined {
  const start = value.indexOf(CDATA_OPEN)
  if (start === -1 || !isBlank(value, 0, start)) return undefined
  const contentStart = start + CDATA_OPEN.length
  const end = value.indexOf(CDATA_CLOSE, contentStart)
  if (end === -1) return value.slice(contentStart)
  if (!isBlank(value, end + CDATA_CLOSE.length)) return undefined
  return value.slice(contentStart, end)
}

/**
 * `string="true"` or no attribute: the raw text. `string="false"`: a JSON
 * value, falling back to the raw text when it does not parse; a number a
 * double cannot hold keeps its literal text (`parseExactJson`). A value
 * wrapped whole in CDATA is its content, verbatim: no entities decoded.
 */
export function typeValue(raw: string, stringAttribute: string | undefined): TypedValue {
  const unwrapped = removeHuggingNewlines(raw)
  const text = cdataContent(unwrapped) ?? decodeEntities(unwrapped)
  if (!asksForJson(stringAttribute)) return { value: text, invalidJson: false }
  const parsed = parseExactJson(text)
  return parsed === undefined ? { value: text, invalidJson: true } : { value: parsed.value, invalidJson: false }
}

/** Sets an own property, so `__proto__` or `constructor` never reach a prototype. */
export function setArgument(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * A raw invoke body that is a JSON object (V25), or undefined. A model that
 * wraps long JSON over lines may break a string across them (a raw line break
 * is not allowed in a JSON string): when the text does not parse, it is read
 * again with each line's leading spaces dropped and the lines joined by one space.
 */
export function parseJsonObjectBody(body: string): Record<string, unknown> | undefined {
  const trimmed = body.trim()
  if (!trimmed.startsWith('{')) return undefined
  const parsed = parseJsonObject(trimmed) ?? (trimmed.includes('\n') ? parseJsonObject(joinLines(trimmed)) : undefined)
  if (parsed === undefined) return undefined
  const args: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(parsed)) setArgument(args, key, value)
  return args
}

function parseJsonObject(text: string): object | undefined {
  const parsed = parseJsonKeepingNumbers(text)?.value // not JSON: no arguments
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined
}

/** The lines of `text` with their leading spaces dropped, joined by one space. */
function joinLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimStart())
    .join(' ')
}

/**
 * Arguments from plain XML children (`<url>…</url> <query>…</query>`), the
 * body of a tool-name-as-tag leak. Undefined unless the body is nothing but
 * such children and whitespace; with `openLast`, the last child may be left
 * open (its closer was another tag: `<path>C:/x</‹DSML›parameter>`), its value
 * the rest of the body. Values are strings (the schema types them), entities
 * decoded, or a CDATA section's content.
 */
export function parseXmlChildren(body: string, openLast = false): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {}
  let count = 0
  let index = 0
  const length = body.length
  while (true) {
    while (index < length && isWhitespace(body.charCodeAt(index))) index++
    if (index === length) break
    if (body.charCodeAt(index) !== LESS_THAN) return undefined
    let nameEnd = index + 1
    while (nameEnd < length && isElementNameCharacter(body.charCodeAt(nameEnd))) nameEnd++
    if (nameEnd === index + 1 || body.charCodeAt(nameEnd) !== GREATER_THAN) return undefined
    const name = body.slice(index + 1, nameEnd)
    const closer = `</${name}>`
    const valueEnd = body.indexOf(closer, nameEnd + 1)
    const open = valueEnd === -1
    if (open && !openLast) return undefined
    const value = body.slice(nameEnd + 1, open ? length : valueEnd)
    setArgument(args, name, cdataContent(value) ?? decodeEntities(removeHuggingNewlines(value)))
    count++
    if (open) break
    index = valueEnd + closer.length
  }
  return count > 0 ? args : undefined
}

/** The tool name a block's text carries in a `<name>X</name>` element (and nothing else but whitespace), or undefined. */
export function toolNameElementOf(text: string): string | undefined {
  const children = parseXmlChildren(text)
  const name = children?.[TOOL_NAME_CARRIER]
  return typeof name === 'string' && Object.keys(children!).length === 1 && isToolName(name.trim()) ? name.trim() : undefined
}

/** How far into a lone block's text the fence of a fenced-JSON call may start (a tool name and spaces). */
const MAX_NAME_BEFORE_FENCE = 160

/**
 * A tool name followed by a fenced JSON object: `Read\n\n```json\n{…}\n````.
 * Returns the name, the arguments and where the closing fence ends, or undefined.
 */
export function parseFencedJsonCall(
  body: string,
): { name: string; arguments: Record<string, unknown>; end: number } | undefined {
  const fenceStart = body.indexOf(FENCE)
  if (fenceStart === -1 || fenceStart > MAX_NAME_BEFORE_FENCE) return undefined
  const name = body.slice(0, fenceStart).trim()
  if (!isToolName(name)) return undefined
  const lineEnd = body.indexOf('\n', fenceStart + FENCE.length)
  if (lineEnd === -1) return undefined
  const info = body.slice(fenceStart + FENCE.length, lineEnd).trim().toLowerCase()
  if (info !== '' && info !== FENCED_JSON_INFO) return undefined
  const fenceEnd = body.indexOf(FENCE, lineEnd + 1)
  if (fenceEnd === -1) return undefined
  const args = parseJsonObjectBody(body.slice(lineEnd + 1, fenceEnd))
  return args === undefined ? undefined : { name, arguments: args, end: fenceEnd + FENCE.length }
}

/**
 * A pre-DSML special-token call, from its text before the separator
 * (`header`) and after it (`body`):
 * - V3/R1: `function` ‹sep› NAME, then a fenced JSON object (or a bare one);
 * - V3.1: NAME ‹sep› a JSON object (bare or fenced).
 * Undefined unless there is a tool name and a JSON object.
 */
export function parseSpecialTokenCall(header: string | undefined, body: string): { name: string; arguments: Record<string, unknown> } | undefined {
  if (header === undefined) return undefined
  const head = header.trim()
  if (head === SPECIAL_CALL_TYPE) {
    const fenced = parseFencedJsonCall(body.trim())
    if (fenced !== undefined) return { name: fenced.name, arguments: fenced.arguments }
    const brace = body.indexOf('{')
    if (brace === -1) return undefined
    return namedArguments(body.slice(0, brace).trim(), body.slice(brace))
  }
  const trimmed = body.trim()
  if (!trimmed.startsWith(FENCE)) return namedArguments(head, trimmed)
  const fenced = parseFencedJsonCall(`${head}\n${trimmed}`)
  return fenced === undefined ? undefined : { name: fenced.name, arguments: fenced.arguments }
}

function namedArguments(name: string, json: string): { name: string; arguments: Record<string, unknown> } | undefined {
  if (!isToolName(name)) return undefined
  const args = parseJsonObjectBody(json)
  return args === undefined ? undefined : { name, arguments: args }
}

/**
 * A JSON-in-tag call, from the text between a block's tags:
 * - `<tool_call name="X">{args}</tool_call>`: the tag names the tool (`named`), the object is the arguments;
 * - `<function_call>{"name": "X", "arguments": {…}}</function_call>`, `<function>{"name", "parameters"}…`:
 *   the arguments under `arguments`, `parameters` or `input` (an object or a JSON string of one), or,
 *   with none of those keys, every key but `name`.
 * Undefined unless the text is one JSON object with a usable tool name.
 */
export function parseJsonInTagCall(named: string | undefined, body: string): { name: string; arguments: Record<string, unknown> } | undefined {
  const object = parseJsonObjectBody(body)
  if (object === undefined) return undefined
  if (named !== undefined) return isToolName(named) ? { name: named, arguments: object } : undefined
  const name = object.name
  if (typeof name !== 'string' || !isToolName(name)) return undefined
  const key = ARGUMENT_WRAPPER_KEYS.find((candidate) => Object.hasOwn(object, candidate))
  if (key === undefined) {
    const args: Record<string, unknown> = {}
    for (const [argument, value] of Object.entries(object)) if (argument !== 'name') setArgument(args, argument, value)
    return { name, arguments: args }
  }
  const value = object[key]
  const args = typeof value === 'string' ? parseJsonObjectBody(value) : value
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined
  const out: Record<string, unknown> = {}
  for (const [argument, inner] of Object.entries(args)) setArgument(out, argument, inner)
  return { name, arguments: out }
}

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`).join(',')}}`
}

/** A key for comparing a call with a native one: name plus arguments, key order ignored. */
export function callKey(name: string, args: unknown): string {
  // A string that is not JSON (or nests too deep) is compared as the string it is.
  const value = typeof args === 'string' ? (parseJsonKeepingNumbers(args) ?? { value: args }).value : args
  return `${name}\u0000${stableJson(value ?? {})}`
}
