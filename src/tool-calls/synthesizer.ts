/**
 * `createToolCallSynthesizer`: turns recovered calls into protocol tool calls
 * at the end of the message (DESIGN.md §5.6–5.7).
 *
 * Recovered calls are held until the `finish` part, so the decision sees the
 * whole message whatever the arrival order:
 * - native tool calls in the message → recovered calls are not sent
 *   (`suppressed-call`), the markup is still gone;
 * - finish `stop` (or `tool_calls`) → each call is sent, indexed after any
 *   native call, just before the finish, and `stop` becomes `tool_calls`;
 * - finish `length`, `content_filter` or anything else → nothing is sent
 *   (fail closed) unless `recoverOnTruncation` is set;
 * - no finish at all (the stream was cut) → nothing is sent.
 */
import { callKey } from '../dsml/arguments.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { Part } from '../parts.ts'

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
}

export interface ToolCallSynthesizer {
  feed(part: Part): Part[]
  end(): Part[]
}

type RecoveredCall = Extract<Part, { type: 'tool-call' }>

function suppressed(call: RecoveredCall, message: string): Part {
  const diagnostic: Diagnostic = { kind: 'suppressed-call', text: '', tool: call.call.name, message }
  return call.channel === undefined ? { type: 'diagnostic', diagnostic } : { type: 'diagnostic', diagnostic, channel: call.channel }
}

export function createToolCallSynthesizer(options: ToolCallSynthesizerOptions = {}): ToolCallSynthesizer {
  return new Synthesizer(options)
}

/** A class, so that one per open stream pays for its fields only and every instance shares one map. */
class Synthesizer implements ToolCallSynthesizer {
  #toolCalls: string
  #stop: string
  #onTruncation: boolean
  #pending: RecoveredCall[] = []
  #nativeCount = 0
  #nativeNextIndex = 0

  constructor(options: ToolCallSynthesizerOptions) {
    this.#toolCalls = options.toolCallsFinishReason ?? 'tool_calls'
    this.#stop = options.stopFinishReason ?? 'stop'
    if ('synthesizeOnTruncation' in options) {
      throw new TypeError('Cannot use option "synthesizeOnTruncation": it is named "recoverOnTruncation", as in every entry point')
    }
    this.#onTruncation = options.recoverOnTruncation === true
  }

  feed(part: Part): Part[] {
    switch (part.type) {
      case 'tool-call':
        this.#pending.push(part)
        return []
      case 'native-tool-call':
        if (part.id !== undefined || part.name !== undefined) this.#nativeCount++
        if (part.index >= this.#nativeNextIndex) this.#nativeNextIndex = part.index + 1
        return [part]
      case 'finish':
        return this.#atFinish(part)
      default:
        return [part]
    }
  }

  end(): Part[] {
    const calls = this.#pending
    this.#pending = []
    return calls.map((call) => suppressed(call, `Call to "${call.call.name}" not sent: the stream ended without a finish`))
  }

  #atFinish(part: Part & { type: 'finish' }): Part[] {
    const calls = this.#pending
    if (calls.length === 0) return [part]
    this.#pending = []
    if (this.#nativeCount > 0) {
      return [...calls.map((call) => suppressed(call, `Call to "${call.call.name}" not sent: the message has native tool calls`)), part]
    }
    const authorized = part.reason === this.#stop || part.reason === this.#toolCalls
    if (!authorized && !this.#onTruncation) {
      return [...calls.map((call) => suppressed(call, `Call to "${call.call.name}" not sent: the message finished with "${part.reason}"`)), part]
    }
    const out: Part[] = []
    // Reasoning is sometimes repeated byte for byte in the answer: the same call from both channels runs once.
    const emitted = { text: new Set<string>(), reasoning: new Set<string>() }
    let sent = 0
    for (const call of calls) {
      const channel = call.channel ?? 'text'
      const key = callKey(call.call.name, call.call.arguments)
      if ((channel === 'text' ? emitted.reasoning : emitted.text).has(key)) {
        out.push(suppressed(call, `Call to "${call.call.name}" not sent twice: the same call was recovered from the other channel`))
        continue
      }
      emitted[channel].add(key)
      out.push({ type: 'synthesized-tool-call', index: this.#nativeNextIndex + sent, call: call.call })
      sent++
    }
    out.push(part.reason === this.#stop ? { type: 'finish', reason: this.#toolCalls, origin: part.origin } : part)
    return out
  }
}
