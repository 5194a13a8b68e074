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
 *   (fail closed) unless `synthesizeOnTruncation` is set;
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
  synthesizeOnTruncation?: boolean
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
  const toolCalls = options.toolCallsFinishReason ?? 'tool_calls'
  const stop = options.stopFinishReason ?? 'stop'
  let pending: RecoveredCall[] = []
  let nativeCount = 0
  let nativeNextIndex = 0

  function atFinish(part: Part & { type: 'finish' }): Part[] {
    const calls = pending
    pending = []
    if (calls.length === 0) return [part]
    if (nativeCount > 0) {
      return [...calls.map((call) => suppressed(call, `Call to "${call.call.name}" not sent: the message has native tool calls`)), part]
    }
    const authorized = part.reason === stop || part.reason === toolCalls
    if (!authorized && options.synthesizeOnTruncation !== true) {
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
      out.push({ type: 'synthesized-tool-call', index: nativeNextIndex + sent, call: call.call })
      sent++
    }
    out.push(part.reason === stop ? { type: 'finish', reason: toolCalls, origin: part.origin } : part)
    return out
  }

  return {
    feed(part) {
      switch (part.type) {
        case 'tool-call':
          pending.push(part)
          return []
        case 'native-tool-call':
          if (part.id !== undefined || part.name !== undefined) nativeCount++
          if (part.index >= nativeNextIndex) nativeNextIndex = part.index + 1
          return [part]
        case 'finish':
          return atFinish(part)
        default:
          return [part]
      }
    },
    end() {
      const calls = pending
      pending = []
      return calls.map((call) => suppressed(call, `Call to "${call.call.name}" not sent: the stream ended without a finish`))
    },
  }
}
