/**
 * Call acceptance (docs/accepts-and-policy.md): which complete invokes
 * may become calls, and what becomes of a call that may not be sent. A call's
 * fate depends only on the call, the options and the native calls noted.
 */
import { callKey } from './arguments.ts'
import { isToolName } from './grammar.ts'
import type { ResolvedOptions } from './options.ts'
import type { Invoke } from './states.ts'
import { conformArguments, requiredOf, type ToolSchema } from './tool-schema.ts'
import type { DiagnosticKind, NativeToolCall } from './types.ts'

/** How an invoke was written, beyond what it collected. */
export interface InvokeShape {
  /** A wrapped tool (V26), named by an outer parameter. */
  wrapped: boolean
  inBlock: boolean
  /** Its arguments came from a raw JSON body (V25). */
  usedBody: boolean
  /** A DSML marker was seen in its region. */
  confirmed: boolean
  /** Ended by the block closer or the next invoke, not by its own closer. */
  unclosed: boolean
}

/** A call to send, with its arguments as sent (fitted to the declared schema), or why it is removed. */
export type Verdict = { kind: 'call'; arguments: Record<string, unknown> } | { kind: DiagnosticKind; message: string }

export class CallAcceptance {
  #resolved: ResolvedOptions
  #nativeCalls: Set<string> | undefined
  /** The declared schemas by tool name, made when first asked. */
  #schemas: Map<string, ToolSchema> | undefined

  constructor(resolved: ResolvedOptions, nativeCalls?: Set<string>) {
    this.#resolved = resolved
    this.#nativeCalls = nativeCalls
  }

  /** The declared schema of `name`, if the request declared one. */
  schemaOf(name: string): ToolSchema | undefined {
    const tools = this.#resolved.tools
    if (tools === undefined) return undefined
    this.#schemas ??= new Map(tools.map((tool) => [tool.name, tool.parameters]))
    return this.#schemas.get(name)
  }

  /**
   * Why a complete call of `name` with these arguments is not made, or
   * undefined: with none, it is made only when the tool's declared schema
   * requires nothing (PATTERNS reject-empty-args otherwise).
   */
  argumentsRejection(name: string, args: Record<string, unknown>): string | undefined {
    if (Object.keys(args).length > 0) return undefined
    const schema = this.schemaOf(name)
    if (schema !== undefined && requiredOf(schema).length === 0) return undefined
    return `Call to "${name}" removed: no arguments`
  }

  /**
   * The name of the compact form's one unnamed argument (`<‹‹DSML››m>`) in a
   * call of `name`: the declared schema's only required property; undefined
   * with no schema, or not exactly one required property.
   */
  unnamedArgumentName(name: string): string | undefined {
    const schema = this.schemaOf(name)
    const required = schema === undefined ? [] : requiredOf(schema)
    return required.length === 1 ? required[0] : undefined
  }

  /**
   * May a call to `name` be made, by its name alone (recover mode, and the
   * tool declared or none declared)? A call streamed as it forms is announced
   * only then.
   */
  acceptsName(name: string): boolean {
    const resolved = this.#resolved
    return resolved.mode === 'recover' && (resolved.knownTools === undefined || resolved.knownTools.has(name))
  }

  /** Did the request declare a tool of this name (`knownTools`, `tools`)? */
  isDeclared(name: string): boolean {
    return this.#resolved.knownTools?.has(name) === true
  }

  /** Why markup with no marker naming `name` stays text, or undefined: only a declared tool's may be a call (see `acceptsMarkerless`). */
  markerlessRejection(name: string): string | undefined {
    if (!this.#resolved.rescues.markerlessTags) return 'Markerless markup left as text: the markerlessTags rescue is off'
    if (!this.isDeclared(name)) return 'Markerless markup left as text: not a declared tool'
    return undefined
  }

  /** A native call of the same message: an identical recovered call is removed. */
  noteNativeToolCall(call: NativeToolCall): void {
    ;(this.#nativeCalls ??= new Set()).add(callKey(call.name, call.arguments))
  }

  /** Why a complete invoke with arguments cannot be a call, or undefined when it can. */
  rejectionOf(invoke: Invoke, shape: InvokeShape): string | undefined {
    const rescues = this.#resolved.rescues
    if (invoke.overflowed) return 'DSML invoke removed: it passed maxHoldChars'
    if (invoke.name === undefined || !isToolName(invoke.name)) return 'DSML invoke removed: no usable tool name'
    if (shape.wrapped) {
      if (!rescues.wrappedTool) return 'Wrapped tool removed: the wrappedTool rescue is off'
      if (invoke.markerless && invoke.markeredArgumentCount === 0) return 'Wrapped tool removed: no DSML parameter inside'
    } else if (!shape.inBlock && !rescues.orphanInvoke && !invoke.markerless) {
      return 'DSML invoke outside a block removed: the orphanInvoke rescue is off'
    }
    if (invoke.loose && !rescues.looseParameters) return 'DSML invoke removed: a parameter was not closed properly (looseParameters is off)'
    if (shape.unclosed && !rescues.unclosedInvoke) return 'DSML invoke removed: its closer is missing (the unclosedInvoke rescue is off)'
    if (shape.usedBody && !rescues.rawJsonBody) return 'DSML invoke removed: a raw JSON body needs the rawJsonBody rescue'
    if (invoke.markerless && !shape.confirmed) return this.markerlessRejection(invoke.name)
    return undefined
  }

  /** Whether an accepted call is sent, or why it is removed instead. */
  verdict(name: string, args: Record<string, unknown>): Verdict {
    const resolved = this.#resolved
    if (resolved.mode === 'strip') return { kind: 'dropped-markup', message: `Call to "${name}" removed (mode "strip")` }
    if (resolved.knownTools !== undefined && !resolved.knownTools.has(name)) {
      return { kind: 'unknown-tool', message: `Call to "${name}" removed: not in knownTools` }
    }
    const schema = this.schemaOf(name)
    let sent = args
    if (schema !== undefined) {
      const conformed = conformArguments(args, schema)
      if (conformed.missing !== undefined) {
        return { kind: 'schema-mismatch', message: `Call to "${name}" removed: required argument "${conformed.missing}" is missing` }
      }
      sent = conformed.arguments
    }
    const native = this.#nativeCalls
    if (native !== undefined && native.size > 0 && native.has(callKey(name, sent))) {
      return { kind: 'duplicate-call', message: `Call to "${name}" removed: the same native call was already sent` }
    }
    return { kind: 'call', arguments: sent }
  }
}

/**
 * May markup with no marker and no special token become a call at all under
 * these options? Only with the `markerlessTags` rescue on and some tool
 * declared: `markerlessRejection` refuses every name otherwise. When not, a
 * markerless candidate is markup only once a marked tag confirms it, so a
 * whole text with no marker comes out as it is.
 */
export function acceptsMarkerless(resolved: ResolvedOptions): boolean {
  return resolved.rescues.markerlessTags && resolved.knownTools !== undefined && resolved.knownTools.size > 0
}

/** The tool a removed invoke named, when the name is usable. */
export function toolOf(invoke: Invoke): string | undefined {
  return invoke.name !== undefined && isToolName(invoke.name) ? invoke.name : undefined
}
