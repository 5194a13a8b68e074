/**
 * What one model call recovers: the engines of its text and reasoning parts,
 * the recovered calls they produced (kept until the finish), the native calls
 * the upstream sent, and the decision, at the finish, of which recovered calls
 * are emitted (DESIGN.md §5.6, §5.7).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4FinishReason, LanguageModelV4ToolCall } from '@ai-sdk/provider'
import { callKey } from '../dsml/arguments.ts'
import { createDsmlSanitizer } from '../dsml/index.ts'
import type { DsmlSanitizer, DsmlSanitizerOptions, NativeToolCall, SanitizerEvent, ToolCall } from '../dsml/index.ts'
import { engineOptions, type DsmlMiddlewareDiagnostic, type ResolvedMiddlewareOptions } from './options.ts'

export type Channel = 'text' | 'reasoning'

/** Finish reasons under which recovered calls are emitted; any other fails closed (DESIGN.md §5.7). */
const AUTHORIZED = new Set(['stop', 'tool-calls'])

interface PendingCall {
  call: ToolCall
  source: string
  channel: Channel
  partId: string
}

export interface Settled {
  /** The calls to emit, in recovery order, with unique ids. */
  calls: LanguageModelV4ToolCall[]
  /** The finish reason to report (the given one, or `tool-calls` when calls are emitted after `stop`). */
  finishReason: LanguageModelV4FinishReason | undefined
}

export interface Recovery {
  /** A new engine for one text or reasoning part, told about every native call seen so far. */
  engine(channel: Channel): DsmlSanitizer
  /** Ends an engine; returns its last events. */
  end(engine: DsmlSanitizer): SanitizerEvent[]
  /** Engine events → clean text. Calls are kept until `settle`; diagnostics are reported. */
  absorb(events: readonly SanitizerEvent[], channel: Channel, partId: string): string
  /** The upstream sent a native tool part: recovered calls of this message will not be emitted. */
  noteNative(part: { toolCallId?: unknown; toolName?: unknown; input?: unknown }, complete: boolean): void
  /** Decides the pending calls: emitted (returned) or suppressed (reported). */
  settle(finishReason: LanguageModelV4FinishReason | undefined): Settled
  readonly pending: number
  report(diagnostic: Omit<DsmlMiddlewareDiagnostic, 'operation'>): void
}

export function createRecovery(
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
  operation: DsmlMiddlewareDiagnostic['operation'],
): Recovery {
  const textOptions = engineOptions(resolved, params)
  const reasoningMode = !resolved.recoverFromReasoning && resolved.mode === 'recover' ? 'strip' : resolved.mode
  const reasoningOptions: DsmlSanitizerOptions = engineOptions(resolved, params, reasoningMode)
  const live = new Set<DsmlSanitizer>()
  const natives: NativeToolCall[] = []
  const nativeKeys = new Set<string>()
  const usedIds = new Set<string>()
  let nativeSeen = false
  let pending: PendingCall[] = []
  /** Call keys already emitted, by channel: a reasoning draft and its text copy give one call. */
  const emitted = { text: new Set<string>(), reasoning: new Set<string>() }

  function report(diagnostic: Omit<DsmlMiddlewareDiagnostic, 'operation'>): void {
    resolved.report({ ...diagnostic, operation })
  }

  function uniqueId(id: string): string {
    let candidate = id
    for (let attempt = 0; usedIds.has(candidate) || candidate === ''; attempt++) {
      candidate = attempt < 8 ? resolved.generateId() : `${id}_${usedIds.size + attempt}`
      if (typeof candidate !== 'string') candidate = ''
    }
    usedIds.add(candidate)
    return candidate
  }

  function suppress(entry: PendingCall, kind: DsmlMiddlewareDiagnostic['kind'], message: string): void {
    report({
      kind,
      text: entry.source,
      tool: entry.call.name,
      message,
      channel: entry.channel,
      partId: entry.partId,
      toolCallId: entry.call.id,
    })
  }

  return {
    engine(channel) {
      const engine = createDsmlSanitizer(channel === 'text' ? textOptions : reasoningOptions)
      for (const native of natives) engine.noteNativeToolCall(native)
      live.add(engine)
      return engine
    },

    end(engine) {
      live.delete(engine)
      return engine.end()
    },

    absorb(events, channel, partId) {
      let text = ''
      for (const event of events) {
        if (event.type === 'text') text += event.text
        else if (event.type === 'tool-call') pending.push({ call: event.call, source: event.source, channel, partId })
        else if (event.diagnostic.kind !== 'recovered-call') {
          // `recovered-call` is reported when the call is actually emitted (settle).
          report({ ...event.diagnostic, channel, partId })
        }
      }
      return text
    },

    noteNative(part, complete) {
      nativeSeen = true
      if (typeof part.toolCallId === 'string') usedIds.add(part.toolCallId)
      if (!complete || typeof part.toolName !== 'string') return
      const native: NativeToolCall = { name: part.toolName, arguments: part.input }
      natives.push(native)
      nativeKeys.add(callKey(native.name, native.arguments))
      for (const engine of live) engine.noteNativeToolCall(native)
    },

    settle(finishReason) {
      const calls: LanguageModelV4ToolCall[] = []
      const unified = finishReason?.unified
      // No finish reason (the stream was cut, or the finish was unreadable) fails closed too, like
      // the Chat Completions synthesizer: a call is only made when the message says it is complete.
      const failClosed = (unified === undefined || !AUTHORIZED.has(unified)) && !resolved.recoverOnTruncation
      for (const entry of pending) {
        const { call } = entry
        const key = callKey(call.name, call.arguments)
        if (nativeSeen) {
          if (nativeKeys.has(key)) suppress(entry, 'duplicate-call', `Call to "${call.name}" not emitted: the same native call was sent`)
          else suppress(entry, 'suppressed-call', `Call to "${call.name}" not emitted: the message has native tool calls`)
          continue
        }
        if (failClosed) {
          const ending = unified === undefined ? 'the stream ended without a finish' : `the message finished with "${unified}"`
          suppress(entry, 'suppressed-call', `Call to "${call.name}" not emitted: ${ending} (set recoverOnTruncation to emit it)`)
          continue
        }
        const other = entry.channel === 'text' ? emitted.reasoning : emitted.text
        if (other.has(key)) {
          suppress(entry, 'duplicate-call', `Call to "${call.name}" not emitted: the same call was recovered from ${entry.channel === 'text' ? 'reasoning' : 'text'}`)
          continue
        }
        emitted[entry.channel].add(key)
        const toolCallId = uniqueId(call.id)
        calls.push({ type: 'tool-call', toolCallId, toolName: call.name, input: JSON.stringify(call.arguments) })
        report({
          kind: 'recovered-call',
          text: '',
          tool: call.name,
          message: `Recovered a call to "${call.name}" from ${entry.channel}`,
          channel: entry.channel,
          partId: entry.partId,
          toolCallId,
        })
      }
      pending = []
      let reason = finishReason
      if (calls.length > 0 && unified === 'stop') reason = { unified: 'tool-calls', raw: finishReason!.raw }
      return { calls, finishReason: reason }
    },

    get pending() {
      return pending.length
    },

    report,
  }
}
