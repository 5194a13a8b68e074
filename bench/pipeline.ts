/**
 * Pipeline benchmark: whole Chat Completions SSE streams, bytes in → bytes out,
 * through five pipelines, in one process, printed as Markdown. A report, not a
 * test: it never exits non-zero because a target failed.
 *
 *   npm run bench:pipeline   (node --expose-gc --import tsx bench/pipeline.ts)
 *
 * (a) naive gateway: TextDecoderStream → EventSourceParserStream → JSON.parse →
 *     JSON.stringify → TextEncoderStream, no repair;
 * (b) SSE parse only: TextDecoderStream → EventSourceParserStream, drained;
 * (c) our six composed stages (the last, SseEncoderStream, gives bytes);
 * (d) ChatCompletionsRepairStream (the same six cores fused in one stream);
 * (e) one bare TransformStream passing each chunk on: what any repair in one
 *     stream pays before doing anything.
 *
 * Every run builds a fresh source that enqueues one pre-encoded SSE event per
 * `pull` (one event per read, as from a socket), pipes it, and drains the end
 * with `getReader()`.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createParser } from 'eventsource-parser'
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream'
import {
  ChatCompletionsDecoderStream,
  ChatCompletionsEncoderStream,
  ChatCompletionsRepairStream,
  createChatCompletionsRepair,
  repairChatCompletionsBody,
} from '../src/chat-completions/index.ts'
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { resolveMiddlewareOptions } from '../src/ai-sdk/options.ts'
import { createStreamRepair } from '../src/ai-sdk/stream-transformer.ts'
import { createAnthropicRepair } from '../src/anthropic/repair.ts'
import { AnthropicRepairStream } from '../src/anthropic/streams.ts'
import { createChatCompletionsRepairCore } from '../src/chat-completions/repair.ts'
import { ALL_SHORTCUTS, createDialectRepair, type DialectShortcuts, NO_SHORTCUTS } from '../src/dialect-kit/dialect-repair.ts'
import { ResponsesRepairStream } from '../src/responses/streams.ts'
import { createResponsesDecoder } from '../src/responses/decoder.ts'
import { createResponsesEncoder } from '../src/responses/encoder.ts'
import { responsesPartOptions } from '../src/responses/repair.ts'
import { repairTransformer } from '../src/dialect-kit/dialect-streams.ts'
import { anthropicWorkload, textDeltasOf, responsesWorkload } from './dialect-inputs.ts'
import type { DsmlSanitizerOptions } from '../src/dsml/index.ts'
import { SseDecoderStream, SseEncoderStream } from '../src/sse/index.ts'
import { DsmlPartSanitizerStream, ToolCallSynthesizerStream } from '../src/parts/index.ts'
import { blackholeValue, consume, cpuModel, heapAfterGc, importAsBuilt, median } from './measure.ts'
import { dsmlHeavyStream, MARKER_BYTES, proseStream, type Workload } from './pipeline-inputs.ts'
import { ONE_CHUNK_AHEAD } from '../src/queuing.ts'

const started = performance.now()
const EVENTS = 20_000
const OPEN_STREAMS = 10_000

const print = (line = ''): void => console.log(line)
const fixed = (value: number, digits = 1): string => value.toFixed(digits)
const load = (): string => os.loadavg().map((value) => fixed(value, 2)).join(' ')
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

if (globalThis.gc === undefined) throw new Error('Run node with --expose-gc (npm run bench:pipeline)')
const gc = globalThis.gc

// ── the four pipelines ───────────────────────────────────────────────────

/** A fresh source over pre-encoded events: one event per `pull`, i.e. per read. */
function source(events: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < events.length) controller.enqueue(events[next++]!)
      else controller.close()
    },
  })
}

/** `new TextDecoderStream()`, typed for a `Uint8Array` source (lib.dom types its writable side as `BufferSource`). */
const textDecoderStream = (): TransformStream<Uint8Array, string> => new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>

/** A gateway that parses and re-serialises every chunk, repairing nothing. */
function naiveRewrite(): TransformStream<EventSourceMessage, string> {
  return new TransformStream<EventSourceMessage, string>({
    transform(event, controller) {
      if (event.data === '[DONE]') {
        controller.enqueue('data: [DONE]\n\n')
        return
      }
      const chunk: unknown = JSON.parse(event.data)
      controller.enqueue('data: ' + JSON.stringify(chunk) + '\n\n')
    },
  })
}

interface Pipeline {
  key: 'a' | 'b' | 'c' | 'd' | 'e'
  short: string
  label: string
  /** `options` only for the correctness check (deterministic call ids); timed runs use the defaults. */
  build(events: readonly Uint8Array[], options?: DsmlSanitizerOptions): ReadableStream<unknown>
}

const PIPELINES: Pipeline[] = [
  {
    key: 'a',
    short: '(a) naive gateway',
    label: '(a) naive gateway: TextDecoderStream → EventSourceParserStream → JSON.parse/stringify → TextEncoderStream',
    build: (events) =>
      source(events)
        .pipeThrough(textDecoderStream())
        .pipeThrough(new EventSourceParserStream())
        .pipeThrough(naiveRewrite())
        .pipeThrough(new TextEncoderStream()),
  },
  {
    key: 'b',
    short: '(b) SSE parse only',
    label: '(b) SSE parse only: TextDecoderStream → EventSourceParserStream',
    build: (events) => source(events).pipeThrough(textDecoderStream()).pipeThrough(new EventSourceParserStream()),
  },
  {
    key: 'c',
    short: '(c) six composed stages',
    label:
      '(c) six composed stages: SseDecoderStream → ChatCompletionsDecoderStream → DsmlPartSanitizerStream → ToolCallSynthesizerStream → ' +
      'ChatCompletionsEncoderStream → SseEncoderStream (bytes out)',
    build: (events, options) =>
      source(events)
        .pipeThrough(new SseDecoderStream())
        .pipeThrough(new ChatCompletionsDecoderStream())
        .pipeThrough(new DsmlPartSanitizerStream(options))
        .pipeThrough(new ToolCallSynthesizerStream())
        .pipeThrough(new ChatCompletionsEncoderStream())
        .pipeThrough(new SseEncoderStream()),
  },
  {
    key: 'd',
    short: '(d) `ChatCompletionsRepairStream`',
    label: '(d) `ChatCompletionsRepairStream`: the same six cores fused in one TransformStream, bytes in → bytes out',
    build: (events, options) => source(events).pipeThrough(new ChatCompletionsRepairStream(options)),
  },
  {
    key: 'e',
    short: '(e) one bare `TransformStream`',
    label: "(e) one bare `TransformStream` that passes each chunk on (readable side as (d)'s): the platform's floor under any repair in one stream",
    build: (events) => source(events).pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, controller) => controller.enqueue(chunk) }, undefined, ONE_CHUNK_AHEAD)),
  },
]

/** Drains a stream; returns the number of chunks read. */
async function drain(stream: ReadableStream<unknown>): Promise<number> {
  const reader = stream.getReader()
  let chunks = 0
  for (;;) {
    const { done } = await reader.read()
    if (done) return chunks
    chunks++
  }
}

/** Drains a byte stream into one array (a chunk that is not a `Uint8Array` fails it with a TypeError). */
async function collect(stream: ReadableStream<unknown>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream as ReadableStream<Uint8Array>).arrayBuffer())
}

// ── machine, code ────────────────────────────────────────────────────────


const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const MEASURED_DIRS = ['sse', 'chat-completions', 'dsml', 'parts']

/** Which code was measured: a hash of the stages' sources (the tree may differ from the last commit). */
function sourceFingerprint(): string {
  const hash = createHash('sha256')
  const files = MEASURED_DIRS.flatMap((dir) => readdirSync(join(SRC, dir)).map((name) => `${dir}/${name}`))
  for (const file of files.filter((name) => name.endsWith('.ts') && statSync(join(SRC, name)).isFile()).sort()) {
    hash.update(file).update(readFileSync(join(SRC, file)))
  }
  return hash.digest('hex').slice(0, 12)
}

function packageVersion(name: string): string {
  try {
    const file = fileURLToPath(new URL(`../node_modules/${name}/package.json`, import.meta.url))
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
  } catch {
    return '?'
  }
}

print('# Pipeline benchmark')
print()
print(`Node ${process.version}, ${os.availableParallelism()} CPUs (nproc), CPU: ${await cpuModel()}, ${os.platform()} ${os.arch()}`)
print(
  `Stages: src/{${MEASURED_DIRS.join(',')}} sha256 ${sourceFingerprint()}, loaded through tsx; ` +
    `eventsource-parser ${packageVersion('eventsource-parser')}. Load average at start: ${load()}`,
)
print()

// ── inputs ───────────────────────────────────────────────────────────────

const WORKLOADS: Workload[] = [proseStream(EVENTS), dsmlHeavyStream(EVENTS)]
const contentDeltas = (workload: Workload): number => workload.events.length - 4

print('## Inputs')
print()
print('One `Uint8Array` per SSE event (`data: {chat.completion.chunk}\\n\\n`: DeepSeek envelope, choice 0 with `delta.content` of')
print('1–8 tokens, `logprobs: null`, `finish_reason: null`); a role chunk first, then content, a `stop` finish chunk, a usage chunk')
print('(`choices: []`) and `[DONE]`. The source enqueues one event per `pull`.')
print()
print('| Workload | events | bytes | content chars | deltas touching markup | DSML blocks | invokes |')
print('|---|---:|---:|---:|---:|---:|---:|')
for (const workload of WORKLOADS) {
  const share = `${workload.markupDeltas} (${fixed((100 * workload.markupDeltas) / contentDeltas(workload))}%)`
  print(`| ${workload.label} | ${workload.events.length} | ${workload.bytes} | ${workload.content.length} | ${share} | ${workload.blocks} | ${workload.invokes} |`)
}
print()

// ── correctness, once ────────────────────────────────────────────────────

const decoder = new TextDecoder()

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let index = 0; index <= haystack.length - needle.length; index++) {
    for (let offset = 0; offset < needle.length; offset++) if (haystack[index + offset] !== needle[offset]) continue outer
    return index
  }
  return -1
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.byteLength !== right.byteLength) return false
  for (let index = 0; index < left.byteLength; index++) if (left[index] !== right[index]) return false
  return true
}

interface Summary {
  events: number
  content: string
  toolCalls: number
  finishReasons: string[]
}

/** Reads back an output SSE body: chunks, joined content, synthesized calls, finish reasons. */
function summarize(bytes: Uint8Array): Summary {
  const summary: Summary = { events: 0, content: '', toolCalls: 0, finishReasons: [] }
  for (const block of decoder.decode(bytes).split('\n\n')) {
    if (!block.startsWith('data: ')) continue
    summary.events++
    const data = block.slice('data: '.length)
    if (data === '[DONE]') continue
    const chunk = JSON.parse(data) as {
      choices: Array<{ delta?: { content?: string; tool_calls?: unknown[] }; finish_reason?: string | null }>
    }
    for (const choice of chunk.choices) {
      if (typeof choice.delta?.content === 'string') summary.content += choice.delta.content
      summary.toolCalls += choice.delta?.tool_calls?.length ?? 0
      if (typeof choice.finish_reason === 'string') summary.finishReasons.push(choice.finish_reason)
    }
  }
  return summary
}

const concatInput = (workload: Workload): Uint8Array => {
  const out = new Uint8Array(workload.bytes)
  let offset = 0
  for (const event of workload.events) {
    out.set(event, offset)
    offset += event.byteLength
  }
  return out
}

function counterIds(): () => string {
  let next = 0
  return () => `call_${next++}`
}

print('## Correctness (one run of each pipeline; call ids from a counter instead of random)')
print()
const pipeline = (key: Pipeline['key']): Pipeline => PIPELINES.find((entry) => entry.key === key)!
let correct = true
for (const workload of WORKLOADS) {
  const input = concatInput(workload)
  const naive = await collect(pipeline('a').build(workload.events))
  // Call ids are random by default; the same counter on both sides makes the outputs comparable.
  const composed = await collect(pipeline('c').build(workload.events, { generateId: counterIds() }))
  const fused = await collect(pipeline('d').build(workload.events, { generateId: counterIds() }))
  const same = sameBytes(composed, fused)
  const leaked = indexOfBytes(fused, MARKER_BYTES) !== -1
  const summary = summarize(fused)
  const notes = [
    `(c) and (d) give ${same ? 'identical' : '**DIFFERENT**'} bytes (${fused.byteLength} bytes, ${summary.events} events)`,
    `(a) output ${sameBytes(naive, input) ? 'equals' : 'differs from'} its input`,
    `marker bytes in (d) output: ${leaked ? '**FOUND**' : 'none'}`,
    `tool_calls in (d) output: ${summary.toolCalls}`,
    `finish_reason: ${summary.finishReasons.join(', ')}`,
  ]
  let ok = same && !leaked
  if (workload.invokes === 0) {
    const conserved = summary.content === workload.content
    notes.push(`content ${conserved ? 'unchanged' : '**CHANGED**'}`)
    ok &&= conserved && summary.toolCalls === 0
  } else {
    notes.push(`content ${workload.content.length} → ${summary.content.length} chars`)
    ok &&= summary.toolCalls === workload.invokes && summary.finishReasons.includes('tool_calls')
  }
  correct &&= ok
  print(`- ${ok ? 'OK' : '**FAIL**'} ${workload.label}: ${notes.join('; ')}.`)
}
print()

// ── throughput ───────────────────────────────────────────────────────────

/** Per run: wall-clock ms, and the process's CPU ms (all threads, GC helpers included). */
interface Samples {
  wall: number[]
  cpu: number[]
}

interface AsyncMeasureOptions {
  warmup: number
  minRounds: number
  maxRounds: number
  budgetMs: number
}

/** What runs before each timed run: a minor (young-generation) or a full collection. */
type Collection = 'minor' | 'full'

const collectGarbage = (kind: Collection): void => {
  if (kind === 'minor') gc({ type: 'minor' })
  else gc()
}

/**
 * Times several async runs in interleaved rounds, alternating the order each
 * round, so drift in the machine falls on all of them alike. Before every
 * timed run: a collection and a short pause, so each run starts with an empty
 * young generation and pays for the garbage it makes itself.
 *
 * The steady-state table uses a minor collection. A full collection with no
 * stream open (`full`) also frees the object shapes that only the last run's
 * objects kept alive, and V8 drops the optimized code built on them: the next
 * run starts half cold, every pipeline by as much JavaScript as it runs. A
 * serving gateway, with streams always open, does not see that; the cold
 * table shows it anyway.
 */
async function measureAsyncInterleaved(
  runs: ReadonlyArray<() => Promise<number>>,
  options: AsyncMeasureOptions,
  collection: Collection,
): Promise<Samples[]> {
  for (let round = 0; round < options.warmup; round++) for (const run of runs) consume(await run())
  const samples = runs.map((): Samples => ({ wall: [], cpu: [] }))
  const begin = performance.now()
  for (let round = 0; round < options.maxRounds && (round < options.minRounds || performance.now() - begin < options.budgetMs); round++) {
    for (let step = 0; step < runs.length; step++) {
      const index = round % 2 === 0 ? step : runs.length - 1 - step
      collectGarbage(collection)
      await sleep(5)
      const cpuBefore = process.cpuUsage()
      const before = performance.now()
      const value = await runs[index]!()
      samples[index]!.wall.push(performance.now() - before)
      const cpu = process.cpuUsage(cpuBefore)
      samples[index]!.cpu.push((cpu.user + cpu.system) / 1000)
      consume(value)
    }
  }
  return samples
}

interface Result {
  /** Median wall-clock ms. */
  ms: number
  /** Median process CPU ms. */
  cpu: number
  /** Interquartile range of the runs, ms. */
  spread: number
  runs: number
}

function quartiles(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))]!
  return [at(0.25), at(0.75)]
}

const MEASURE: AsyncMeasureOptions = { warmup: 2, minRounds: 9, maxRounds: 25, budgetMs: 35_000 }
const throughputStarted = performance.now()
const results = new Map<string, Result>()
for (const workload of WORKLOADS) {
  const samples = await measureAsyncInterleaved(
    PIPELINES.map((entry) => () => drain(entry.build(workload.events))),
    MEASURE,
    'minor',
  )
  PIPELINES.forEach((entry, index) => {
    const { wall, cpu } = samples[index]!
    const [low, high] = quartiles(wall)
    results.set(`${workload.label}/${entry.key}`, { ms: median(wall), cpu: median(cpu), spread: high - low, runs: wall.length })
  })
}
const result = (workload: Workload, key: Pipeline['key']): Result => results.get(`${workload.label}/${key}`)!

print(`## Throughput, steady state (median of interleaved runs after ${MEASURE.warmup} warm-up rounds; a minor \`gc()\` before each run)`)
print()
print('ms = median wall-clock time of one whole stream, ± its interquartile range; CPU ms = median process CPU time (all threads);')
print('MB/s = input SSE bytes / 10⁶ / wall-clock s; events/s = input SSE events / wall-clock s.')
print()
for (const entry of PIPELINES) print(`- ${entry.label}`)
print()
print(`| Pipeline | ${WORKLOADS.map((workload) => `${workload.label} ms | CPU ms | MB/s | events/s`).join(' | ')} |`)
print(`|---|${WORKLOADS.map(() => '---:|---:|---:|---:').join('|')}|`)
for (const entry of PIPELINES) {
  const cells = WORKLOADS.map((workload) => {
    const { ms, cpu, spread } = result(workload, entry.key)
    const seconds = ms / 1000
    return `${fixed(ms)} ± ${fixed(spread)} | ${fixed(cpu)} | ${fixed(workload.bytes / 1e6 / seconds)} | ${Math.round(workload.events.length / seconds)}`
  })
  print(`| ${entry.short} | ${cells.join(' | ')} |`)
}
print()
print(`Runs per cell: ${[...new Set([...results.values()].map((entry) => entry.runs))].join(', ')} (${fixed((performance.now() - throughputStarted) / 1000)} s).`)
print()

// ── shortcuts: the fused core with each one off ─────────────────────────

/** The fused core fed one event per read, synchronously (no stream around it). */
function coreRun(events: readonly Uint8Array[], shortcuts: Readonly<DialectShortcuts>): number {
  const core = createChatCompletionsRepairCore({}, shortcuts)
  let length = 0
  for (const event of events) length += core.feed(event)?.length ?? event.length
  return length + core.end().length
}

/** SSE parsing alone, synchronously: the same decoding and the same parser, no stream around them. */
function parseRun(events: readonly Uint8Array[]): number {
  const utf8 = new TextDecoder()
  let count = 0
  const parser = createParser({ onEvent: () => count++ })
  for (const event of events) parser.feed(utf8.decode(event, { stream: true }))
  return count
}

const ABLATIONS: Array<[string, Readonly<DialectShortcuts>]> = [
  ['every shortcut (as shipped)', ALL_SHORTCUTS],
  ['no whole-event reads (every read through eventsource-parser)', { ...ALL_SHORTCUTS, wholeEvents: false }],
  ['no shaped chunks (a changed chunk parsed and stringified)', { ...ALL_SHORTCUTS, shapedMessages: false }],
  ['no passed texts (a text the sanitizer passes as it is read as a shaped chunk)', { ...ALL_SHORTCUTS, passedTexts: false }],
  ['no plain chunks (every chunk parsed and decoded)', { ...ALL_SHORTCUTS, plainMessages: false }],
  ['none', NO_SHORTCUTS],
]
const ABLATION_MEASURE: AsyncMeasureOptions = { warmup: 2, minRounds: 9, maxRounds: 15, budgetMs: 20_000 }
const ablationStarted = performance.now()
const ablation = new Map<string, number>()
for (const workload of WORKLOADS) {
  const runs = [...ABLATIONS.map(([, shortcuts]) => async () => coreRun(workload.events, shortcuts)), async () => parseRun(workload.events)]
  const samples = await measureAsyncInterleaved(runs, ABLATION_MEASURE, 'minor')
  samples.forEach((sample, index) => ablation.set(`${workload.label}/${index}`, median(sample.wall)))
}
const parseIndex = ABLATIONS.length
print('## Shortcuts: what each one gains')
print()
print('The fused core (`createChatCompletionsRepairCore`) fed one event per read, synchronously, with each shortcut turned off')
print('on its own (tests prove every variant gives the same bytes); "SSE parse" is `TextDecoder` + eventsource-parser\'s')
print('`createParser`, also synchronous. A shortcut is kept when turning it off costs time on some workload.')
print()
print(`| Variant | ${WORKLOADS.map((workload) => `${workload.label} ms | × shipped | ÷ SSE parse`).join(' | ')} |`)
print(`|---|${WORKLOADS.map(() => '---:|---:|---:').join('|')}|`)
for (const [index, [name]] of ABLATIONS.entries()) {
  const cells = WORKLOADS.map((workload) => {
    const ms = ablation.get(`${workload.label}/${index}`)!
    return `${fixed(ms)} | ${fixed(ms / ablation.get(`${workload.label}/0`)!, 2)} | ${fixed(ms / ablation.get(`${workload.label}/${parseIndex}`)!, 2)}`
  })
  print(`| ${name} | ${cells.join(' | ')} |`)
}
print(`| SSE parse (baseline) | ${WORKLOADS.map((workload) => `${fixed(ablation.get(`${workload.label}/${parseIndex}`)!)} | — | 1.00`).join(' | ')} |`)
print()
print(`(${fixed((performance.now() - ablationStarted) / 1000)} s)`)
print()

// ── the AI SDK middleware's stream stage, per part ───────────────────────

/** The workload's content deltas as AI SDK stream parts: start, a text part of every delta, its end, a finish. */
function aiSdkParts(workload: Workload): LanguageModelV4StreamPart[] {
  const utf8 = new TextDecoder()
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }]
  for (const event of workload.events) {
    const data = utf8.decode(event).slice(6, -2)
    if (!data.startsWith('{')) continue
    const delta = (JSON.parse(data) as { choices: Array<{ delta?: { content?: unknown } }> }).choices[0]?.delta?.content
    if (typeof delta === 'string' && delta !== '') parts.push({ type: 'text-delta', id: 't', delta })
  }
  parts.push({ type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } } })
  return parts
}

const middlewareOptions = resolveMiddlewareOptions({})
/** The stage's core over every part, synchronously: what the middleware adds per part, without the stream around it. */
function aiSdkRun(parts: readonly LanguageModelV4StreamPart[]): number {
  const repair = createStreamRepair(middlewareOptions, undefined)
  let count = 0
  for (const part of parts) count += repair.push(part).length
  return count + repair.end().length
}

/** The floor: the same parts copied to an array one by one. */
function aiSdkIdentity(parts: readonly LanguageModelV4StreamPart[]): number {
  let count = 0
  for (const part of parts) count += [part].length
  return count
}

const aiSdkStarted = performance.now()
const aiSdkRows: Array<[string, number, number, number]> = []
for (const workload of WORKLOADS) {
  const parts = aiSdkParts(workload)
  const samples = await measureAsyncInterleaved([async () => aiSdkRun(parts), async () => aiSdkIdentity(parts)], ABLATION_MEASURE, 'minor')
  aiSdkRows.push([workload.label, parts.length, median(samples[0]!.wall), median(samples[1]!.wall)])
}
print('## AI SDK middleware: time per stream part')
print()
print('`wrapStream`\'s stage (`createStreamRepair`) fed the same content as AI SDK parts — a `text-delta` per content delta,')
print('with `stream-start`, `text-start`, `text-end` and `finish` — synchronously; µs per part = median ms × 1000 / parts.')
print()
print('| Workload | parts | ms | µs per part | floor: copying each part, µs per part |')
print('|---|---:|---:|---:|---:|')
for (const [label, count, ms, floor] of aiSdkRows) {
  print(`| ${label} | ${count} | ${fixed(ms)} | ${fixed((ms * 1000) / count, 2)} | ${fixed((floor * 1000) / count, 3)} |`)
}
print()
print(`(${fixed((performance.now() - aiSdkStarted) / 1000)} s)`)
print()

// ── the other dialects: each fused stream against SSE parsing of its own events ──

/** `target`: a row of the Targets table; the other rows explain one. */
const DIALECTS: Array<{ name: string; target: boolean; frame: (deltas: readonly string[]) => Uint8Array[]; fused: () => TransformStream<Uint8Array, Uint8Array> }> = [
  { name: 'Anthropic Messages (`AnthropicRepairStream`)', target: true, frame: anthropicWorkload, fused: () => new AnthropicRepairStream() as unknown as TransformStream<Uint8Array, Uint8Array> },
  { name: 'OpenAI Responses (`ResponsesRepairStream`)', target: true, frame: responsesWorkload, fused: () => new ResponsesRepairStream() as unknown as TransformStream<Uint8Array, Uint8Array> },
  {
    name: '… the same, without repeated texts (each closing event decoded and parsed whole; not a target)',
    target: false,
    frame: responsesWorkload,
    fused: () =>
      new TransformStream(
        repairTransformer(createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), responsesPartOptions({}), {}, { ...ALL_SHORTCUTS, repeatedTexts: false })),
        undefined,
        ONE_CHUNK_AHEAD,
      ) as TransformStream<Uint8Array, Uint8Array>,
  },
  {
    name: '… the same Responses stream without its four closing events (each repeats the whole text; not a target)',
    target: false,
    frame: (deltas) => responsesWorkload(deltas).slice(0, -4),
    fused: () => new ResponsesRepairStream() as unknown as TransformStream<Uint8Array, Uint8Array>,
  },
]
const dialectStarted = performance.now()
const dialectRows: Array<{ name: string; target: boolean; cells: Array<{ parse: number; fused: number }> }> = []
for (const dialect of DIALECTS) {
  const cells: Array<{ parse: number; fused: number }> = []
  for (const workload of WORKLOADS) {
    const events = dialect.frame(textDeltasOf(workload))
    const samples = await measureAsyncInterleaved(
      [() => drain(source(events).pipeThrough(textDecoderStream()).pipeThrough(new EventSourceParserStream())), () => drain(source(events).pipeThrough(dialect.fused()))],
      ABLATION_MEASURE,
      'minor',
    )
    cells.push({ parse: median(samples[0]!.wall), fused: median(samples[1]!.wall) })
  }
  dialectRows.push({ name: dialect.name, target: dialect.target, cells })
}
print('## The other dialects: fused stream vs SSE parsing of the same events')
print()
print('The workloads\' content deltas framed as each dialect streams them (`bench/dialect-inputs.ts`); baseline: `TextDecoderStream` →')
print('`EventSourceParserStream` over the same events. Target ≤ 0.75, as for Chat Completions.')
print()
print('A Responses stream ends with four events that each repeat the whole text (`output_text.done`, `content_part.done`,')
print('`output_item.done`, `response.completed`). The baseline only splits them into lines; a repair must know whether the')
print('text they repeat is the clean text, and rewrite them when it is not. After the `.done`, the fused repair finds that text\'s')
print('bytes in each of the three others and decodes only around them (repeated texts); the second row turns that off, the')
print('last shows the same stream without the four events.')
print()
print(`| Dialect | ${WORKLOADS.map((workload) => `${workload.label}: SSE parse ms | fused ms | ratio`).join(' | ')} |`)
print(`|---|${WORKLOADS.map(() => '---:|---:|---:').join('|')}|`)
for (const row of dialectRows) print(`| ${row.name} | ${row.cells.map((cell) => `${fixed(cell.parse)} | ${fixed(cell.fused)} | ${fixed(cell.fused / cell.parse, 2)}`).join(' | ')} |`)
print()
print(`(${fixed((performance.now() - dialectStarted) / 1000)} s)`)
print()

// ── work in a stream vs the same work in a loop ────────────────────────

/** A bare `TransformStream` (as (e)) that also runs `work` on each read, and passes the read on; `done` at the end. */
function bareWith(events: readonly Uint8Array[], work: (chunk: Uint8Array) => void, done: () => void = () => {}): ReadableStream<Uint8Array> {
  return source(events).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>(
      {
        transform(chunk, controller) {
          work(chunk)
          controller.enqueue(chunk)
        },
        flush: done,
      },
      undefined,
      ONE_CHUNK_AHEAD,
    ),
  )
}

const inStreamStarted = performance.now()
const inStreamEvents = anthropicWorkload(textDeltasOf(WORKLOADS[0]!))
let decodedLength = 0
const IN_STREAM_RUNS: Array<[string, () => Promise<number>]> = [
  ['one bare `TransformStream` (as (e))', () => drain(bareWith(inStreamEvents, () => {}))],
  ['… that also decodes each read (`TextDecoder`)', () => {
    const utf8 = new TextDecoder()
    return drain(bareWith(inStreamEvents, (chunk) => (decodedLength += utf8.decode(chunk).length)))
  }],
  ['… that also feeds each read to the fused core (`createAnthropicRepair`)', () => {
    const core = createAnthropicRepair()
    return drain(bareWith(inStreamEvents, (chunk) => core.feed(chunk), () => consume(core.end().length)))
  }],
  ['each read decoded, in a loop', async () => {
    const utf8 = new TextDecoder()
    for (const event of inStreamEvents) decodedLength += utf8.decode(event).length
    return decodedLength
  }],
  ['each read fed to the fused core, in a loop', async () => {
    const core = createAnthropicRepair()
    for (const event of inStreamEvents) core.feed(event)
    return core.end().length
  }],
]
const inStreamSamples = await measureAsyncInterleaved(IN_STREAM_RUNS.map(([, run]) => run), ABLATION_MEASURE, 'minor')
const inStream = inStreamSamples.map((sample) => median(sample.wall))
print('## Work in a stream against the same work in a loop')
print()
print(`The Anthropic framing of the ${WORKLOADS[0]!.label} workload (${inStreamEvents.length.toLocaleString("en-US")} reads). What a piece of work adds to a bare`)
print('`TransformStream`, beside what it costs run in a loop over the same reads: why a fused repair costs more in its stream than its')
print('synchronous core does alone.')
print()
print('| Run | ms | added to the bare stream |')
print('|---|---:|---:|')
IN_STREAM_RUNS.forEach(([label], index) => print(`| ${label} | ${fixed(inStream[index]!)} | ${index === 1 || index === 2 ? fixed(inStream[index]! - inStream[0]!) : '—'} |`))
print()
print(`(${fixed((performance.now() - inStreamStarted) / 1000)} s)`)
print()

// The same streams after a full collection with nothing open: (b) and (d) only, as a cross-check.
const COLD_MEASURE: AsyncMeasureOptions = { warmup: 1, minRounds: 7, maxRounds: 9, budgetMs: 12_000 }
const COLD_KEYS: ReadonlyArray<Pipeline['key']> = ['b', 'd']
const coldStarted = performance.now()
const cold = new Map<string, number>()
for (const workload of WORKLOADS) {
  const entries = PIPELINES.filter((entry) => COLD_KEYS.includes(entry.key))
  const samples = await measureAsyncInterleaved(
    entries.map((entry) => () => drain(entry.build(workload.events))),
    COLD_MEASURE,
    'full',
  )
  entries.forEach((entry, index) => cold.set(`${workload.label}/${entry.key}`, median(samples[index]!.wall)))
}
print('## Throughput after a full `gc()` with nothing open (cross-check)')
print()
print('Every run starts half cold (see `measureAsyncInterleaved`): V8 has dropped the shapes and optimized code the last run')
print('built. A gateway with streams open does not start a stream that way; shown for completeness, not a target.')
print()
print(`| Pipeline | ${WORKLOADS.map((workload) => `${workload.label} ms`).join(' | ')} |`)
print(`|---|${WORKLOADS.map(() => '---:').join('|')}|`)
for (const entry of PIPELINES.filter((candidate) => COLD_KEYS.includes(candidate.key))) {
  print(`| ${entry.short} | ${WORKLOADS.map((workload) => fixed(cold.get(`${workload.label}/${entry.key}`)!)).join(' | ')} |`)
}
print(
  `| (d)/(b) | ${WORKLOADS.map((workload) => fixed(cold.get(`${workload.label}/d`)! / cold.get(`${workload.label}/b`)!, 2)).join(' | ')} |`,
)
print()
print(`(${fixed((performance.now() - coldStarted) / 1000)} s)`)
print()

// ── memory ───────────────────────────────────────────────────────────────

interface Stages {
  ChatCompletionsRepairStream: typeof ChatCompletionsRepairStream
  createChatCompletionsRepair: typeof createChatCompletionsRepair
  repairChatCompletionsBody: typeof repairChatCompletionsBody
}

/** The stages as shipped (see `importAsBuilt`). */
function loadShippedStages(): Promise<Stages | undefined> {
  return importAsBuilt<Stages>(join(SRC, 'chat-completions', 'index.ts'))
}

/** The first event of every stream: the role chunk. */
const FIRST_EVENT = WORKLOADS[0]!.events[0]!

interface MemorySample {
  heap: number
  external: number
}

/**
 * Bytes retained per open stream: `OPEN_STREAMS` sources that have delivered
 * one event and stay open, each piped through `make`, each with a reader that
 * has read the first output. `heapUsed` (and `external`) after `gc()`, before
 * and after; median of 3 measurements.
 */
async function bytesPerOpenStream(make: (upstream: ReadableStream<Uint8Array>) => ReadableStream<unknown>): Promise<MemorySample> {
  const open = async (): Promise<ReadableStreamDefaultReader<unknown>> => {
    const upstream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(FIRST_EVENT)
      },
    })
    const reader = make(upstream).getReader()
    const first = await reader.read()
    if (first.done) throw new Error('the stream ended early')
    return reader
  }
  const warm = await Promise.all(Array.from({ length: 1000 }, open))
  await Promise.all(warm.map((reader) => reader.cancel()))
  const heaps: number[] = []
  const externals: number[] = []
  for (let attempt = 0; attempt < 3; attempt++) {
    const readers: Array<ReadableStreamDefaultReader<unknown> | undefined> = new Array<ReadableStreamDefaultReader<unknown> | undefined>(OPEN_STREAMS).fill(undefined)
    await sleep(10)
    const before = heapAfterGc()
    const externalBefore = process.memoryUsage().external
    for (let index = 0; index < OPEN_STREAMS; index++) readers[index] = await open()
    await sleep(10)
    const after = heapAfterGc()
    const externalAfter = process.memoryUsage().external
    heaps.push((after - before) / OPEN_STREAMS)
    externals.push((externalAfter - externalBefore) / OPEN_STREAMS)
    await Promise.all(readers.map((reader) => reader!.cancel()))
    consume(readers.length)
  }
  return { heap: median(heaps), external: median(externals) }
}

/** Heap retained per object, `OPEN_STREAMS` of them held (median of 3). */
function bytesPerObject(make: () => unknown): number {
  for (let index = 0; index < 1000; index++) consume(make() === undefined ? 0 : 1)
  const samples: number[] = []
  for (let attempt = 0; attempt < 3; attempt++) {
    const keep: unknown[] = new Array<unknown>(OPEN_STREAMS).fill(undefined)
    const before = heapAfterGc()
    for (let index = 0; index < OPEN_STREAMS; index++) keep[index] = make()
    const after = heapAfterGc()
    consume(keep.length)
    samples.push((after - before) / OPEN_STREAMS)
  }
  return median(samples)
}

const memoryStarted = performance.now()
const shipped = await loadShippedStages()
const stages: Stages = shipped ?? { ChatCompletionsRepairStream, createChatCompletionsRepair, repairChatCompletionsBody }
const build = shipped === undefined ? 'as run by tsx (`keepNames`)' : 'as built (esbuild, no `keepNames`)'
const memoryRows: Array<[string, MemorySample]> = []
memoryRows.push(['bare `TransformStream` pipe (platform baseline)', await bytesPerOpenStream((upstream) => upstream.pipeThrough(new TransformStream()))])
memoryRows.push([
  `\`ChatCompletionsRepairStream\`, ${build}`,
  await bytesPerOpenStream((upstream) => upstream.pipeThrough(new stages.ChatCompletionsRepairStream())),
])
memoryRows.push([
  `\`repairChatCompletionsBody\` (pull-based, what \`repairChatCompletionsResponse\` and the gateway use), ${build}`,
  await bytesPerOpenStream((upstream) => stages.repairChatCompletionsBody(upstream)),
])
if (shipped !== undefined) {
  memoryRows.push([
    '`ChatCompletionsRepairStream`, as run by tsx (`keepNames`)',
    await bytesPerOpenStream((upstream) => upstream.pipeThrough(new ChatCompletionsRepairStream())),
  ])
}
const fusedMemory = memoryRows[1]![1]
const bodyMemory = memoryRows[2]![1]
const bareTransformBytes = bytesPerObject(() => new TransformStream())
const coreBytes = bytesPerObject(() => {
  const repair = stages.createChatCompletionsRepair()
  repair.feed(FIRST_EVENT)
  return repair
})

print(`## Memory: retained per open stream (${OPEN_STREAMS.toLocaleString('en-US')} open at once)`)
print()
print('Each stream: a source that has delivered the role chunk and stays open, piped through the stage, and a reader that has')
print('read the first output. `heapUsed` after `gc()` before and after opening them all, divided by the count (median of 3).')
print()
print('| Stream | heap bytes per stream | external bytes per stream | heap minus the bare pipe |')
print('|---|---:|---:|---:|')
const baseline = memoryRows[0]![1].heap
for (const [label, sample] of memoryRows) {
  print(`| ${label} | ${Math.round(sample.heap)} | ${Math.round(sample.external)} | ${Math.round(sample.heap - baseline)} |`)
}
print()
print(`For scale: the fused core alone (\`createChatCompletionsRepair()\` fed the role chunk, no stream, ${build}) retains`)
print(`${Math.round(coreBytes)} bytes. tsx compiles with \`keepNames\`, which gives each closure a \`name\` when it is created; the`)
print(`target applies to the built library. The platform's floor: one \`new TransformStream()\`, not piped, retains`)
print(`${Math.round(bareTransformBytes)} bytes on this Node. (${fixed((performance.now() - memoryStarted) / 1000)} s)`)
print()

// ── targets ──────────────────────────────────────────────────────────────

const verdict = (pass: boolean): string => (pass ? 'PASS' : 'FAIL')
const [prose, heavy] = WORKLOADS as [Workload, Workload]
const ratio = (workload: Workload, top: Pipeline['key'], bottom: Pipeline['key'], of: 'ms' | 'cpu' = 'ms'): number =>
  result(workload, top)[of] / result(workload, bottom)[of]
const RATIO_TARGETS: Array<{ top: Pipeline['key']; bottom: Pipeline['key']; limits: [number, number] }> = [
  { top: 'd', bottom: 'a', limits: [0.35, 0.5] },
  { top: 'd', bottom: 'b', limits: [0.75, 0.75] },
  { top: 'c', bottom: 'a', limits: [1.5, 1.5] },
]

print('## Targets')
print()
print('Time ratios of the medians (lower is faster); the verdict is on wall-clock time. The CPU-time ratio (process CPU,')
print('all threads) is shown as a cross-check: on a shared machine it is less disturbed by other processes.')
print()
print('| Target | workload | wall-clock ratio | CPU-time ratio | limit | verdict |')
print('|---|---|---:|---:|---:|---|')
for (const { top, bottom, limits } of RATIO_TARGETS) {
  for (const [index, workload] of [prose, heavy].entries()) {
    const wall = ratio(workload, top, bottom)
    const limit = limits[index]!
    print(`| (${top})/(${bottom}) | ${workload.label} | ${fixed(wall, 2)} | ${fixed(ratio(workload, top, bottom, 'cpu'), 2)} | ≤ ${fixed(limit, 2)} | ${verdict(wall <= limit)} |`)
  }
}
const memoryLabel = shipped === undefined ? 'as run by tsx' : 'as built'
print(
  `| retained heap per open fused stream: \`ChatCompletionsRepairStream\` in a pipe, whole (${memoryLabel}) | — | ${Math.round(fusedMemory.heap)} B | — | ≤ 8192 B | ${verdict(fusedMemory.heap <= 8192)}` +
    `${fusedMemory.heap <= 8192 ? '' : ` (the platform's bare pipe alone: ${Math.round(baseline)} B; one bare TransformStream: ${Math.round(bareTransformBytes)} B)`} |`,
)
print(`| … of it ours (minus the bare pipe) | — | ${Math.round(fusedMemory.heap - baseline)} B | — | ≤ 8192 B | ${verdict(fusedMemory.heap - baseline <= 8192)} |`)
print(`| retained heap per open fused stream: \`repairChatCompletionsBody\` (the gateway's form), whole (${memoryLabel}) | — | ${Math.round(bodyMemory.heap)} B | — | ≤ 8192 B | ${verdict(bodyMemory.heap <= 8192)} |`)
for (const row of dialectRows.filter((candidate) => candidate.target)) {
  row.cells.forEach((cell, index) => {
    const ratioValue = cell.fused / cell.parse
    print(`| ${row.name}, fused / SSE parse | ${WORKLOADS[index]!.label} | ${fixed(ratioValue, 2)} | — | ≤ 0.75 | ${verdict(ratioValue <= 0.75)} |`)
  })
}
for (const [label, count, ms] of aiSdkRows) {
  const perPart = (ms * 1000) / count
  print(`| AI SDK \`wrapStream\` stage, µs per stream part | ${label} | ${fixed(perPart, 2)} µs | — | ≤ 2 µs | ${verdict(perPart <= 2)} |`)
}
print(`| (c) and (d) give identical bytes; DSML-heavy output has every call as tool_calls and no marker | both | ${correct ? 'yes' : 'no'} | — | — | ${verdict(correct)} |`)
print()
print(
  `The floor: one bare \`TransformStream\` (e) takes ${fixed(ratio(prose, 'e', 'b'), 2)} / ${fixed(ratio(heavy, 'e', 'b'), 2)} of (b)'s time (${prose.label} / ${heavy.label});` +
    ' a repair in one stream takes that plus its own work.',
)
print()
print(`Total bench time ${fixed((performance.now() - started) / 1000)} s. Load average at end: ${load()} (checksum ${blackholeValue()}).`)
