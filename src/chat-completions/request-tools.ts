/**
 * What a Chat Completions request says about the calls its response may
 * make: the tools it declares, with their JSON Schemas, and `tool_choice`.
 * The gateway, `repairChatCompletionsResponse` and the repair stream take
 * their defaults from here (every adapter takes the same default, the
 * request's declared tools).
 */
export { declaredNames, type RequestRepairOptions } from '../parts/request-options.ts'
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import type { ToolSchema } from '../dsml/tool-schema.ts'
import { type DeclaredEntry, declaredToolOptions, type RequestRepairOptions, withRequestDefaults as withDefaults } from '../parts/request-options.ts'
import { isRecord } from '../records.ts'

/** A function's declaration (a `tools[].function`, or a legacy `functions[]` entry): its name, and its JSON Schema when it has one. */
function functionEntry(entry: unknown): DeclaredEntry {
  if (!isRecord(entry) || typeof entry.name !== 'string') return undefined
  return { tool: isRecord(entry.parameters) ? { name: entry.name, parameters: entry.parameters as ToolSchema } : { name: entry.name } }
}

/** One `tools[]` entry: a function with its schema, or another tool type by its name. */
function toolEntry(tool: unknown): DeclaredEntry {
  if (!isRecord(tool) || typeof tool.type !== 'string') return undefined
  const inner = tool[tool.type]
  if (!isRecord(inner)) return undefined
  if (tool.type === 'function') return functionEntry(inner)
  return typeof inner.name === 'string' ? { name: inner.name } : undefined
}

/**
 * The engine options a request body implies: its declared tools (`tools`,
 * and the legacy `functions`; an empty list declares nothing to gate with)
 * and `tool_choice: "none"`.
 */
export function requestRepairOptions(body: unknown): RequestRepairOptions {
  if (!isRecord(body)) return {}
  const tools = Array.isArray(body.tools) ? body.tools : []
  const functions = Array.isArray(body.functions) ? body.functions : []
  const options: RequestRepairOptions = declaredToolOptions([...tools.map(toolEntry), ...functions.map(functionEntry)], tools.length + functions.length > 0)
  if (body.tool_choice === 'none') options.mode = 'strip'
  return options
}

/** `options` with the defaults its Chat Completions `request` implies (see `withRequestDefaults` of the parts layer). */
export function withRequestDefaults<Options extends DsmlSanitizerOptions & { request?: unknown }>(options: Options): Options {
  return withDefaults(options, requestRepairOptions)
}
