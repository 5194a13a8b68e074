/**
 * What a Chat Completions request says about the calls its response may
 * make: the tools it declares, with their JSON Schemas, and `tool_choice`.
 * The gateway, `repairChatCompletionsResponse` and the repair stream take
 * their defaults from here (DESIGN.md §5.8: every adapter takes the same
 * default, the request's declared tools).
 */
export { declaredNames, type RequestRepairOptions } from '../parts/request-options.ts'
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import type { DeclaredTool, ToolSchema } from '../dsml/tool-schema.ts'
import { type RequestRepairOptions, withRequestDefaults as withDefaults } from '../parts/request-options.ts'
import { isRecord } from '../records.ts'

function declaredTool(entry: Record<string, unknown>): DeclaredTool | undefined {
  if (typeof entry.name !== 'string') return undefined
  return isRecord(entry.parameters) ? { name: entry.name, parameters: entry.parameters as ToolSchema } : { name: entry.name }
}

/**
 * The engine options a request body implies: its declared tools (an empty
 * list declares nothing to gate with) and `tool_choice: "none"`.
 */
export function requestRepairOptions(body: unknown): RequestRepairOptions {
  const options: RequestRepairOptions = {}
  if (!isRecord(body)) return options
  const tools: DeclaredTool[] = []
  const names: string[] = []
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      if (!isRecord(tool) || typeof tool.type !== 'string') continue
      const inner = tool[tool.type]
      if (!isRecord(inner)) continue
      if (tool.type === 'function') {
        const declared = declaredTool(inner)
        if (declared !== undefined) tools.push(declared)
      } else if (typeof inner.name === 'string') {
        names.push(inner.name)
      }
    }
  }
  if (Array.isArray(body.functions)) {
    for (const fn of body.functions) {
      const declared = isRecord(fn) ? declaredTool(fn) : undefined
      if (declared !== undefined) tools.push(declared)
    }
  }
  if (tools.length > 0) options.tools = tools
  if (names.length > 0 || (tools.length === 0 && declaresAny(body))) options.knownTools = names
  if (body.tool_choice === 'none') options.mode = 'strip'
  return options
}

/** A non-empty `tools` or `functions` list, whatever it holds. */
function declaresAny(body: Record<string, unknown>): boolean {
  return (Array.isArray(body.tools) && body.tools.length > 0) || (Array.isArray(body.functions) && body.functions.length > 0)
}

/** `options` with the defaults its Chat Completions `request` implies (see `withRequestDefaults` of the parts layer). */
export function withRequestDefaults<Options extends DsmlSanitizerOptions & { request?: unknown }>(options: Options): Options {
  return withDefaults(options, requestRepairOptions)
}
