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
      case 'tool-call': {
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

  #settle(finish: (Part & { type: 'finish' }) | undefined): Part[] {
    const out: Part[] = []
    const pending = this.#pending
    const natives = this.#natives
    this.#pending = []
    this.#natives = undefined
    if (pending.length === 0) {
      if (finish !== undefined) out.push(this.#finishedWithCalls && finish.reason === this.#stop ? { type: 'finish', reason: this.#toolCalls, origin: finish.origin } : finish)
      return out
    }
    const ending: MessageEnding | undefined =
      finish === undefined
        ? undefined
        : { kind: finish.reason === this.#stop ? 'stop' : finish.reason === this.#toolCalls ? 'tool-calls' : 'other', reason: finish.reason }
    const settlement = settleRecoveredCalls(pending, natives ?? NO_NATIVES, ending, this.#onTruncation)
    let index = natives?.nextIndex ?? 0
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
