/**
 * Recovered arguments against a declared tool's JSON Schema (docs/accepts-and-policy.md):
 * the small subset tool declarations use — `type` (and unions), `properties`,
 * `required`, `enum`, `items`, `anyOf` / `oneOf` of those.
 *
 * - A lone `arguments`, `parameters` or `input` argument wrapping the real arguments (an
 *   object, or a JSON string of one) is unwrapped when the schema has no
 *   property of that name.
 * - Values are coerced only where the schema's type is unambiguous: `"true"`
 *   → `true`, `"6000"` → `6000`, a JSON object (or array) string → the value
 *   for an object- (array-) typed property, `null` → `"null"` for a
 *   string-only property. A value that cannot be coerced is kept as given:
 *   the tool's own validation answers.
 * - A required argument missing is named, so the call is not made.
 */
import { setArgument } from './arguments.ts'
import { parseExactJson } from '../json-text.ts'
import { ARGUMENT_WRAPPER_KEYS } from './grammar.ts'
import { isRecord } from '../records.ts'

/** A JSON Schema, as a tool declaration carries it (only the subset above is read). */
export type ToolSchema = Readonly<Record<string, unknown>>

/** A tool a request declares: its name and, optionally, its parameters' schema. */
export interface DeclaredTool {
  name: string
  /** JSON Schema of the arguments. Absent: the tool takes no arguments (as OpenAI's API defines). */
  parameters?: ToolSchema
}

/** The schema of a declared tool without `parameters`: an object with no properties. */
export const NO_PARAMETERS: ToolSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) })


type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'

function propertiesOf(schema: ToolSchema): Record<string, unknown> {
  return isRecord(schema.properties) ? schema.properties : {}
}

/** The names the schema requires. */
export function requiredOf(schema: ToolSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []
}

/** The JSON types a schema allows, through `type` and `anyOf` / `oneOf`; undefined when it does not say. */
function typesOf(schema: unknown): Set<JsonType> | undefined {
  if (!isRecord(schema)) return undefined
  let types: Set<JsonType> | undefined
  const add = (type: unknown): void => {
    if (typeof type === 'string') (types ??= new Set()).add(type as JsonType)
  }
  if (Array.isArray(schema.type)) schema.type.forEach(add)
  else add(schema.type)
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key]
    if (!Array.isArray(branches)) continue
    for (const branch of branches) {
      const branchTypes = typesOf(branch)
      if (branchTypes === undefined) return undefined // a branch that allows anything
      for (const type of branchTypes) add(type)
    }
  }
  return types
}

/** The branch of a schema that allows `type` (itself, or one of its `anyOf` / `oneOf`). */
function branchFor(schema: unknown, type: JsonType): unknown {
  if (!isRecord(schema)) return undefined
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key]
    if (!Array.isArray(branches)) continue
    for (const branch of branches) if (typesOf(branch)?.has(type)) return branch
  }
  return schema
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as JsonType
}

function allows(types: Set<JsonType>, type: JsonType): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'))
}

function parseJson(text: string): unknown {
  return parseExactJson(text)?.value
}

/** `value` as the schema's type, where that type is unambiguous; else `value` as given. */
export function coerceValue(value: unknown, schema: unknown): unknown {
  const types = typesOf(schema)
  if (types === undefined) return value
  const type = jsonTypeOf(value)
  if (allows(types, type)) {
    if (type === 'array' && isRecord(schema)) {
      const items = (branchFor(schema, 'array') as Record<string, unknown> | undefined)?.items
      return items === undefined ? value : (value as unknown[]).map((item) => coerceValue(item, items))
    }
    if (type === 'object') return coerceProperties(value as Record<string, unknown>, branchFor(schema, 'object'))
    return value
  }
  if (type === 'null' && types.size === 1 && types.has('string')) return 'null'
  if (type !== 'string') return value
  const text = (value as string).trim()
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true'
  if (types.has('number') || types.has('integer')) {
    // Only JSON's number syntax (no hex, no `+5`, no `.5`), and only where no digit is lost (`parseExactJson`).
    const number = parseJson(text)
    if (typeof number === 'number' && (types.has('number') || Number.isSafeInteger(number))) return number
  }
  if (types.has('null') && text === 'null') return null
  if ((types.has('object') && text.startsWith('{')) || (types.has('array') && text.startsWith('['))) {
    const parsed = parseJson(text)
    if (parsed !== undefined && allows(types, jsonTypeOf(parsed))) return coerceValue(parsed, schema)
  }
  return value
}

function coerceProperties(args: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  if (!isRecord(schema)) return args
  const properties = propertiesOf(schema)
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(args)) setArgument(out, key, Object.hasOwn(properties, key) ? coerceValue(value, properties[key]) : value)
  return out
}

/**
 * The wrapped arguments of a lone `arguments` / `input` argument, or
 * undefined: only when they match the schema's properties better than the
 * wrapper does. The wrapper matches none (the schema does not name it); the
 * wrapped keys must all be properties, at least one (as vLLM unwraps).
 * Otherwise the wrapper stays as given. A wrapped JSON text is read exactly
 * (`parseExactJson`): one holding a number a double cannot hold is not
 * unwrapped (vLLM keeps `{"x":[1e999]}` wrapped), where a JSON body's
 * arguments keep such a number as its text.
 */
function unwrapped(args: Record<string, unknown>, schema: ToolSchema): Record<string, unknown> | undefined {
  const keys = Object.keys(args)
  if (keys.length !== 1) return undefined
  const key = keys[0]!
  const properties = propertiesOf(schema)
  if (!ARGUMENT_WRAPPER_KEYS.includes(key) || Object.hasOwn(properties, key)) return undefined
  const inner = typeof args[key] === 'string' ? parseJson((args[key] as string).trim()) : args[key]
  const wrapped = isRecord(inner) ? Object.keys(inner) : []
  if (wrapped.length === 0 || !wrapped.every((name) => Object.hasOwn(properties, name))) return undefined
  const out: Record<string, unknown> = {}
  for (const name of wrapped) setArgument(out, name, (inner as Record<string, unknown>)[name])
  return out
}

/**
 * Is a string value of argument `name` sent as it is under `schema`: the
 * property's type allows a string, or says nothing (no schema, or no such
 * property)? A call streamed as it forms writes such a value as it arrives.
 */
export function keepsStrings(schema: ToolSchema | undefined, name: string): boolean {
  if (schema === undefined) return true
  const properties = propertiesOf(schema)
  if (!Object.hasOwn(properties, name)) return true
  const types = typesOf(properties[name])
  return types === undefined || types.has('string')
}

/** Argument `name` with `value` as `conformArguments` sends it (coerced to its property's type). */
export function conformedArgument(schema: ToolSchema | undefined, name: string, value: unknown): unknown {
  if (schema === undefined) return value
  const properties = propertiesOf(schema)
  return Object.hasOwn(properties, name) ? coerceValue(value, properties[name]) : value
}

/** Arguments made to fit the schema (unwrapped, coerced), and the first required one missing, if any. */
export function conformArguments(args: Record<string, unknown>, schema: ToolSchema): { arguments: Record<string, unknown>; missing: string | undefined } {
  const conformed = coerceProperties(unwrapped(args, schema) ?? args, schema)
  const missing = requiredOf(schema).find((name) => !Object.hasOwn(conformed, name))
  return { arguments: conformed, missing }
}
