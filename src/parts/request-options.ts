/**
 * What a request says about the calls its response may make, in the terms of
 * the engine: the tools it declares (with their JSON Schemas), names declared
 * without one, and whether no call may be made. Each dialect reads its own
 * request body into these (every adapter takes the same default, the
 * request's declared tools); the merge with explicit options is
 * one rule, here.
 */
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import type { DeclaredTool } from '../dsml/tool-schema.ts'

/** The engine options a request implies. */
export interface RequestRepairOptions {
  /** Declared tools with their JSON Schemas. */
  tools?: DeclaredTool[]
  /** Tools declared by name only (other tool types, server tools). */
  knownTools?: string[]
  /** The request says no call may be made (its tool choice is "none"): markup is still removed. */
  mode?: 'strip'
}

/**
 * What one entry of a request's tool list declares, as a dialect's reader
 * reads it: a tool (with its JSON Schema when it has one), a tool by name
 * only (another tool type: server tools, provider tools), or nothing
 * readable (undefined).
 */
export type DeclaredEntry = { tool: DeclaredTool } | { name: string } | undefined

/**
 * The `tools` and `knownTools` a request's tool list implies: the one merge
 * behind every reader. Tools go to `tools`, names to `knownTools`; a list
 * that is not empty (`listed`) but declares nothing readable allows no tool
 * (`knownTools: []`); no list gates nothing.
 */
export function declaredToolOptions(entries: Iterable<DeclaredEntry>, listed: boolean): Pick<RequestRepairOptions, 'tools' | 'knownTools'> {
  const tools: DeclaredTool[] = []
  const names: string[] = []
  for (const entry of entries) {
    if (entry === undefined) continue
    if ('tool' in entry) tools.push(entry.tool)
    else names.push(entry.name)
  }
  const options: Pick<RequestRepairOptions, 'tools' | 'knownTools'> = {}
  if (tools.length > 0) options.tools = tools
  if (names.length > 0 || (tools.length === 0 && listed)) options.knownTools = names
  return options
}

/** Every name the options declare (`tools` and `knownTools`), or undefined when they declare none. */
export function declaredNames(options: Pick<DsmlSanitizerOptions, 'tools' | 'knownTools'>): string[] | undefined {
  if (options.tools === undefined && options.knownTools === undefined) return undefined
  return [...[...(options.tools ?? [])].map((tool) => tool.name), ...(options.knownTools ?? [])]
}

/**
 * `options` with the defaults its `request` implies (explicit options win;
 * `mode: "off"` stays off). `read` says what a request body implies: each
 * dialect has its own reading.
 */
export function withRequestDefaults<Options extends DsmlSanitizerOptions & { request?: unknown }>(
  options: Options,
  read: (body: unknown) => RequestRepairOptions,
): Options {
  if (options.request === undefined) return options
  const implied = read(options.request)
  const merged: Options = { ...options }
  if (merged.tools === undefined && merged.knownTools === undefined) {
    if (implied.tools !== undefined) merged.tools = implied.tools
    if (implied.knownTools !== undefined) merged.knownTools = implied.knownTools
  }
  if (implied.mode !== undefined && merged.mode !== 'off') merged.mode = implied.mode
  return merged
}
