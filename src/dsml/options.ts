/**
 * Options of the DSML engine, their defaults, and the `strict` / `relaxed`
 * presets. Options are validated and resolved once (`resolveOptions`); every
 * engine is built from resolved options.
 */
import { holdLimits } from './hold.ts'
import { type DeclaredTool, NO_PARAMETERS } from './tool-schema.ts'
import { countersFor, type DiagnosticCounters, type DsmlMeter } from './diagnostic-counters.ts'
import type { Diagnostic } from './types.ts'

/** Rescues: shapes beyond a complete, well-formed block that may still become calls. */
export interface DsmlRescues {
  /** An `invoke` with no enclosing block (V9). */
  orphanInvoke?: boolean
  /**
   * Parameters whose closer is missing or misspelled: a value ended by the next
   * parameter opener, by an invoke or block closer, or by a nameless closer
   * (V11); a parameter opener without the marker inside a marked invoke (a
   * missing `string` attribute is normal: the value is a raw string); a
   * parameter written as a self-closing tag with its value in an attribute.
   */
  looseParameters?: boolean
  /** An invoke whose body is a bare JSON object instead of parameters (V25). */
  rawJsonBody?: boolean
  /** The tool name in an outer `<parameter name="X">` holding DSML parameters (V26). */
  wrappedTool?: boolean
  /**
   * Markup with no DSML marker at all (`<invoke name="x">…</invoke>`). Only
   * becomes a call when a parameter carries the `string` attribute or the tool
   * is in `knownTools`; otherwise it is released as text, unchanged.
   */
  markerlessTags?: boolean
  /** The tool name used as the tag (`<‹DSML›NAME>` with `<key>value</key>` children). */
  toolNameTag?: boolean
  /** A block holding a tool name followed by a fenced JSON object. */
  fencedJson?: boolean
  /**
   * An invoke whose closer is missing before the block closer or the next
   * invoke, every parameter of it closed (vLLM's parsers recover it too).
   */
  unclosedInvoke?: boolean
}

export type DsmlPreset = 'relaxed' | 'strict'

export interface DsmlSanitizerOptions {
  /**
   * `recover`: remove markup and turn complete calls into `tool-call` events.
   * `strip`: remove markup, never produce calls.
   * `off`: pass all text through unchanged.
   * @default 'recover'
   */
  mode?: 'recover' | 'strip' | 'off'
  /**
   * Whose content this is. Only `assistant` content is rewritten; `user` and
   * `tool` content pass through byte for byte.
   * @default 'assistant'
   */
  role?: 'assistant' | 'user' | 'tool' | 'system'
  /**
   * Rescue preset: `relaxed` turns every rescue on, `strict` turns every rescue
   * off (only complete blocks of complete invokes become calls). Markup is
   * removed either way.
   * @default 'relaxed'
   */
  preset?: DsmlPreset
  /** Switch single rescues on or off, over the preset. */
  rescues?: DsmlRescues
  /**
   * Tool names that may be called. When given, a recovered call to any other
   * name is removed and reported (`unknown-tool`). When absent, every name is kept.
   */
  knownTools?: Iterable<string>
  /**
   * Tools the request declared, with their JSON Schemas (`{ name, parameters? }`,
   * as OpenAI's `tools[].function` spells them). Their names are known tools
   * too; a recovered call to one is checked against its schema: values
   * coerced where the type is unambiguous, a wrapping `arguments` / `input`
   * unwrapped, a call missing a required argument removed (`schema-mismatch`),
   * and a zero-argument invoke made a call when the schema requires nothing.
   * A tool without `parameters` takes none. `knownTools` is the names-only form
   * (no schema, so no such checks).
   */
  tools?: Iterable<DeclaredTool>
  /**
   * Hard cap on held characters. Past it, held markup is removed and reported
   * (`hold-limit`) instead of growing. At least 256.
   * @default 65536
   */
  maxHoldChars?: number
  /**
   * A markerless candidate (such as a plain `<parameter name="x">`) is released
   * as text once it grows this long without a DSML marker; so is the text
   * after a lone block opener. At least 1, and at most `maxHoldChars / 8`
   * (a larger value is lowered to that).
   * @default 1024
   */
  eagerStopChars?: number
  /** Makes ids for recovered calls. @default `call_` + 24 random alphanumerics */
  generateId?: () => string
  /**
   * Called with every diagnostic, as it is given out (the same hook every
   * entry point takes). A pipeline reports what it gives out after its own
   * decisions (the settlement of recovered calls), once.
   */
  onDiagnostic?: (diagnostic: Diagnostic) => void
  /**
   * Where markup that held a call was removed without one (cut off, an
   * undeclared tool, arguments that do not fit the schema, past the hold
   * limit), write a short note naming the tool and the reason, such as
   * `[tool call to "write_file" could not be recovered: the output was cut off]`,
   * so that the failure is visible and a client can retry. The note holds no
   * markup. With it, the text events are the input's text plus the notes.
   * @default false
   */
  unrecoveredNote?: boolean
  /**
   * The runaway guard: inside markup, this many identical tags in a row, or
   * 256 times this many of one character in a row, is a degenerate model
   * repeating itself. The engine then stops: it removes what it held and
   * everything after (`runaway-markup`), and a stream ends the message there
   * with finish `length`, cancelling the upstream. At least 2; `0` or
   * undefined: off (the gateway's default is 64: 64 tags or 16 KiB).
   * @default undefined (off)
   */
  runawayRepeat?: number
  /**
   * An OpenTelemetry `Meter` (`metrics.getMeter('dsml-streams')`) to count
   * through: leaks seen, calls recovered, calls rejected by reason, markup
   * removed (characters), hold-limit hits, runaways (`diagnostic-counters.ts`).
   * Nothing is recorded without one.
   */
  meter?: DsmlMeter
  /**
   * Tool calls stream as they form: a call is announced (`tool-call-start`:
   * id, name) as soon as its invoke's name is read, if the tool is accepted
   * by name; a string argument is written as it arrives, every other one when
   * it closes (`tool-call-delta`: pieces of the arguments' JSON text, which
   * joined equal the non-streamed call's). The call ends with its
   * `tool-call` event (`streamed: true`). A streamed call cannot be taken
   * back: one rejected or cut off at the end still ends with its `tool-call`
   * event, the arguments read whole, and a diagnostic.
   * @default false
   */
  streamToolCalls?: boolean
}

export interface ResolvedRescues {
  orphanInvoke: boolean
  looseParameters: boolean
  rawJsonBody: boolean
  wrappedTool: boolean
  markerlessTags: boolean
  toolNameTag: boolean
  fencedJson: boolean
  unclosedInvoke: boolean
}

const RESOLVED: unique symbol = Symbol('dsml-streams resolved options')

/**
 * Options validated once by `resolveDsmlSanitizerOptions`: every entry point
 * takes them as they are. Opaque: what they hold is the engine's.
 */
export interface ResolvedDsmlSanitizerOptions {
  readonly [RESOLVED]: true
}

/** Options validated, defaults filled in, caps shared out (see `hold.ts`). */
export interface ResolvedOptions extends ResolvedDsmlSanitizerOptions {
  readonly mode: 'recover' | 'strip' | 'off'
  readonly rescues: Readonly<ResolvedRescues>
  /** Every declared name: `knownTools` and the names of `tools`. */
  readonly knownTools: ReadonlySet<string> | undefined
  /** The declared tools with schemas (`parameters` filled in: a tool without one takes none). */
  readonly tools: readonly Required<DeclaredTool>[] | undefined
  readonly maxHoldChars: number
  readonly eagerStopChars: number
  /** Longest single tag (opener with attributes) the lexer will read. */
  readonly maxTagChars: number
  /** Longest chain of pending partial tags. */
  readonly maxPendingChars: number
  /** Most committed markup held before it is reported in pieces. */
  readonly maxMarkupChars: number
  readonly generateId: () => string
  readonly onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined
  readonly unrecoveredNote: boolean
  /** Identical tags in a row that stop the engine (0: the guard is off). */
  readonly runawayRepeat: number
  readonly meter: DsmlMeter | undefined
  /** The meter's counters, made once per meter. */
  readonly counters: DiagnosticCounters | undefined
  readonly streamToolCalls: boolean
}

function isResolved(options: object): options is ResolvedDsmlSanitizerOptions {
  return RESOLVED in options
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
/** Bytes at or above this are skipped, so every letter is equally likely (248 = 4 × 62). */
const ID_BYTE_LIMIT = 256 - (256 % ID_ALPHABET.length)
/** Random bytes drawn 1 KiB at a time (about 40 ids), not one `getRandomValues` call per id. */
const idPool = new Uint8Array(1024)
let idPoolAt = idPool.length

/** `call_` + 24 random alphanumerics, from the web-standard `crypto` (uniform: bytes past 247 are skipped). */
export function generateCallId(): string {
  return generatePrefixedId('call_')
}

/** `prefix` + 24 random alphanumerics, as `generateCallId` makes them (dialects whose ids start otherwise: `toolu_`, `fc_`). */
export function generatePrefixedId(prefix: string): string {
  let id = prefix
  let left = 24
  while (left > 0) {
    if (idPoolAt === idPool.length) {
      crypto.getRandomValues(idPool)
      idPoolAt = 0
    }
    const byte = idPool[idPoolAt]!
    // Each byte is used once: cleared as it is taken, so the pool never holds an id already given out.
    idPool[idPoolAt++] = 0
    if (byte >= ID_BYTE_LIMIT) continue
    id += ID_ALPHABET[byte % ID_ALPHABET.length]
    left--
  }
  return id
}

function presetRescues(preset: DsmlPreset): ResolvedRescues {
  const on = preset === 'relaxed'
  return {
    orphanInvoke: on,
    looseParameters: on,
    rawJsonBody: on,
    wrappedTool: on,
    markerlessTags: on,
    toolNameTag: on,
    fencedJson: on,
    unclosedInvoke: on,
  }
}

/** The presets as shared, frozen objects: most sanitizers use one unchanged. */
const PRESETS: Readonly<Record<DsmlPreset, Readonly<ResolvedRescues>>> = {
  relaxed: Object.freeze(presetRescues('relaxed')),
  strict: Object.freeze(presetRescues('strict')),
}

function positiveInteger(value: unknown, name: string, fallback: number, minimum: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new TypeError(`Cannot use option "${name}": expected an integer of at least ${minimum}, got ${String(value)}`)
  }
  return value
}

/** A declared tool, checked, with `parameters` filled in (a tool without one takes none). */
function declaredTool(tool: DeclaredTool): Required<DeclaredTool> {
  if (tool === null || typeof tool !== 'object' || typeof tool.name !== 'string') {
    throw new TypeError('Cannot use option "tools": expected { name: string, parameters?: JSON Schema } entries')
  }
  const parameters = tool.parameters ?? NO_PARAMETERS
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) {
    throw new TypeError(`Cannot use option "tools": the parameters of "${tool.name}" must be a JSON Schema object`)
  }
  return Object.freeze({ name: tool.name, parameters })
}

/**
 * Validates options and fills in defaults; resolved options are returned as
 * they are. Misuse throws a `TypeError`.
 *
 * @example
 * ```ts
 * const resolved = resolveOptions({ knownTools: ['bash'] })
 * const text = createDsmlSanitizer(resolved)
 * const reasoning = createDsmlSanitizer(resolved) // validated once
 * ```
 */
export function resolveOptions(options: DsmlSanitizerOptions | ResolvedDsmlSanitizerOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`Cannot create DSML sanitizer: options must be an object, got ${typeof options}`)
  }
  // Only this function makes objects that carry the symbol: they are ResolvedOptions.
  if (isResolved(options)) return options as ResolvedOptions
  const role = options.role ?? 'assistant'
  if (!['assistant', 'user', 'tool', 'system'].includes(role)) {
    throw new TypeError(`Cannot use option "role": expected "assistant", "user", "tool" or "system", got "${String(role)}"`)
  }
  let mode = options.mode ?? 'recover'
  if (!['recover', 'strip', 'off'].includes(mode)) {
    throw new TypeError(`Cannot use option "mode": expected "recover", "strip" or "off", got "${String(mode)}"`)
  }
  // Only assistant output is rewritten (the policy, docs/accepts-and-policy.md).
  if (role !== 'assistant') mode = 'off'
  const preset = options.preset ?? 'relaxed'
  if (preset !== 'relaxed' && preset !== 'strict') {
    throw new TypeError(`Cannot use option "preset": expected "relaxed" or "strict", got "${String(preset)}"`)
  }
  let rescues: ResolvedRescues = PRESETS[preset]
  if (options.rescues !== undefined) {
    rescues = presetRescues(preset)
    for (const [key, value] of Object.entries(options.rescues)) {
      if (!(key in rescues)) {
        throw new TypeError(`Cannot use rescue "${key}": known rescues are ${Object.keys(rescues).join(', ')}`)
      }
      if (value !== undefined) rescues[key as keyof ResolvedRescues] = Boolean(value)
    }
  }
  const maxHoldChars = positiveInteger(options.maxHoldChars, 'maxHoldChars', 65_536, 256)
  const limits = holdLimits(maxHoldChars, positiveInteger(options.eagerStopChars, 'eagerStopChars', 1024, 1))
  if (options.generateId !== undefined && typeof options.generateId !== 'function') {
    throw new TypeError('Cannot use option "generateId": expected a function returning a string')
  }
  if (options.onDiagnostic !== undefined && typeof options.onDiagnostic !== 'function') {
    throw new TypeError('Cannot use option "onDiagnostic": expected a function')
  }
  if (options.streamToolCalls !== undefined && typeof options.streamToolCalls !== 'boolean') {
    throw new TypeError(`Cannot use option "streamToolCalls": expected a boolean, got ${typeof options.streamToolCalls}`)
  }
  if (options.unrecoveredNote !== undefined && typeof options.unrecoveredNote !== 'boolean') {
    throw new TypeError(`Cannot use option "unrecoveredNote": expected a boolean, got ${typeof options.unrecoveredNote}`)
  }
  const runawayRepeat = options.runawayRepeat ?? 0
  if (typeof runawayRepeat !== 'number' || !Number.isInteger(runawayRepeat) || runawayRepeat === 1 || runawayRepeat < 0) {
    throw new TypeError(`Cannot use option "runawayRepeat": expected 0 (off) or a whole number of tags, at least 2, got ${String(runawayRepeat)}`)
  }
  const tools = options.tools === undefined ? undefined : Object.freeze([...options.tools].map(declaredTool))
  let knownTools = options.knownTools === undefined ? undefined : new Set(options.knownTools)
  if (tools !== undefined) {
    knownTools ??= new Set()
    for (const tool of tools) knownTools.add(tool.name)
  }
  const resolved = {
    mode,
    rescues,
    knownTools,
    tools,
    maxHoldChars,
    ...limits,
    generateId: options.generateId ?? generateCallId,
    onDiagnostic: options.onDiagnostic,
    unrecoveredNote: options.unrecoveredNote ?? false,
    runawayRepeat,
    meter: options.meter,
    counters: options.meter === undefined ? undefined : countersFor(options.meter),
    streamToolCalls: options.streamToolCalls ?? false,
  }
  return sealed(resolved)
}

function sealed(resolved: Omit<ResolvedOptions, typeof RESOLVED>): ResolvedOptions {
  // Not enumerable: options spread from resolved ones (`{ ...resolved, maxHoldChars }`) are resolved again.
  Object.defineProperty(resolved, RESOLVED, { value: true, enumerable: false })
  return Object.freeze(resolved) as ResolvedOptions
}

/**
 * Validates options once and fills in their defaults, for options shared by
 * many engines (each entry point takes the result as it is). Misuse throws a
 * `TypeError`; resolved options are returned as they are.
 *
 * @example
 * ```ts
 * const resolved = resolveDsmlSanitizerOptions({ knownTools: ['bash'] })
 * const text = createDsmlSanitizer(resolved)
 * const reasoning = createDsmlSanitizer(resolved) // validated once
 * ```
 */
export function resolveDsmlSanitizerOptions(options: DsmlSanitizerOptions | ResolvedDsmlSanitizerOptions = {}): ResolvedDsmlSanitizerOptions {
  return resolveOptions(options)
}
