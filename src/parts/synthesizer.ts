/**
 * `createToolCallSynthesizer`: turns recovered calls into protocol tool calls
 * at the end of the message (docs/api.md, "one settlement").
 *
 * Recovered calls are held until the `finish` part, so the decision sees the
 * whole message whatever the arrival order. At the finish (or, when no
 * finish came, at the terminator or the end of the stream)
 * `settleRecoveredCalls` decides each one;
 * an emitted call becomes a `synthesized-tool-call` part, indexed after every
 * native call, followed by its `recovered-call` diagnostic, just before the
 * finish, and a `stop` finish becomes `tool_calls`. A withheld call gives its
 * `suppressed-call` or `duplicate-call` diagnostic.
 *
 * Call ids are unique in the stream: a recovered call whose id a native call
 * or another recovered call already has gets a fresh one (`CallIds`).
 *
 * The engine's own `recovered-call` diagnostics (a call was read from
 * markup) are not passed on: what became of each call is reported once, by
 * the settlement.
 */
import { generateCallId } from '../dsml/options.ts'
import { CallIds } from './call-ids.ts'
import type { Part } from './part.ts'
import { type MessageEnding, NativeCallLedger, type RecoveredCall, settleRecoveredCalls } from './settlement.ts'

export interface ToolCallSynthesizerOptions {
  /**
   * Send recovered calls even when the message finished for another reason
   * than `stop` (`length`, `content_filter`…). The finish reason is kept.
   * @default false
   */
  recoverOnTruncation?: boolean
  /** The finish reason that means "the model called tools". @default 'tool_calls' */
  toolCallsFinishReason?: string
  /** The finish reason that recovered calls replace. @default 'stop' */
  stopFinishReason?: string
  /** Makes a fresh id for a recovered call whose id a native or another recovered call of the stream already uses. @default generateCallId */
  generateId?: () => string
}

export interface ToolCallSynthesizer {
  feed(part: Part): Part[]
  end(): Part[]
}

/**
 * The synthesizer as a synchronous core: recovered calls settled at the finish (native calls win,
 * `length` fails closed unless `recoverOnTruncation`), written as tool-call parts with unique ids.
 */
export function createToolCallSynthesizer(options: ToolCallSynthesizerOptions = {}): ToolCallSynthesizer {
  return new Synthesizer(options)
}

/** A class, so that one per open stream pays for its fields only and every instance shares one map. */
class Synthesizer implements ToolCallSynthesizer {
  #toolCalls: string
  #stop: string
  #onTruncation: boolean
  #pending: RecoveredCall[] = []
  /** The ids of the stream's calls, native and recovered: each recovered call gets one no other call has. */
  #ids: CallIds
  #natives: NativeCallLedger | undefined = undefined
  /** Calls were emitted after a stop finish: a later finish of the message (a repeated one) says tool calls too. */
  #finishedWithCalls = false
  /** Calls streamed as they form (`call-streaming.ts`), by the engine's id: the index and id they went out with. */
  #streamed = new Map<string, { index: number; id: string }>()
  /** The message has streamed calls: they went out, and a stop finish says tool calls. */
  #messageStreamed = false
  /** The next index after every call written so far (native calls count through their ledger). */
  #nextIndex = 0

  constructor(options: ToolCallSynthesizerOptions) {
    this.#toolCalls = options.toolCallsFinishReason ?? 'tool_calls'
    this.#stop = options.stopFinishReason ?? 'stop'
    if ('synthesizeOnTruncation' in options) {
      throw new TypeError('Cannot use option "synthesizeOnTruncation": it is named "recoverOnTruncation", as in every entry point')
    }
    const onTruncation = options.recoverOnTruncation === undefined ? false : options.recoverOnTruncation
    // Checked where the option is resolved, for every entry point: the string "true" must not count as false.
    if (typeof onTruncation !== 'boolean') throw new TypeError(`Cannot use option "recoverOnTruncation": expected a boolean, got ${typeof onTruncation}`)
    this.#onTruncation = onTruncation
    this.#ids = new CallIds(options.generateId ?? generateCallId)
  }

  feed(part: Part): Part[] {
    switch (part.type) {
      case 'tool-call-start': {
        // A streamed call cannot wait for the finish: it goes out at once, indexed after every call so far.
        const wire = { index: Math.max(this.#nextIndex, this.#natives?.nextIndex ?? 0), id: this.#ids.unique(part.id) }
        this.#nextIndex = wire.index + 1
        this.#streamed.set(part.id, wire)
        this.#messageStreamed = true
        return [{ type: 'synthesized-tool-call-start', index: wire.index, id: wire.id, name: part.name, channel: part.channel ?? 'text' }]
      }
      case 'tool-call-delta': {
        const wire = this.#streamed.get(part.id)
        return wire === undefined ? [] : [{ type: 'synthesized-tool-call-delta', index: wire.index, id: wire.id, delta: part.delta, channel: part.channel ?? 'text' }]
      }
      case 'tool-call': {
        if (part.streamed) return this.#endStreamed(part)
        // An id another call of the stream has is replaced, on the part too: whoever reads it next sees the call's id.
        const id = this.#ids.unique(part.call.id)
        if (id !== part.call.id) part.call = { ...part.call, id }
        this.#pending.push({ call: part.call, source: part.source, channel: part.channel ?? 'text' })
        return []
      }
      case 'native-tool-call':
        this.#ids.reserve(part.id)
        ;(this.#natives ??= new NativeCallLedger()).note(part)
        return [part]
      case 'diagnostic':
        return part.diagnostic.kind === 'recovered-call' ? [] : [part]
      case 'finish':
        return this.#settle(part)
      case 'done':
      case 'error':
        // The stream's terminator, or an error that ends it, without a finish before it: what is pending is settled before it.
        return [...this.#settle(undefined), part]
      default:
        return [part]
    }
  }

  end(): Part[] {
    return this.#settle(undefined)
  }

  /** A streamed call ends: on the wire under its index and id, reported as recovered (it cannot be taken back). */
  #endStreamed(part: Extract<Part, { type: 'tool-call' }>): Part[] {
    const wire = this.#streamed.get(part.call.id)
    if (wire === undefined) return []
    this.#streamed.delete(part.call.id)
    const call = { ...part.call, id: wire.id }
    const channel = part.channel ?? 'text'
    const name = call.name
    const diagnostic = { kind: 'recovered-call' as const, text: '', tool: name, message: `Recovered a call to "${name}" from ${channel}, streamed as it formed`, toolCallId: wire.id }
    return [{ type: 'synthesized-tool-call-end', index: wire.index, call, channel }, { type: 'diagnostic', diagnostic, channel }]
  }

  #settle(finish: (Part & { type: 'finish' }) | undefined): Part[] {
    const out: Part[] = []
    const pending = this.#pending
    const natives = this.#natives
    this.#pending = []
    this.#natives = undefined
    // Streamed calls went out: a stop finish says tool calls, as the settlement's own calls make it (never on length).
    if (this.#messageStreamed) {
      this.#messageStreamed = false
      if (finish?.reason === this.#stop) this.#finishedWithCalls = true
      if (natives !== undefined && natives.count > 0) {
        const message = 'Calls were streamed as they formed before a native call of the message came: both are kept (a streamed call cannot be taken back)'
        out.push({ type: 'diagnostic', diagnostic: { kind: 'streamed-call-kept', text: '', message } })
      }
    }
    // The message ends: the next one's calls are indexed from 0 again.
    const firstIndex = Math.max(this.#nextIndex, natives?.nextIndex ?? 0)
    this.#nextIndex = 0
    if (pending.length === 0) {
      if (finish !== undefined) out.push(this.#finishedWithCalls && finish.reason === this.#stop ? { type: 'finish', reason: this.#toolCalls, origin: finish.origin } : finish)
      return out
    }
    const ending: MessageEnding | undefined =
      finish === undefined
        ? undefined
        : { kind: finish.reason === this.#stop ? 'stop' : finish.reason === this.#toolCalls ? 'tool-calls' : 'other', reason: finish.reason }
    const settlement = settleRecoveredCalls(pending, natives ?? NO_NATIVES, ending, this.#onTruncation)
    let index = firstIndex
    for (const { entry, emitted, diagnostic } of settlement.outcomes) {
      if (emitted) out.push({ type: 'synthesized-tool-call', index: index++, call: entry.call, channel: entry.channel })
      out.push({ type: 'diagnostic', diagnostic, channel: entry.channel })
    }
    if (settlement.finishAsToolCalls) this.#finishedWithCalls = true
    if (finish !== undefined) out.push(this.#finishedWithCalls && finish.reason === this.#stop ? { type: 'finish', reason: this.#toolCalls, origin: finish.origin } : finish)
    return out
  }
}

const NO_NATIVES = { count: 0, keys: new Set<string>() }
