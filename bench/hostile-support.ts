/**
 * Support for the hostile-inputs report (`hostile.ts`, cases in
 * `hostile-cases.ts`): cutting inputs into reads, driving the public streams
 * one read at a time, reading back what they wrote, and the checks a row's
 * "result" column states.
 *
 * Nothing here writes a marker: the inputs come from the test builders
 * (`test/support/dsml-builders.ts`), which make every marker at run time.
 */
import { ChatCompletionsRepairStream, type ChatCompletionsRepairStreamOptions } from '../src/chat-completions/index.ts'
import {
  containsDsmlSentinel,
  type Diagnostic,
  DsmlSanitizerStream,
  type DsmlSanitizerStreamOptions,
  type SanitizerEvent,
  type ToolCall,
} from '../src/dsml/index.ts'
import { resolveOptions } from '../src/dsml/options.ts'
import { createSseDecoder, isSseComment } from '../src/sse/index.ts'
import { leaksMarkup } from '../test/support/dsml-builders.ts'

/** The engine's default `maxHoldChars`, as the engine resolves it. */
export const DEFAULT_MAX_HOLD_CHARS = resolveOptions({}).maxHoldChars
/** The read size for streams fed a large text or body. */
export const READ_SIZE = 64 * 1024

// ── what a row reports ───────────────────────────────────────────────────

/** One statement of the "result" column, and whether it held. */
export interface Check {
  label: string
  held: boolean
}

/** What a row states once its run is over: the checks, and plain facts beside them. */
export interface Verdict {
  checks: Check[]
  facts: string[]
}

export const check = (label: string, held: boolean): Check => ({ label, held })

/** Thousands separators, as the report writes counts. */
export const count = (value: number): string => value.toLocaleString('en-US')

export function noThrowCheck(error: unknown): Check {
  return error === undefined ? check('no throw', true) : check(`no throw (threw ${describeError(error)})`, false)
}

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** Neither the engine's own lexer nor the builders' independent pattern finds a marker or special token. */
export function noMarkersCheck(text: string): Check {
  return check('0 markers out', !containsDsmlSentinel(text) && !leaksMarkup(text))
}

export function callCountCheck(actual: number, expected: number): Check {
  const noun = (value: number): string => `${count(value)} call${value === 1 ? '' : 's'}`
  return actual === expected ? check(noun(actual), true) : check(`${noun(actual)} (expected ${count(expected)})`, false)
}

export function heldWithinCheck(maxHeld: number, heldAtEnd: number, cap = DEFAULT_MAX_HOLD_CHARS): Check[] {
  return [check(`held ≤ ${count(cap)} after every read (max ${count(maxHeld)})`, maxHeld <= cap), check('0 held after end', heldAtEnd === 0)]
}

/** Text events, call sources and diagnostic texts, in order, give the input back exactly. */
export function conservedCheck(output: EngineOutput, input: string): Check {
  return check('text conserved', output.replay === input)
}

/** The clean text is the input with only the planted markup taken out. */
export function expectedTextCheck(actual: string, expected: string, label = 'text = input minus the markup'): Check {
  return check(label, actual === expected)
}

/** How many diagnostics of each kind, as "3 hold-limit, 1 dropped-markup". */
export function diagnosticTally(diagnostics: readonly Diagnostic[]): string {
  const tally = new Map<string, number>()
  for (const diagnostic of diagnostics) tally.set(diagnostic.kind, (tally.get(diagnostic.kind) ?? 0) + 1)
  if (tally.size === 0) return 'no diagnostics'
  return [...tally].map(([kind, total]) => `${count(total)} ${kind}`).join(', ')
}

// ── cutting inputs into reads ────────────────────────────────────────────

export function textReads(text: string, size = READ_SIZE): string[] {
  const reads: string[] = []
  for (let start = 0; start < text.length; start += size) reads.push(text.slice(start, start + size))
  return reads
}

export function byteReads(bytes: Uint8Array, size = READ_SIZE): Uint8Array[] {
  const reads: Uint8Array[] = []
  for (let start = 0; start < bytes.length; start += size) reads.push(bytes.subarray(start, start + size))
  return reads
}

export function totalLength(reads: ReadonlyArray<string | Uint8Array>): number {
  return reads.reduce((sum, read) => sum + read.length, 0)
}

export function concatenateBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(totalLength(parts))
  let offset = 0
  for (const part of parts) {
    joined.set(part, offset)
    offset += part.length
  }
  return joined
}

// ── driving a stream one read at a time ──────────────────────────────────

/** Called after every read a stream took: the memory sampler. */
export type AfterRead = () => void

async function drain<Chunk>(readable: ReadableStream<Chunk>, take: (chunk: Chunk) => void): Promise<void> {
  const reader = readable.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    take(value)
  }
}

/**
 * Writes `reads` into `stream` one at a time while its readable side is
 * drained into `take`; `afterRead` runs once each write was transformed.
 */
async function pump<In, Out>(stream: TransformStream<In, Out>, reads: readonly In[], take: (chunk: Out) => void, afterRead: AfterRead): Promise<void> {
  const drained = drain(stream.readable, take)
  drained.catch(() => {}) // the error is awaited below; this only keeps it from counting as unhandled meanwhile
  const writer = stream.writable.getWriter()
  for (const read of reads) {
    await writer.write(read)
    afterRead()
  }
  await writer.close()
  await drained
}

// ── the engine as a stream ───────────────────────────────────────────────

export interface EngineOutput {
  text: string
  calls: ToolCall[]
  diagnostics: Diagnostic[]
  /** Text events, call sources and diagnostic texts in event order: the input, if nothing was lost. */
  replay: string
}

export interface EngineRun extends EngineOutput {
  /** The most `heldChars` seen after any read. */
  maxHeld: number
  heldAtEnd: number
}

export function summarizeEvents(events: readonly SanitizerEvent[]): EngineOutput {
  const texts: string[] = []
  const replay: string[] = []
  const calls: ToolCall[] = []
  const diagnostics: Diagnostic[] = []
  for (const event of events) {
    if (event.type === 'text') {
      texts.push(event.text)
      replay.push(event.text)
    } else if (event.type === 'tool-call') {
      calls.push(event.call)
      replay.push(event.source)
    } else if (event.type === 'diagnostic') {
      diagnostics.push(event.diagnostic)
      replay.push(event.diagnostic.text)
    }
  }
  return { text: texts.join(''), calls, diagnostics, replay: replay.join('') }
}

/** `DsmlSanitizerStream` fed `reads`, with `heldChars` read after every one. */
export async function runSanitizerStream(reads: readonly string[], afterRead: AfterRead, options: DsmlSanitizerStreamOptions = {}): Promise<EngineRun> {
  const stream = new DsmlSanitizerStream(options)
  const events: SanitizerEvent[] = []
  let maxHeld = 0
  await pump(stream, reads, (event) => events.push(event), () => {
    maxHeld = Math.max(maxHeld, stream.sanitizer.heldChars)
    afterRead()
  })
  return { ...summarizeEvents(events), maxHeld, heldAtEnd: stream.sanitizer.heldChars }
}

// ── Chat Completions SSE in and out ──────────────────────────────────────

/** One `chat.completion.chunk` event, as DeepSeek's API writes it. */
export function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const chunk = { id: 'chatcmpl-hostile', object: 'chat.completion.chunk', created: 1_767_225_600, model: 'deepseek-chat', choices: [{ index: 0, delta, finish_reason: finishReason }] }
  return `data: ${JSON.stringify(chunk)}\n\n`
}

export const ROLE_EVENT = chatChunk({ role: 'assistant', content: '' })
export const FINISH_EVENTS = chatChunk({}, 'stop') + 'data: [DONE]\n\n'

/** A whole stream as events: the role chunk, one chunk per content delta, the `stop` finish and `[DONE]`. */
export function chatEvents(deltas: readonly string[]): string[] {
  return [ROLE_EVENT, ...deltas.map((content) => chatChunk({ content })), FINISH_EVENTS]
}

const encoder = new TextEncoder()
export const encodeUtf8 = (text: string): Uint8Array => encoder.encode(text)

export interface RepairRun {
  parts: Uint8Array[]
  /** What the stream failed with, if it failed. */
  error: unknown
  /** Reads written before it failed (all of them when it did not). */
  written: number
}

/** `ChatCompletionsRepairStream` fed `reads`; a failure is returned, not thrown. */
export async function runRepairStream(reads: ReadonlyArray<string | Uint8Array>, afterRead: AfterRead, options: ChatCompletionsRepairStreamOptions = {}): Promise<RepairRun> {
  const parts: Uint8Array[] = []
  let written = 0
  try {
    await pump(new ChatCompletionsRepairStream(options), reads, (part) => parts.push(part), () => {
      written++
      afterRead()
    })
  } catch (error) {
    return { parts, error, written }
  }
  return { parts, error: undefined, written }
}

export interface SseToolCall {
  name: string
  /** The `function.arguments` JSON text, its deltas joined. */
  arguments: string
}

/** What a client reading the repaired stream gets. */
export interface RepairedStream {
  content: string
  calls: SseToolCall[]
  finishReason: string | undefined
  /** The bytes decode as UTF-8 with `fatal: true`. */
  validUtf8: boolean
  bytes: number
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

interface ChunkShape {
  choices?: Array<{
    delta?: { content?: unknown; tool_calls?: Array<{ index: number; function?: { name?: string; arguments?: string } }> }
    finish_reason?: string | null
  }>
}

/** Reads repaired SSE bytes as a client would: content deltas joined, tool-call deltas merged by index, the finish (lines up to `maxBufferSize`). */
export function readRepairedStream(parts: readonly Uint8Array[], maxBufferSize?: number): RepairedStream {
  const bytes = concatenateBytes(parts)
  const decoder = createSseDecoder(maxBufferSize === undefined ? {} : { maxBufferSize })
  const messages = [...decoder.feed(new TextDecoder().decode(bytes)), ...decoder.end()]
  const contents: string[] = []
  const calls: SseToolCall[] = []
  let finishReason: string | undefined
  for (const message of messages) {
    if (isSseComment(message) || message.data === '[DONE]') continue
    const choice = (JSON.parse(message.data) as ChunkShape).choices?.[0]
    if (choice === undefined) continue
    if (typeof choice.delta?.content === 'string') contents.push(choice.delta.content)
    for (const delta of choice.delta?.tool_calls ?? []) {
      const call = (calls[delta.index] ??= { name: '', arguments: '' })
      call.name += delta.function?.name ?? ''
      call.arguments += delta.function?.arguments ?? ''
    }
    if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason
  }
  return { content: contents.join(''), calls, finishReason, validUtf8: isValidUtf8(bytes), bytes: bytes.length }
}

/** The checks every repaired stream that carries one leak gets: content, markers, calls, finish, UTF-8. */
export function repairedStreamChecks(stream: RepairedStream, expectedContent: string, expectedCalls: number, contentLabel = 'content = input minus the markup'): Check[] {
  return [
    expectedTextCheck(stream.content, expectedContent, contentLabel),
    noMarkersCheck(stream.content),
    callCountCheck(stream.calls.length, expectedCalls),
    check(`finish ${stream.finishReason ?? 'missing'}`, stream.finishReason === (expectedCalls > 0 ? 'tool_calls' : 'stop')),
    check('output valid UTF-8', stream.validUtf8),
  ]
}
