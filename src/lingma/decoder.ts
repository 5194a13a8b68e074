/**
 * `createLingmaDecoder`: a Lingma upstream body (bytes or text) → neutral
 * parts, in groups closed by `chunk-end` whose origins are standard chat
 * chunks (see `ChunkGroups`).
 *
 * - Frames are read line by line: `data:` with or without a space, bare
 *   payloads, `event:` naming the next data line (`finish`, `error`, `ping`).
 * - The double-JSON body (string or object) or a bare chunk; choice 0's
 *   `delta` (or `message`) gives reasoning, content, native calls, finish.
 *   A native call's delta gets index 0 when its index is no whole number,
 *   and `type: "function"` on its first delta (the one with its id) when
 *   the upstream left it out: OpenAI's SDK stream readers need both.
 * - `<thought>…</thought>` in content goes to reasoning (`ThoughtTagSplitter`).
 * - Usage from any frame, in any alias spelling, normalised; all-zero
 *   placeholder usage is skipped.
 * - A timing frame (`firstTokenDuration` / `totalDuration` /
 *   `serverDuration`, or any frame after `event:finish`) or `[DONE]` without
 *   an earlier `finish_reason` finishes the message: `tool_calls` when a
 *   native call was seen, else `stop`. A timing frame after a finish gives
 *   only its usage.
 * - Error envelopes become one `error` part (an OpenAI-style error with its
 *   status); the stream is over then, later frames are ignored.
 * - Every `[DONE]` form ends the stream; without one, `end()` gives an
 *   unexpected-EOF error, never a made-up finish.
 */
import type { ChatToolCallDelta } from '../chat-completions/types.ts'
import type { Part } from '../parts/part.ts'
import { ChunkGroups, type GroupTail, type LingmaEnvelopeDefaults } from './chunk-groups.ts'
import { openEnvelope, stripSsePrefix } from './envelope.ts'
import { isRecord } from '../records.ts'
import { errorOfFrame, type LingmaErrorInfo, toChatCompletionsError, UNEXPECTED_EOF } from './errors.ts'
import { createLineReader, LineTooLongError, type LineReader } from './lines.ts'
import { type ChannelText, createThoughtTagSplitter, type ThoughtTagSplitter } from './thought-tags.ts'
import { isEmptyUsage, normalizeUsage } from './usage.ts'

export interface LingmaDecoderOptions extends LingmaEnvelopeDefaults {
  /** Longest line, in characters; past it the stream ends with an error. @default 8_388_608 */
  maxLineChars?: number
}

/** Nesting past which a frame is unreadable. */
const MAX_DEPTH = 64

/** Does `value` nest objects or arrays deeper than `limit`? Iterative: no recursion on hostile input. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth > limit) return true
    for (const child of Array.isArray(current) ? current : Object.values(current)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}

export interface LingmaDecoder {
  feed(chunk: string | Uint8Array): Part[]
  end(): Part[]
}

/**
 * The Lingma decoder as a synchronous core: envelope lines in, neutral parts out (thought tags as
 * reasoning, errors and usage read).
 */
export function createLingmaDecoder(options: LingmaDecoderOptions = {}): LingmaDecoder {
  const maxLineChars = options.maxLineChars ?? 8_388_608
  if (!Number.isInteger(maxLineChars) || maxLineChars < 1) {
    throw new TypeError(`Cannot use option "maxLineChars": expected a positive integer, got ${String(maxLineChars)}`)
  }
  return new Decoder(options, maxLineChars)
}

const TIMING_KEYS = ['firstTokenDuration', 'totalDuration', 'serverDuration']

function isTimingFrame(inner: Record<string, unknown>): boolean {
  for (const key of TIMING_KEYS) if (inner[key] !== undefined) return true
  return false
}

/** Choice 0 (or the first choice without an index). */
function primaryChoice(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined
  for (const choice of choices) if (isRecord(choice) && (choice.index === 0 || choice.index === undefined)) return choice
  return undefined
}

function toolCallsOf(delta: Record<string, unknown>): ChatToolCallDelta[] {
  const calls = delta.tool_calls
  if (!Array.isArray(calls)) return []
  const out: ChatToolCallDelta[] = []
  for (const call of calls) {
    if (!isRecord(call)) continue
    const delta = { ...call, index: typeof call.index === 'number' && Number.isInteger(call.index) && call.index >= 0 ? call.index : 0 } as ChatToolCallDelta
    // A call's first delta (the one with its id) says its type, as OpenAI's do: SDK stream readers require it.
    if (typeof call.id === 'string' && call.type === undefined) delta.type = 'function'
    out.push(delta)
  }
  return out
}

/** A class, so that one per open stream pays for its fields only. */
class Decoder implements LingmaDecoder {
  #lines: LineReader
  #thoughts: ThoughtTagSplitter = createThoughtTagSplitter()
  #groups: ChunkGroups
  /** The `event:` field naming the next data line. */
  #event: string | undefined = undefined
  /** The message has its finish. */
  #finished = false
  #sawNativeCall = false
  /** `[DONE]` or an error came: nothing more is read. */
  #over = false

  constructor(options: LingmaDecoderOptions, maxLineChars: number) {
    this.#lines = createLineReader(maxLineChars)
    this.#groups = new ChunkGroups(options)
  }

  feed(chunk: string | Uint8Array): Part[] {
    const out: Part[] = []
    if (this.#over) return out
    let lines: string[]
    try {
      lines = this.#lines.feed(chunk)
    } catch (error) {
      if (!(error instanceof LineTooLongError)) throw error
      // The lines completed before the long one first, as when they come in a read of their own.
      for (const line of error.lines) if (!this.#over) this.#line(line, out)
      if (!this.#over) this.#fail(out, '', { status: 502, message: error.message, type: 'api_error', code: 'line_too_long' })
      return out
    }
    for (const line of lines) this.#line(line, out)
    return out
  }

  end(): Part[] {
    const out: Part[] = []
    if (this.#over) return out
    for (const line of this.#lines.end()) this.#line(line, out)
    if (!this.#over) this.#fail(out, '', UNEXPECTED_EOF)
    return out
  }

  #line(line: string, out: Part[]): void {
    if (this.#over) return
    const trimmed = line.trim()
    if (trimmed === '') {
      this.#event = undefined
      return
    }
    if (trimmed.charCodeAt(0) === 0x3a) {
      out.push({ type: 'comment', comment: trimmed.slice(1).trimStart() })
      return
    }
    if (trimmed.startsWith('event:')) {
      this.#event = trimmed.slice(6).trim().toLowerCase()
      return
    }
    if (trimmed.startsWith('id:') || trimmed.startsWith('retry:')) return
    const data = stripSsePrefix(trimmed) ?? ''
    const event = this.#event
    this.#event = undefined
    if (data !== '') this.#frame(data, event, out)
  }

  #frame(data: string, event: string | undefined, out: Part[]): void {
    if (event === 'ping') {
      out.push({ type: 'comment', comment: 'ping' })
      return
    }
    const frame = openEnvelope(data)
    if (frame.kind === 'done') {
      this.#done(data, out)
      return
    }
    if (frame.kind === 'unreadable') {
      if (event === 'error') this.#fail(out, data, { status: 502, message: data, type: 'api_error', code: '' })
      else this.#unreadable(data, undefined, out)
      return
    }
    // Too deep to write back (JSON.stringify recurses): unreadable, never a stack overflow.
    if (nestedDeeperThan(frame.outer, MAX_DEPTH) || nestedDeeperThan(frame.inner, MAX_DEPTH)) {
      this.#unreadable(data, undefined, out)
      return
    }
    const error = errorOfFrame(frame.outer, frame.inner, event === 'error')
    if (error !== undefined) {
      this.#fail(out, data, error)
      return
    }
    const inner = frame.inner
    if (!isRecord(inner)) {
      this.#unreadable(data, undefined, out)
      return
    }
    if (event === 'finish' || isTimingFrame(inner)) {
      // A finish or timing frame that also carries choices: their text first, like any chunk's.
      if (Array.isArray(inner.choices) && inner.choices.length > 0) {
        this.#chunk(data, inner, out)
        this.#finishMetadata(data, {}, out)
      } else {
        this.#finishMetadata(data, inner, out)
      }
    }
    else if (Array.isArray(inner.choices) || inner.usage !== undefined || inner.id !== undefined || inner.model !== undefined) this.#chunk(data, inner, out)
    else this.#unreadable(data, inner, out)
  }

  #chunk(data: string, inner: Record<string, unknown>, out: Part[]): void {
    this.#groups.note(inner)
    const choice = primaryChoice(inner.choices)
    const delta = isRecord(choice?.delta) ? choice.delta : isRecord(choice?.message) ? choice.message : undefined
    const runs: ChannelText[] = []
    let toolCalls: ChatToolCallDelta[] = []
    if (delta !== undefined) {
      if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') runs.push({ channel: 'reasoning', text: delta.reasoning_content })
      if (typeof delta.content === 'string') runs.push(...this.#thoughts.feed(delta.content))
      toolCalls = toolCallsOf(delta)
    }
    const finishReason = typeof choice?.finish_reason === 'string' && choice.finish_reason !== '' ? choice.finish_reason : undefined
    const tail: GroupTail = { usage: this.#usage(inner) }
    if (runs.length > 0 || toolCalls.length > 0) this.#finished = false
    if (toolCalls.length > 0) {
      this.#sawNativeCall = true
      tail.toolCalls = toolCalls
    }
    if (finishReason !== undefined) {
      runs.push(...this.#thoughts.end())
      tail.finishReason = finishReason
      this.#finished = true
      this.#sawNativeCall = false
    }
    if (runs.length === 0 && tail.toolCalls === undefined && tail.finishReason === undefined && tail.usage === undefined) {
      // A frame that only says which message this is ({id, model}): the assistant's first chunk.
      if (inner.id !== undefined || inner.model !== undefined || typeof delta?.role === 'string') this.#groups.start(out, data)
      return
    }
    this.#groups.write(out, data, merge(runs), tail)
  }

  #usage(inner: Record<string, unknown>): GroupTail['usage'] {
    const usage = normalizeUsage(inner.usage)
    return usage === undefined || isEmptyUsage(usage) ? undefined : usage
  }

  /** A timing frame (or the frame after `event:finish`): its usage, and the finish if none came. */
  #finishMetadata(data: string, inner: Record<string, unknown>, out: Part[]): void {
    const runs = this.#thoughts.end()
    const tail: GroupTail = { usage: this.#usage(inner) }
    if (!this.#finished) tail.finishReason = this.#synthesizedFinish()
    if (runs.length === 0 && tail.finishReason === undefined && tail.usage === undefined) return
    this.#groups.write(out, data, runs, tail)
  }

  #synthesizedFinish(): string {
    const reason = this.#sawNativeCall ? 'tool_calls' : 'stop'
    this.#finished = true
    this.#sawNativeCall = false
    return reason
  }

  #done(data: string, out: Part[]): void {
    const runs = this.#thoughts.end()
    if (!this.#finished) this.#groups.write(out, data, runs, { finishReason: this.#synthesizedFinish() })
    else if (runs.length > 0) this.#groups.write(out, data, runs, {})
    this.#groups.done(out, data)
    this.#over = true
  }

  #fail(out: Part[], data: string, error: LingmaErrorInfo): void {
    const runs = this.#thoughts.end()
    if (runs.length > 0) this.#groups.write(out, data, runs, {})
    this.#groups.error(out, data, toChatCompletionsError(error))
    this.#over = true
  }

  #unreadable(data: string, chunk: unknown, out: Part[]): void {
    this.#groups.passthrough(out, data, chunk)
    out.push({
      type: 'diagnostic',
      diagnostic: { kind: 'malformed-chunk', text: '', message: 'A Lingma frame was not one this decoder reads; kept as it came' },
    })
  }
}

/** Adjacent runs of one channel as one. */
function merge(runs: readonly ChannelText[]): ChannelText[] {
  const out: ChannelText[] = []
  for (const run of runs) {
    if (run.text === '') continue
    const last = out[out.length - 1]
    if (last !== undefined && last.channel === run.channel) last.text += run.text
    else out.push({ ...run })
  }
  return out
}
