/**
 * Helpers for the Chat Completions suites: chunk and SSE builders, the fused
 * core run over byte chunkings, the fused and the six composed streams,
 * a reader of repaired SSE, and a portable fixture-file reader.
 *
 * No node: imports: these suites also run under Deno and Bun. Streams are
 * built with `new ReadableStream({ start })` and read with getReader() loops.
 */
import { createSseDecoder, isSseComment, SseDecoderStream, SseEncoderStream } from '../../src/sse/index.ts'
import { DsmlPartSanitizerStream, ToolCallSynthesizerStream } from '../../src/parts/index.ts'
import {
  ChatCompletionsDecoderStream,
  ChatCompletionsEncoderStream,
  ChatCompletionsRepairStream,
  createChatCompletionsRepair,
} from '../../src/chat-completions/index.ts'
import type { ChatCompletionsRepairOptions } from '../../src/chat-completions/repair.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import type { SseMessage } from '../../src/sse/types.ts'
import { collect, collectUntilError, streamOf } from '../support/streams.ts'
import { readTestFile } from '../support/test-files.ts'
export { collect, collectUntilError, streamOf }

// ---------------------------------------------------------------- upstream builders

/** The envelope every built chunk carries (DeepSeek style). */
export const ENVELOPE = {
  id: 'chatcmpl-test-1',
  object: 'chat.completion.chunk',
  created: 1754550000,
  model: 'deepseek-v4-flash',
  system_fingerprint: 'fp_test_prod0820',
} as const

/** One chunk's JSON: the envelope, one choice 0 with `delta`, `logprobs: null`, and `extra` top-level keys. */
export function chunkJson(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })
}

/** `data: <json>\n\n` for one chunk (see `chunkJson`). */
export function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  return data(chunkJson(delta, finish, extra))
}

/** `data: <text>\n\n`. */
export function data(text: string): string {
  return `data: ${text}\n\n`
}

export const ROLE = chunk({ role: 'assistant', content: '' })
export const STOP = chunk({ content: '' }, 'stop')
export const USAGE = { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 12 }
export const USAGE_CHUNK = data(JSON.stringify({ ...ENVELOPE, choices: [], usage: USAGE }))
export const DONE = data('[DONE]')

/** A text delta chunk. */
export function text(content: string): string {
  return chunk({ content })
}

/** A reasoning delta chunk (DeepSeek: `content: null` beside `reasoning_content`). */
export function reasoning(content: string): string {
  return chunk({ content: null, reasoning_content: content })
}

/** A native tool-call delta chunk: the first delta of a call (id, type, name, arguments). */
export function nativeCall(index: number, id: string, name: string, args: string): string {
  return chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] })
}

/** A whole upstream answer: role chunk, one chunk per text piece, finish, usage chunk, [DONE]. */
export function answer(pieces: readonly string[], finish = 'stop'): string {
  return ROLE + pieces.map(text).join('') + chunk({ content: '' }, finish) + USAGE_CHUNK + DONE
}

// ---------------------------------------------------------------- running the repair

export function utf8(value: string): Uint8Array {
  return new TextEncoder().encode(value)
}

export function fromUtf8(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes)
}

/** Deterministic ids: `call_1`, `call_2`, … per instance. */
export function counterIds(prefix = 'call_'): () => string {
  let counter = 0
  return () => `${prefix}${++counter}`
}

export interface RepairRun {
  output: string
  diagnostics: Diagnostic[]
}

/** The fused core over `chunks` (strings or bytes), deterministic ids unless given. */
export function repairChunks(chunks: Iterable<string | Uint8Array>, options: ChatCompletionsRepairOptions = {}): RepairRun {
  const diagnostics: Diagnostic[] = []
  const repair = createChatCompletionsRepair({
    generateId: counterIds(),
    ...options,
    onDiagnostic: (diagnostic) => {
      diagnostics.push(diagnostic)
      options.onDiagnostic?.(diagnostic)
    },
  })
  let output = ''
  for (const piece of chunks) output += repair.feed(piece)
  output += repair.end()
  return { output, diagnostics }
}

/** Shortcut: the fused core over one whole string. */
export function repair(input: string, options: ChatCompletionsRepairOptions = {}): RepairRun {
  return repairChunks([input], options)
}

/** Byte chunks cut at `offsets` (sorted, unique, inside the input). */
export function cutAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = []
  let previous = 0
  for (const offset of offsets) {
    if (offset <= previous || offset >= bytes.length) continue
    out.push(bytes.subarray(previous, offset))
    previous = offset
  }
  out.push(bytes.subarray(previous))
  return out
}

/** Deterministic pseudo-random cut offsets (pieces of 1 to `max` bytes). */
export function randomCuts(length: number, seed: number, max: number): number[] {
  const cuts: number[] = []
  let state = seed >>> 0 || 1
  let at = 0
  while (true) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    at += 1 + ((state >>> 16) % max)
    if (at >= length) return cuts
    cuts.push(at)
  }
}

/** 1..length-1, or an evenly spread sample of at most `limit` of them (always including 1 and length-1). */
export function splitOffsets(length: number, limit: number): number[] {
  if (length <= 1) return []
  if (length - 1 <= limit) return Array.from({ length: length - 1 }, (_, index) => index + 1)
  const offsets = new Set<number>([1, length - 1])
  const step = (length - 2) / (limit - 1)
  for (let index = 0; index < limit; index++) offsets.add(1 + Math.round(index * step))
  return [...offsets].filter((offset) => offset >= 1 && offset < length).sort((a, b) => a - b)
}

// ---------------------------------------------------------------- streams




export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const piece of chunks) length += piece.length
  const out = new Uint8Array(length)
  let at = 0
  for (const piece of chunks) {
    out.set(piece, at)
    at += piece.length
  }
  return out
}

/** `ChatCompletionsRepairStream` over `chunks`; the output bytes joined. */
export async function fusedBytes(chunks: readonly (string | Uint8Array)[], options: ChatCompletionsRepairOptions = {}): Promise<Uint8Array> {
  const stream = streamOf(chunks).pipeThrough(new ChatCompletionsRepairStream({ generateId: counterIds(), ...options }))
  return concatBytes(await collect(stream))
}

/**
 * The six composed stages — SseDecoderStream → ChatCompletionsDecoderStream →
 * DsmlPartSanitizerStream → ToolCallSynthesizerStream → ChatCompletionsEncoderStream
 * → SseEncoderStream; the output bytes joined.
 */
export async function composedBytes(chunks: readonly (string | Uint8Array)[], options: ChatCompletionsRepairOptions = {}): Promise<Uint8Array> {
  const withIds = { generateId: counterIds(), ...options }
  const stream = streamOf(chunks)
    .pipeThrough(new SseDecoderStream(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize }))
    .pipeThrough(new ChatCompletionsDecoderStream())
    .pipeThrough(new DsmlPartSanitizerStream(withIds))
    .pipeThrough(new ToolCallSynthesizerStream(withIds))
    .pipeThrough(new ChatCompletionsEncoderStream())
    .pipeThrough(new SseEncoderStream())
  return concatBytes(await collect(stream))
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false
  return true
}

/** Where two byte arrays first differ, shown as text around it (for failure messages). */
export function firstDifference(a: Uint8Array, b: Uint8Array): string {
  let index = 0
  while (index < a.length && index < b.length && a[index] === b[index]) index++
  const around = (bytes: Uint8Array): string => JSON.stringify(fromUtf8(bytes.subarray(Math.max(0, index - 60), index + 60)))
  return `first difference at byte ${index} (lengths ${a.length}, ${b.length}):\n  ${around(a)}\n  ${around(b)}`
}

// ---------------------------------------------------------------- reading repaired SSE

export interface WireCall {
  index: number
  id: string | undefined
  type: string | undefined
  name: string
  arguments: string
}

export interface Repaired {
  /** Every SSE message, in order. */
  messages: SseMessage[]
  /** The data of every event message, in order. */
  data: string[]
  /** Parsed JSON chunks (non-JSON data and [DONE] left out). */
  chunks: Array<Record<string, unknown>>
  /** choice 0 `content` deltas joined. */
  content: string
  /** choice 0 `reasoning_content` deltas joined. */
  reasoning: string
  /** choice 0 tool calls, gathered per index (arguments fragments concatenated), in first-seen order. */
  calls: WireCall[]
  /** Every non-null choice 0 finish reason, in order. */
  finishReasons: string[]
  /** Every non-null `usage`, in order. */
  usages: unknown[]
  /** Comments, in order. */
  comments: string[]
  /** How many `[DONE]` messages; whether the last event message is one. */
  doneCount: number
  doneLast: boolean
}

/** Decodes repaired SSE text (with the library's SSE decoder) and gathers what a client would see. */
export function readRepaired(output: string): Repaired {
  const decoder = createSseDecoder({ maxBufferSize: Math.max(output.length + 1, 1) })
  const messages = [...decoder.feed(output), ...decoder.end()]
  const result: Repaired = {
    messages,
    data: [],
    chunks: [],
    content: '',
    reasoning: '',
    calls: [],
    finishReasons: [],
    usages: [],
    comments: [],
    doneCount: 0,
    doneLast: false,
  }
  const byIndex = new Map<number, WireCall>()
  for (const message of messages) {
    if (isSseComment(message)) {
      result.comments.push(message.comment)
      continue
    }
    result.data.push(message.data)
    result.doneLast = message.data === '[DONE]'
    if (message.data === '[DONE]') {
      result.doneCount++
      continue
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(message.data)
    } catch {
      continue
    }
    if (parsed === null || typeof parsed !== 'object') continue
    const object = parsed as Record<string, unknown>
    result.chunks.push(object)
    if (object.usage !== undefined && object.usage !== null) result.usages.push(object.usage)
    const choices = Array.isArray(object.choices) ? (object.choices as Array<Record<string, unknown>>) : []
    const choice = choices.find((candidate) => candidate.index === 0)
    if (choice === undefined) continue
    const delta = (choice.delta ?? {}) as Record<string, unknown>
    if (typeof delta.content === 'string') result.content += delta.content
    if (typeof delta.reasoning_content === 'string') result.reasoning += delta.reasoning_content
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls as Array<Record<string, unknown>>) {
        const index = call.index as number
        const fn = (call.function ?? {}) as { name?: string; arguments?: string }
        let entry = byIndex.get(index)
        if (entry === undefined) {
          entry = { index, id: call.id as string | undefined, type: call.type as string | undefined, name: fn.name ?? '', arguments: '' }
          byIndex.set(index, entry)
          result.calls.push(entry)
        } else if (fn.name !== undefined) {
          entry.name += fn.name
        }
        if (fn.arguments !== undefined) entry.arguments += fn.arguments
      }
    }
    if (typeof choice.finish_reason === 'string') result.finishReasons.push(choice.finish_reason)
  }
  return result
}

/** Calls as `{ name, arguments }` with the arguments JSON parsed. */
export function callShapes(calls: readonly WireCall[]): Array<{ name: string; arguments: unknown }> {
  return calls.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) as unknown }))
}

// ---------------------------------------------------------------- fixture files

export interface SseFixtureExpectation {
  capture: string
  source: string
  deltas: 'real' | 'synthetic'
  contentDeltas: number
  calls: Array<{ name: string; arguments: Record<string, unknown> }>
  finish_reason: string
  content: string
  usage: Record<string, unknown>
  envelope: Record<string, unknown>
}

export interface SseFixture {
  id: string
  sse: string
  bytes: Uint8Array
  expected: SseFixtureExpectation
}

/** `test/fixtures/sse/<id>.sse` and `<id>.expected.json`. */
export async function loadSseFixture(id: string): Promise<SseFixture> {
  const [sse, expected] = await Promise.all([readTestFile(`fixtures/sse/${id}.sse`), readTestFile(`fixtures/sse/${id}.expected.json`)])
  return { id, sse, bytes: utf8(sse), expected: JSON.parse(expected) as SseFixtureExpectation }
}

// ---------------------------------------------------------------- misc

/** Resolves after a few macrotask turns (stream cancellation propagates asynchronously). */
export async function settle(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setTimeout(resolve, 0))
}

