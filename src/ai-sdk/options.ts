/**
 * Options of `dsmlMiddleware`, their validation, and the engine options one
 * model call runs with (the declared tools, with their input schemas, come from the call's tools).
 */
import type { DeclaredTool, ToolSchema } from '../dsml/tool-schema.ts'
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { generateCallId, resolveDsmlSanitizerOptions } from '../dsml/index.ts'
import type { PartRepairOptions } from '../parts/part-repair.ts'
import { preventionOptions, type PreventionOptions } from '../parts/prevention.ts'
import { type DeclaredEntry, declaredToolOptions } from '../parts/request-options.ts'
import { isRecord } from '../records.ts'
import type { DiagnosticKind, DsmlPreset, DsmlRescues, DsmlSanitizerOptions } from '../dsml/index.ts'
import type { DsmlMeter } from '../dsml/diagnostic-counters.ts'

/**
 * What a middleware diagnostic reports: every engine kind (see the README),
 * plus what the middleware decides about recovered calls and parts.
 *
 * - `recovered-call`: a recovered call was emitted (`toolCallId` names it).
 * - `suppressed-call`: a recovered call was not emitted, because the upstream
 *   sent a native tool call for the same message (native calls win), or the
 *   finish reason was not `stop` / `tool-calls` (`length`, `content-filter`,
 *   …) and `recoverOnTruncation` is off. `text` is the call's markup.
 * - `duplicate-call`: as in the engine, and also for a recovered call equal
 *   to a native one sent later, or to one recovered from the other channel
 *   (a reasoning draft and its copy in the text give one call).
 * - `malformed-chunk`: a stream part could not be read; it was passed on
 *   unchanged (`text` is empty).
 */
export type DsmlMiddlewareDiagnosticKind = DiagnosticKind | 'suppressed-call' | 'malformed-chunk'

export interface DsmlMiddlewareDiagnostic {
  kind: DsmlMiddlewareDiagnosticKind
  /** The exact model text this diagnostic removed (empty when it removed nothing). */
  text: string
  /** The tool the markup named, when it named one. */
  tool?: string
  /** A short human-readable explanation. */
  message: string
  /** Which middleware hook saw it: `wrapStream`, `wrapGenerate`, or `transformParams` (history). */
  operation: 'stream' | 'generate' | 'history'
  /** Where the text came from. */
  channel?: 'text' | 'reasoning'
  /** Id of the text or reasoning part (stream), or `content[i]` / `prompt[i].content[j]`. */
  partId?: string
  /** The id of the emitted (`recovered-call`) or suppressed call. */
  toolCallId?: string
}

export interface DsmlMiddlewareOptions extends PreventionOptions {
  /**
   * `recover`: remove markup and emit complete calls as tool calls.
   * `strip`: remove markup, never emit calls. `off`: the middleware does nothing.
   * @default 'recover'
   */
  mode?: 'recover' | 'strip' | 'off'
  /** Engine rescue preset (`relaxed`: every rescue on; `strict`: none). @default 'relaxed' */
  preset?: DsmlPreset
  /** Switch single engine rescues on or off, over the preset. */
  rescues?: DsmlRescues
  /**
   * Tool names a recovered call may use. Default: the tools the call declares
   * in `params.tools` — function tools with their `inputSchema`, provider
   * tools by name, read as every dialect reads a request — so a call to an
   * undeclared tool is removed and reported (`unknown-tool`), a recovered call
   * is fitted to its tool's schema (see the engine's `tools` option). A call
   * that declares no tools gates nothing, as every adapter does: a
   * DSML-marked call is kept, and markup with no marker stays text.
   * Pass a list to override (names only: no schema checks).
   */
  knownTools?: Iterable<string>
  /**
   * Recover calls to any tool name, declared or not (the runtime answers "tool
   * not found"). Ignored when `knownTools` is given. @default false
   */
  allowUndeclaredTools?: boolean
  /**
   * Emit recovered calls even when the message finished for another reason
   * than `stop` or `tool-calls` (`length`, `content-filter`, `error`,
   * `interrupted`, `other`). The finish reason is then kept as sent.
   * @default false (fail closed)
   */
  recoverOnTruncation?: boolean
  /** Emit calls recovered from reasoning (same rules as text). @default true */
  recoverFromReasoning?: boolean
  /**
   * Where markup that held a call is removed without one, write a note in the
   * text naming the tool and why (see the engine's `unrecoveredNote`). @default false
   */
  unrecoveredNote?: boolean
  /**
   * An OpenTelemetry `Meter` to count through (leaks, calls recovered and
   * rejected, markup removed, hold-limit hits; see the engine's `meter`).
   */
  meter?: DsmlMeter
  /**
   * The runaway guard (see the engine's `runawayRepeat`): a stream that
   * repeats one tag, or one character, inside markup past it ends there with
   * finish `length`, and the model's stream is cancelled. @default off
   */
  runawayRepeat?: number
  /**
   * Recovered calls stream as they form: `tool-input-start` once the call's
   * name is read, `tool-input-delta` as its arguments arrive, then
   * `tool-input-end` and `tool-call` (see the engine's `streamToolCalls`).
   * `generateText` gets its calls whole either way. @default false
   */
  streamToolCalls?: boolean
  /**
   * Repair assistant messages of the prompt history (`transformParams`).
   * `recoveryNudge` needs it: the nudge follows a turn whose call history
   * repair removed. @default true
   */
  repairHistory?: boolean
  /** Hard cap on held characters per text or reasoning part. @default 65536 */
  maxHoldChars?: number
  /** Markerless candidates are released as text after this many characters. @default 1024 */
  eagerStopChars?: number
  /** Makes ids for recovered calls. @default `call_` + 24 random alphanumerics */
  generateId?: () => string
  /**
   * Called for every diagnostic: removed markup, recovered and suppressed
   * calls. Exceptions it throws are ignored (the stream never breaks).
   */
  onDiagnostic?: (diagnostic: DsmlMiddlewareDiagnostic) => void
}

export interface ResolvedMiddlewareOptions {
  mode: 'recover' | 'strip' | 'off'
  preset: DsmlPreset | undefined
  rescues: DsmlRescues | undefined
  knownTools: ReadonlySet<string> | undefined
  allowUndeclaredTools: boolean
  recoverOnTruncation: boolean
  recoverFromReasoning: boolean
  unrecoveredNote: boolean
  meter: DsmlMeter | undefined
  runawayRepeat: number | undefined
  streamToolCalls: boolean
  repairHistory: boolean
  /** The opt-in prevention (`prevention.ts`): a system message, and the nudge after a turn whose call was text. */
  preventiveDirective: boolean
  recoveryNudge: boolean
  maxHoldChars: number | undefined
  eagerStopChars: number | undefined
  generateId: () => string
  report: (diagnostic: DsmlMiddlewareDiagnostic) => void
}

const KNOWN_OPTIONS = new Set([
  'mode', 'preset', 'rescues', 'knownTools', 'allowUndeclaredTools', 'recoverOnTruncation', 'recoverFromReasoning', 'unrecoveredNote', 'meter', 'runawayRepeat', 'streamToolCalls',
  'repairHistory', 'preventiveDirective', 'recoveryNudge', 'maxHoldChars', 'eagerStopChars', 'generateId', 'onDiagnostic',
])

function flag(options: DsmlMiddlewareOptions, name: keyof DsmlMiddlewareOptions, fallback: boolean): boolean {
  const value = options[name]
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') throw new TypeError(`Cannot use option "${name}": expected a boolean, got ${typeof value}`)
  return value
}

/** Validates the options (misuse throws a `TypeError`) and fills in defaults. */
export function resolveMiddlewareOptions(options: DsmlMiddlewareOptions = {}): ResolvedMiddlewareOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`Cannot create the DSML middleware: options must be an object, got ${options === null ? 'null' : typeof options}`)
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) {
      throw new TypeError(`Cannot use option "${key}" of dsmlMiddleware: known options are ${[...KNOWN_OPTIONS].join(', ')}`)
    }
  }
  const onDiagnostic = options.onDiagnostic
  if (onDiagnostic !== undefined && typeof onDiagnostic !== 'function') {
    throw new TypeError('Cannot use option "onDiagnostic": expected a function')
  }
  const knownTools = options.knownTools === undefined ? undefined : new Set(options.knownTools)
  if (knownTools !== undefined) {
    for (const name of knownTools) {
      if (typeof name !== 'string') throw new TypeError(`Cannot use option "knownTools": expected tool names (strings), got ${typeof name}`)
    }
  }
  const prevention = preventionOptions(options)
  const repairHistory = flag(options, 'repairHistory', true)
  if (prevention.recoveryNudge && !repairHistory) {
    throw new TypeError('Cannot use option "recoveryNudge" with "repairHistory: false": the nudge follows a turn whose call history repair removed')
  }
  const resolved: ResolvedMiddlewareOptions = {
    mode: options.mode ?? 'recover',
    preset: options.preset,
    rescues: options.rescues,
    knownTools,
    allowUndeclaredTools: flag(options, 'allowUndeclaredTools', false),
    recoverOnTruncation: flag(options, 'recoverOnTruncation', false),
    recoverFromReasoning: flag(options, 'recoverFromReasoning', true),
    unrecoveredNote: flag(options, 'unrecoveredNote', false),
    meter: options.meter,
    runawayRepeat: options.runawayRepeat,
    streamToolCalls: flag(options, 'streamToolCalls', false),
    repairHistory,
    ...prevention,
    maxHoldChars: options.maxHoldChars,
    eagerStopChars: options.eagerStopChars,
    generateId: options.generateId ?? generateCallId,
    report: (diagnostic) => {
      if (onDiagnostic === undefined) return
      try {
        onDiagnostic(diagnostic)
      } catch {
        // A failing callback must not break the model call.
      }
    },
  }
  // The engine's resolver validates mode, preset, rescues, caps and generateId (and throws a TypeError).
  resolveDsmlSanitizerOptions(engineOptions(resolved, undefined))
  return resolved
}

/** One entry of a call's tools: a function tool with its `inputSchema`, or a provider tool by its name. */
function toolEntry(tool: unknown): DeclaredEntry {
  if (!isRecord(tool) || typeof tool.name !== 'string') return undefined
  if (tool.type !== 'function') return { name: tool.name }
  return { tool: isRecord(tool.inputSchema) ? { name: tool.name, parameters: tool.inputSchema as ToolSchema } : { name: tool.name } }
}

/**
 * The engine options for one model call:
 * - `knownTools`: the option when given; none with `allowUndeclaredTools`;
 * - otherwise what the call's tools declare, read as every dialect reads a
 *   request (`declaredToolOptions`): function tools with their input
 *   schemas as `tools`, so recovered calls are fitted to them, and provider
 *   tools by name as `knownTools` (none declared: no gate).
 * - `tool_choice: none`: markup is stripped, no call is recovered.
 */
export function engineOptions(
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
  mode: 'recover' | 'strip' | 'off' = resolved.mode,
): DsmlSanitizerOptions {
  let knownTools: Iterable<string> | undefined
  let tools: DeclaredTool[] | undefined
  if (resolved.knownTools !== undefined) knownTools = resolved.knownTools
  else if (!resolved.allowUndeclaredTools) {
    const declared = params?.tools ?? []
    ;({ tools, knownTools } = declaredToolOptions(declared.map(toolEntry), declared.length > 0))
  }
  const toolChoiceNone = params?.toolChoice?.type === 'none'
  const options: DsmlSanitizerOptions = {
    mode: toolChoiceNone && mode === 'recover' ? 'strip' : mode,
    generateId: resolved.generateId,
  }
  if (knownTools !== undefined) options.knownTools = knownTools
  if (tools !== undefined) options.tools = tools
  if (resolved.preset !== undefined) options.preset = resolved.preset
  if (resolved.rescues !== undefined) options.rescues = resolved.rescues
  if (resolved.maxHoldChars !== undefined) options.maxHoldChars = resolved.maxHoldChars
  if (resolved.eagerStopChars !== undefined) options.eagerStopChars = resolved.eagerStopChars
  if (resolved.unrecoveredNote) options.unrecoveredNote = true
  if (resolved.meter !== undefined) options.meter = resolved.meter
  if (resolved.runawayRepeat !== undefined) options.runawayRepeat = resolved.runawayRepeat
  if (resolved.streamToolCalls) options.streamToolCalls = true
  return options
}

/**
 * The part pipeline's options for one model call: the engine options above,
 * the middleware's reasoning and truncation policies, and the AI SDK's
 * spelling of the finish reasons (`stop`, `tool-calls`).
 */
export function partRepairOptions(
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
): PartRepairOptions {
  return {
    ...engineOptions(resolved, params),
    recoverFromReasoning: resolved.recoverFromReasoning,
    recoverOnTruncation: resolved.recoverOnTruncation,
    stopFinishReason: 'stop',
    toolCallsFinishReason: 'tool-calls',
  }
}
