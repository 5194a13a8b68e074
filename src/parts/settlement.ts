/**
 * `settleRecoveredCalls`: the one decision, at the end of a message, about
 * which recovered calls are emitted (docs/api.md, "one settlement"). Every entry point —
 * the streams, the JSON response, the AI SDK middleware — reaches it through
 * the tool-call synthesizer, so the rules and their diagnostics are the same
 * everywhere.
 *
 * For each recovered call, in recovery order, the first rule that applies:
 * 1. the message has native tool calls: not emitted (native calls win) —
 *    `duplicate-call` when a native call is the same call (same name, same
 *    arguments), `suppressed-call` otherwise;
 * 2. the message finished for another reason than `stop` or `tool-calls`
 *    (`length`, `content_filter`…), or never finished (the stream was cut),
 *    and `recoverOnTruncation` is off: not emitted (fail closed),
 *    `suppressed-call`;
 * 3. the same call was already emitted from the other channel (reasoning
 *    repeated byte for byte in the answer): not emitted, `duplicate-call`;
 * 4. otherwise emitted, `recovered-call`.
 *
 * When a call is emitted after a `stop` finish, the finish becomes "tool
 * calls". A withheld call's diagnostic carries the call's markup as its
 * `text` (it was removed, and became nothing); `recovered-call` has empty
 * `text` (the markup became the call). Every diagnostic names the call's id.
 */
import { callKey } from '../dsml/arguments.ts'
import type { Diagnostic, ToolCall } from '../dsml/types.ts'
import type { Channel } from './part.ts'

/** How a message ended, in the neutral terms of the decision. */
export type FinishKind = 'stop' | 'tool-calls' | 'other'

export interface MessageEnding {
  kind: FinishKind
  /** The finish reason as the provider spelled it (for the diagnostics). */
  reason: string
}

/** A call the engine recovered, the markup it was read from, and the channel it came from. */
export interface RecoveredCall {
  call: ToolCall
  source: string
  channel: Channel
}

export interface CallOutcome<Call extends RecoveredCall> {
  entry: Call
  emitted: boolean
  /** `recovered-call` when emitted; `suppressed-call` or `duplicate-call` when not. */
  diagnostic: Diagnostic
}

export interface Settlement<Call extends RecoveredCall> {
  /** One outcome per recovered call, in recovery order. */
  outcomes: CallOutcome<Call>[]
  /** At least one call is emitted after a `stop` finish: report the finish as "tool calls". */
  finishAsToolCalls: boolean
}

/** The native calls of a message: how many, and the keys of those whose arguments are known. */
export interface NativeCallFacts {
  readonly count: number
  readonly keys: ReadonlySet<string>
}

export function settleRecoveredCalls<Call extends RecoveredCall>(
  pending: readonly Call[],
  natives: NativeCallFacts,
  ending: MessageEnding | undefined,
  recoverOnTruncation: boolean,
): Settlement<Call> {
  const outcomes: CallOutcome<Call>[] = []
  const authorized = recoverOnTruncation || (ending !== undefined && ending.kind !== 'other')
  /** Keys already emitted, by channel. */
  const emitted = { text: new Set<string>(), reasoning: new Set<string>() }
  let emittedCount = 0
  const withheld = (entry: Call, kind: 'suppressed-call' | 'duplicate-call', why: string): void => {
    const name = entry.call.name
    outcomes.push({ entry, emitted: false, diagnostic: { kind, text: entry.source, tool: name, message: `Call to "${name}" not emitted: ${why}`, toolCallId: entry.call.id } })
  }
  for (const entry of pending) {
    const key = callKey(entry.call.name, entry.call.arguments)
    if (natives.count > 0) {
      if (natives.keys.has(key)) withheld(entry, 'duplicate-call', 'the same native call was sent')
      else withheld(entry, 'suppressed-call', 'the message has native tool calls')
      continue
    }
    if (!authorized) {
      const why = ending === undefined ? 'the stream ended without a finish' : `the message finished with "${ending.reason}"`
      withheld(entry, 'suppressed-call', `${why} (set recoverOnTruncation to emit it)`)
      continue
    }
    const other = entry.channel === 'text' ? 'reasoning' : 'text'
    if (emitted[other].has(key)) {
      withheld(entry, 'duplicate-call', `the same call was recovered from ${other}`)
      continue
    }
    emitted[entry.channel].add(key)
    emittedCount++
    const name = entry.call.name
    outcomes.push({
      entry,
      emitted: true,
      diagnostic: { kind: 'recovered-call', text: '', tool: name, message: `Recovered a call to "${name}" from ${entry.channel}`, toolCallId: entry.call.id },
    })
  }
  return { outcomes, finishAsToolCalls: emittedCount > 0 && ending?.kind === 'stop' }
}

/** Arguments kept per message to compare native calls with recovered ones; past this a native call counts, its key is unknown. */
const MAX_NATIVE_ARGUMENT_CHARS = 262_144

/**
 * The native calls of one message as their deltas arrive (index, id, name,
 * argument fragments): counted at once, keyed at the settlement.
 */
export class NativeCallLedger implements NativeCallFacts {
  #calls = new Map<number, { name: string; arguments: string; overflow: boolean }>()
  #chars = 0
  #count = 0

  /** A native tool-call delta; a delta with an id or a name starts a call. */
  note(delta: { index: number; id?: string | undefined; name?: string | undefined; arguments?: string | undefined }): void {
    if (delta.id !== undefined || delta.name !== undefined) this.#count++
    let call = this.#calls.get(delta.index)
    if (call === undefined) {
      call = { name: '', arguments: '', overflow: false }
      this.#calls.set(delta.index, call)
    }
    if (delta.name !== undefined && call.name === '') call.name = delta.name
    const fragment = delta.arguments
    if (fragment === undefined || fragment === '' || call.overflow) return
    if (this.#chars + fragment.length > MAX_NATIVE_ARGUMENT_CHARS) {
      call.overflow = true
      return
    }
    this.#chars += fragment.length
    call.arguments += fragment
  }

  get count(): number {
    return this.#count
  }

  get keys(): ReadonlySet<string> {
    const keys = new Set<string>()
    for (const call of this.#calls.values()) if (!call.overflow && call.name !== '') keys.add(callKey(call.name, call.arguments === '' ? {} : call.arguments))
    return keys
  }

  /** The next index free after every native call seen. */
  get nextIndex(): number {
    let next = 0
    for (const index of this.#calls.keys()) if (index >= next) next = index + 1
    return next
  }
}
