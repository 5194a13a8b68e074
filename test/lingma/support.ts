/**
 * Helpers of the Lingma suites: run the converter over a body (whole, in
 * given reads, or split at a byte offset) and read what a Chat Completions
 * client would read from its output.
 */
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import { createLingmaToChatCompletions, type LingmaToChatCompletionsOptions } from '../../src/lingma/index.ts'
import { assert, assertEqual } from '../support/assert.ts'

const utf8 = new TextEncoder()

/** Deterministic envelope and ids, so whole and split runs give the same bytes. */
export function testOptions(extra: LingmaToChatCompletionsOptions = {}): LingmaToChatCompletionsOptions {
  let next = 0
  return { id: 'chatcmpl-test-id', created: 1, generateId: () => `call_recovered_${next++}`, ...extra }
}

/** The output of each read, then of `end()` (last). */
export function convertReads(reads: readonly (string | Uint8Array)[], options: LingmaToChatCompletionsOptions = testOptions()): string[] {
  const converter = createLingmaToChatCompletions(options)
  const out = reads.map((read) => converter.feed(read))
  out.push(converter.end())
  return out
}

export function convert(body: string, options?: LingmaToChatCompletionsOptions): string {
  return convertReads([body], options).join('')
}

/** The body as UTF-8 split at byte `offset` (a character may be cut in two). */
export function convertSplitAt(body: string, offset: number, options?: LingmaToChatCompletionsOptions): string {
  const bytes = utf8.encode(body)
  return convertReads([bytes.subarray(0, offset), bytes.subarray(offset)], options).join('')
}

export interface ToolCallSeen {
  index: number
  id: string
  name: string
  arguments: string
}

export interface ClientView {
  /** Every `data:` payload, parsed (`[DONE]` as the string). */
  messages: unknown[]
  chunks: Record<string, any>[]
  text: string
  reasoning: string
  calls: ToolCallSeen[]
  finishReasons: string[]
  usage: unknown
  errors: Record<string, any>[]
  done: boolean
}

/** What a client reads: the SSE split into events, each `data:` parsed, deltas accumulated. */
export function readClientView(sse: string): ClientView {
  const view: ClientView = { messages: [], chunks: [], text: '', reasoning: '', calls: [], finishReasons: [], usage: undefined, errors: [], done: false }
  for (const event of sse.split('\n\n')) {
    const data = event
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6))
      .join('\n')
    if (data === '') continue
    if (data === '[DONE]') {
      view.messages.push(data)
      view.done = true
      continue
    }
    const message = JSON.parse(data) as Record<string, any>
    view.messages.push(message)
    if (message.error !== undefined) {
      view.errors.push(message.error)
      continue
    }
    view.chunks.push(message)
    assertEqual(message.object, 'chat.completion.chunk', 'every chunk is a chat.completion.chunk')
    if (message.usage !== undefined) view.usage = message.usage
    const choice = message.choices[0]
    if (choice === undefined) continue
    if (typeof choice.delta.content === 'string') view.text += choice.delta.content
    if (typeof choice.delta.reasoning_content === 'string') view.reasoning += choice.delta.reasoning_content
    for (const call of choice.delta.tool_calls ?? []) {
      let seen = view.calls.find((existing) => existing.index === call.index)
      if (seen === undefined) {
        seen = { index: call.index, id: '', name: '', arguments: '' }
        view.calls.push(seen)
      }
      if (typeof call.id === 'string') seen.id = call.id
      if (typeof call.function?.name === 'string') seen.name += call.function.name
      if (typeof call.function?.arguments === 'string') seen.arguments += call.function.arguments
    }
    if (typeof choice.finish_reason === 'string') view.finishReasons.push(choice.finish_reason)
  }
  return view
}

/** The output is the same bytes whether the body comes whole or split at any byte offset. */
export function assertEverySplitGivesTheSame(body: string, options: () => LingmaToChatCompletionsOptions = testOptions): string {
  const whole = convert(body, options())
  const length = utf8.encode(body).length
  for (let offset = 0; offset <= length; offset++) {
    const split = convertSplitAt(body, offset, options())
    if (split !== whole) assertEqual(split, whole, `split at byte ${offset} differs from the whole body`)
  }
  return whole
}

/** No markup a sanitizer should have removed reached the text. */
export function assertNoMarkup(view: ClientView): void {
  assert(!containsDsmlSentinel(view.text), 'no DSML sentinel in the text')
  assert(!view.text.includes('<tool_call') && !view.text.includes('</tool_call'), `no tool_call markup in the text: ${view.text}`)
}

/** A Lingma frame whose delta is `delta` (a bare chunk after `data:`). */
export function frame(delta: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({ choices: [{ delta, ...extra }] })}\n\n`
}

export const NATIVE_CALL = { index: 0, id: 'call_native', type: 'function', function: { name: 'native_tool', arguments: '{"path":"native.md"}' } }
