/**
 * OpenAI Responses API framing for tests (the replay upstream's
 * `responsesEvents`, so tests and `npm start` frame captures alike), and a
 * reader that folds repaired SSE into what a client accumulates, checking
 * sequence numbers and output indexes on the way.
 */
import { createSseDecoder, isSseComment } from '../../src/sse/index.ts'
import { createResponsesRepair } from '../../src/responses/index.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import type { ResponsesRepairOptions } from '../../src/responses/repair.ts'

import { responsesEvents as responsesMessages } from '../../src/responses/stream-events.ts'
import { encodeSseMessage } from '../../src/sse/index.ts'

/** The replay upstream's Responses stream of `deltas`, as the SSE text of each event. */
export function responsesEvents(id: string, model: string, deltas: readonly string[], prompt: number, created: number): string[] {
  return responsesMessages(id, model, deltas, prompt, created).map(encodeSseMessage)
}

export interface FoldedResponse {
  /** Text of the message items, from their deltas. */
  text: string
  /** Function-call items, as `output_item.done` gives them. */
  calls: Array<{ call_id: unknown; name: unknown; arguments: unknown }>
  /** The `output` of the final `response.completed` (or `incomplete`). */
  output: Array<Record<string, unknown>> | undefined
  status: string | undefined
  /** Every text an event carries (deltas, done texts, items, the final output), for the marker check. */
  allText: string
  faults: string[]
}

export function foldResponses(sse: string): FoldedResponse {
  const decoder = createSseDecoder()
  const messages = [...decoder.feed(sse), ...decoder.end()]
  const faults: string[] = []
  let text = ''
  const calls: FoldedResponse['calls'] = []
  let output: FoldedResponse['output']
  let status: string | undefined
  let sequence = 0
  const added = new Set<number>()
  for (const message of messages) {
    if (isSseComment(message)) continue
    const data = JSON.parse(message.data) as Record<string, unknown> & { type: string }
    if (message.event !== data.type) faults.push(`event name ${String(message.event)} ≠ type ${data.type}`)
    if (data.sequence_number !== sequence) faults.push(`sequence_number ${String(data.sequence_number)}, expected ${sequence}`)
    sequence++
    switch (data.type) {
      case 'response.output_item.added': {
        const index = data.output_index as number
        if (added.has(index)) faults.push(`output index ${index} added twice`)
        added.add(index)
        break
      }
      case 'response.output_text.delta':
        text += String(data.delta)
        break
      case 'response.output_item.done': {
        const item = data.item as Record<string, unknown>
        if (item.type === 'function_call') calls.push({ call_id: item.call_id, name: item.name, arguments: JSON.parse(String(item.arguments)) as unknown })
        break
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = data.response as { output: Array<Record<string, unknown>>; status: string }
        output = response.output
        status = response.status
        break
      }
      default:
        break
    }
  }
  return { text, calls, output, status, allText: messages.map((message) => ('data' in message ? message.data : '')).join('\n'), faults }
}

export interface ResponsesRun {
  output: string
  diagnostics: Diagnostic[]
}

/** Deterministic ids: `call_1`, `call_2`, … */
export function callIds(): () => string {
  let counter = 0
  return () => `call_${++counter}`
}

export function repairResponses(chunks: Iterable<string | Uint8Array>, options: ResponsesRepairOptions = {}): ResponsesRun {
  const diagnostics: Diagnostic[] = []
  const repair = createResponsesRepair({ generateId: callIds(), ...options, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) })
  let output = ''
  for (const chunk of chunks) output += repair.feed(chunk) ?? repair.text()
  output += repair.end()
  return { output, diagnostics }
}
