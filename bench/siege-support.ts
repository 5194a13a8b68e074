/**
 * Support for "the gateway under siege" (`siege.ts`, rows in `siege-attacks.ts`): gateway
 * processes in process groups of their own, plain node:http clients on fresh connections, the
 * /health poller, the honest streaming client, and a fake upstream in this process that misbehaves
 * on request (the request's `model` picks the fault).
 *
 * Nothing here writes a marker: the leaked calls the fake upstream streams come from the test
 * builders (`test/support/dsml-builders.ts`), which make every marker at run time.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http'
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createSseDecoder, isSseComment } from '../src/sse/index.ts'
import { block, invoke, param } from '../test/support/dsml-builders.ts'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = `${ROOT}dist/cli/bin.mjs`

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

// ── processes: each in a group of its own, every group killed by `stopAll` ──

/** Process groups started and not yet seen gone (a group's id is its leader's pid). */
const liveGroups = new Set<number>()

/** Whether any process of group `pgid` is still alive (signal 0 to the group). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // already gone
  }
}

/** SIGKILLs every group this process started, and waits (up to 5 s) until they are gone. */
export async function stopAll(): Promise<void> {
  for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL')
  for (let waited = 0; waited < 5000 && [...liveGroups].some(groupAlive); waited += 50) await sleep(50)
  for (const pgid of liveGroups) if (!groupAlive(pgid)) liveGroups.delete(pgid)
}

process.on('exit', () => {
  for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL')
})

/** A port nothing listens on now: the kernel's pick for port 0, let go at once. */
export async function freePort(): Promise<number> {
  const server = createTcpServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
  /** `performance.now()` when it exited. */
  at: number
}

export interface Group {
  /** The leader's pid, which is the group's id. */
  pgid: number
  port: number
  child: ChildProcess
  /** Set once the leader exited. */
  exit?: ProcessExit
  /** What it printed, stdout and stderr (the last 200 KB). */
  output(): string
}

/** Starts `command args` as the leader of a new process group (`detached`), its output kept. */
function launchGroup(command: string, args: readonly string[], port: number): Group {
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let printed = ''
  const keep = (data: Buffer): void => {
    printed = (printed + data.toString()).slice(-200_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const group: Group = { pgid: child.pid ?? -1, port, child, output: () => printed }
  if (child.pid !== undefined) liveGroups.add(child.pid)
  child.on('exit', (code, signal) => (group.exit = { code, signal, at: performance.now() }))
  child.on('error', () => (group.exit ??= { code: null, signal: null, at: performance.now() }))
  return group
}

/** The last lines a process printed, on one line, for a row's facts. */
export const lastLines = (group: Group, lines = 2): string => group.output().trim().split('\n').slice(-lines).join(' | ').slice(0, 200)

/** Waits until `group` answers /health with 200; throws if it exits first or `limitMs` passes. */
export async function whenHealthy(group: Group, limitMs: number): Promise<void> {
  const started = performance.now()
  while (performance.now() - started < limitMs) {
    if (group.exit !== undefined) throw new Error(`the gateway exited (code ${group.exit.code ?? group.exit.signal}) before answering /health: ${lastLines(group)}`)
    if ((await exchange(group.port, '/health', { method: 'GET', timeoutMs: 2000 })).status === 200) return
    await sleep(100)
  }
  throw new Error(`the gateway did not answer /health within ${seconds(limitMs)}: ${lastLines(group)}`)
}

/** `node dist/cli/bin.mjs serve --port <free port> …flags` in a group of its own, once it answers /health. */
export async function startGateway(flags: readonly string[]): Promise<Group> {
  const port = await freePort()
  const group = launchGroup(process.execPath, [BIN, 'serve', '--port', String(port), ...flags], port)
  await whenHealthy(group, 15_000)
  return group
}

/** `npm start -- --port <free port> …flags` in a group of its own (npm rebuilds dist/ first), once it answers /health. */
export async function startNpmStart(flags: readonly string[], limitMs: number): Promise<Group> {
  const port = await freePort()
  const group = launchGroup('npm', ['start', '--', '--port', String(port), ...flags], port)
  await whenHealthy(group, limitMs)
  return group
}

/** Waits until the group's leader has exited and no process of the group is left, up to `limitMs`. */
export async function whenGroupGone(group: Group, limitMs: number): Promise<void> {
  const started = performance.now()
  while ((group.exit === undefined || groupAlive(group.pgid)) && performance.now() - started < limitMs) await sleep(50)
}

/** Whether something accepts a connection on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
    socket.setTimeout(2000, () => {
      socket.destroy()
      resolve(false)
    })
  })
}

// ── HTTP clients, each on a fresh connection ────────────────────────────

export interface Exchange {
  /** The status line's code; undefined when no answer came. */
  status: number | undefined
  text: string
  /** The response was read to its end. */
  complete: boolean
  /** Why it did not complete: a socket error code, `cut`, or `timeout`. */
  error: string | undefined
  /** From sending to the end (or the failure). */
  ms: number
}

export interface ExchangeOptions {
  method?: string
  headers?: Record<string, string>
  /** Bytes are written as they are: a large body encoded beforehand costs the sender no work while it is measured. */
  body?: string | Uint8Array
  timeoutMs: number
  /** Called with each piece of the response body as it arrives. */
  onData?: (piece: string) => void
}

/** One request on a fresh connection; resolves (never rejects) when it ends, fails or times out. */
export function exchange(port: number, path: string, options: ExchangeOptions): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = performance.now()
    const result: Exchange = { status: undefined, text: '', complete: false, error: undefined, ms: 0 }
    let settled = false
    const settle = (error?: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      result.error = result.complete ? undefined : (error ?? 'cut')
      result.ms = performance.now() - started
      resolve(result)
    }
    const headers = options.body === undefined ? options.headers : { 'content-type': 'application/json', ...options.headers }
    const request = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'POST', headers, agent: false }, (response) => {
      result.status = response.statusCode
      response.setEncoding('utf8')
      response.on('data', (piece: string) => {
        result.text += piece
        options.onData?.(piece)
      })
      response.on('end', () => {
        result.complete = true
        settle()
      })
      response.on('error', () => settle('cut'))
      response.on('close', () => settle('cut'))
    })
    const timer = setTimeout(() => {
      settle('timeout')
      request.destroy()
    }, options.timeoutMs)
    request.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message))
    request.end(options.body)
  })
}

/** `exchange`'s status, or `no answer`, with its error when it did not complete. */
export function describeExchange(result: Exchange): string {
  const status = result.status === undefined ? 'no answer' : String(result.status)
  return result.error === undefined ? status : `${status} (${result.error})`
}

// ── /health, polled ─────────────────────────────────────────────────────

/** A /health poll not answered this long after it was sent counts as unanswered. */
export const HEALTH_TIMEOUT_MS = 5000

export interface HealthSample {
  sentAt: number
  status: number | undefined
  ms: number
}

export interface HealthPoller {
  /** Stops sending, waits for the polls in flight, and returns every sample. */
  stop(): Promise<HealthSample[]>
}

/** GET /health on a fresh connection every `everyMs` on a fixed schedule, whether or not the last one was answered. */
export function pollHealth(port: number, everyMs = 20): HealthPoller {
  const polls: Array<Promise<HealthSample>> = []
  const poll = (): void => {
    const sentAt = performance.now()
    polls.push(exchange(port, '/health', { method: 'GET', timeoutMs: HEALTH_TIMEOUT_MS }).then((result) => ({ sentAt, status: result.complete ? result.status : undefined, ms: result.ms })))
  }
  poll()
  const timer = setInterval(poll, everyMs)
  return {
    stop() {
      clearInterval(timer)
      return Promise.all(polls)
    },
  }
}

export interface HealthSummary {
  polls: number
  answered200: number
  answeredOther: number
  unanswered: number
  /** Latencies in ms over every poll, an unanswered one counted as `Infinity`. */
  p50: number
  p99: number
  max: number
  /** The longest time between two answers in a row, in ms, and when it began (`performance.now()`). */
  longestGap: number
  longestGapFrom: number
}

/** Nearest-rank quantile of sorted values (NaN for none). */
export const quantile = (sorted: readonly number[], q: number): number => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN

/** The longest time between two answers in a row, and when it began. */
function longestGap(samples: readonly HealthSample[]): { gap: number; from: number } {
  const answerTimes = samples.filter((sample) => sample.status !== undefined).map((sample) => sample.sentAt + sample.ms).sort((a, b) => a - b)
  let gap = 0
  let from = Number.NaN
  for (let index = 1; index < answerTimes.length; index++) {
    const between = answerTimes[index]! - answerTimes[index - 1]!
    if (between > gap) {
      gap = between
      from = answerTimes[index - 1]!
    }
  }
  return { gap, from }
}

export function summarizeHealth(samples: readonly HealthSample[]): HealthSummary {
  const latencies = samples.map((sample) => (sample.status === undefined ? Infinity : sample.ms)).sort((a, b) => a - b)
  const unanswered = samples.filter((sample) => sample.status === undefined).length
  const answered200 = samples.filter((sample) => sample.status === 200).length
  const { gap, from } = longestGap(samples)
  return {
    polls: samples.length,
    answered200,
    answeredOther: samples.length - unanswered - answered200,
    unanswered,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? Number.NaN,
    longestGap: gap,
    longestGapFrom: from,
  }
}

// ── a chat stream, as a client reads it ─────────────────────────────────

export interface ChatStreamCall {
  name: string
  arguments: string
}

export interface ChatStream {
  calls: ChatStreamCall[]
  /** A `tool_calls` delta came. */
  toolCallDelta: boolean
  done: boolean
  /** The `error.message` of each error event (`data: {"error": …}`). */
  errors: string[]
}

interface ChunkShape {
  error?: { message?: string }
  choices?: Array<{ delta?: { tool_calls?: Array<{ index?: number; function?: { name?: string; arguments?: string } }> } }>
}

function parseChunk(data: string): ChunkShape | undefined {
  try {
    return JSON.parse(data) as ChunkShape
  } catch {
    return undefined
  }
}

/** Reads a Chat Completions SSE body: tool-call deltas merged by index, `[DONE]`, error events. */
export function readChatStream(text: string): ChatStream {
  const decoder = createSseDecoder()
  const stream: ChatStream = { calls: [], toolCallDelta: false, done: false, errors: [] }
  for (const message of [...decoder.feed(text), ...decoder.end()]) {
    if (isSseComment(message)) continue
    if (message.data === '[DONE]') {
      stream.done = true
      continue
    }
    const chunk = parseChunk(message.data)
    if (chunk?.error !== undefined || message.event === 'error') stream.errors.push(chunk?.error?.message ?? message.data)
    for (const delta of chunk?.choices?.[0]?.delta?.tool_calls ?? []) {
      stream.toolCallDelta = true
      const call = (stream.calls[delta.index ?? stream.calls.length] ??= { name: '', arguments: '' })
      call.name += delta.function?.name ?? ''
      call.arguments += delta.function?.arguments ?? ''
    }
  }
  return stream
}

export interface HonestResult {
  exchange: Exchange
  stream: ChatStream
  /** 200, a `tool_calls` delta, `[DONE]`, read to its end, no error event. */
  gotItsCall: boolean
}

export const honestBody = (model: string): string => JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] })

/** POST /v1/chat/completions, streaming, for `model`, read to its end. `onData` sees each piece as it comes. */
export async function honestStream(port: number, model: string, timeoutMs = 30_000, onData?: (piece: string) => void): Promise<HonestResult> {
  const result = await exchange(port, '/v1/chat/completions', onData === undefined ? { body: honestBody(model), timeoutMs } : { body: honestBody(model), timeoutMs, onData })
  const stream = readChatStream(result.text)
  const gotItsCall = result.status === 200 && result.complete && stream.toolCallDelta && stream.done && stream.errors.length === 0
  return { exchange: result, stream, gotItsCall }
}

/** The honest client's cell: its status, what it got, its time. */
export function describeHonest(honest: HonestResult): string {
  const names = honest.stream.calls.map((call) => `\`${call.name}\``).join(', ')
  const parts = [
    describeExchange(honest.exchange),
    honest.stream.toolCallDelta ? `tool_calls (${names})` : 'no tool_calls',
    honest.stream.done ? '[DONE]' : 'no [DONE]',
  ]
  if (honest.stream.errors.length > 0) parts.push(`error event "${honest.stream.errors[0]!.slice(0, 80)}"`)
  return `${parts.join(', ')}, ${seconds(honest.exchange.ms)}`
}

/** The default capture's id, from `GET /captures` (the replay upstream only). */
export async function defaultCapture(port: number): Promise<string> {
  const result = await exchange(port, '/captures', { method: 'GET', timeoutMs: 5000 })
  const listed = JSON.parse(result.text) as { default?: string }
  if (typeof listed.default !== 'string') throw new Error(`GET /captures named no default capture: ${result.text.slice(0, 200)}`)
  return listed.default
}

// ── a fake upstream, in this process ────────────────────────────────────

/** The models that pick the fake upstream's faults; any other model gets a quick leaked call. */
export const SLOW_LEAK_MODEL = 'siege-slow-leak'
export const STALLED_JSON_MODEL = 'siege-stalled-json'
/** The slow leak's value arrives in this many pieces, `SLOW_PIECE_MS` apart. */
export const SLOW_PIECES = 60
const SLOW_PIECE_MS = 100

/** The command the slow leak's `bash` call carries: 60 pieces `echo step-NN; `. */
export const SLOW_COMMAND = Array.from({ length: SLOW_PIECES }, (_, index) => `echo step-${String(index).padStart(2, '0')}; `).join('')

/** Content deltas of a leaked `bash` call: the text before its value, the value in `valuePieces` pieces, the text after. */
function leakedCallDeltas(command: string, valuePieces: number): string[] {
  const text = `I will run it.\n${block([invoke('bash', [param('command', command)])])}`
  const start = text.indexOf(command)
  const size = Math.ceil(command.length / valuePieces)
  const value = Array.from({ length: valuePieces }, (_, index) => command.slice(index * size, (index + 1) * size))
  return [text.slice(0, start), ...value, text.slice(start + command.length)]
}

const chatChunk = (delta: object, finishReason: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-siege', object: 'chat.completion.chunk', created: 1, model: 'siege', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`
const STREAM_END = `${chatChunk({}, 'stop')}data: [DONE]\n\n`

export interface FakeUpstream {
  /** The base URL to give the gateway as `--upstream` (…/v1). */
  url: string
  /** The `model` of every request that reached it, in order. */
  models: string[]
  /** How long after the stalled JSON request arrived its connection was closed (by the gateway), when it was. */
  stalledClosedAfterMs?: number
  close(): Promise<void>
}

/** Streams the leaked call's deltas `everyMs` apart (all at once when 0), then stop and `[DONE]`. */
function streamLeak(res: ServerResponse, deltas: readonly string[], everyMs: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  res.write(chatChunk({ role: 'assistant', content: '' }))
  if (everyMs === 0) {
    res.end(deltas.map((content) => chatChunk({ content })).join('') + STREAM_END)
    return
  }
  let next = 0
  const timer = setInterval(() => {
    if (next < deltas.length) res.write(chatChunk({ content: deltas[next++] }))
    else {
      clearInterval(timer)
      res.end(STREAM_END)
    }
  }, everyMs)
  res.on('close', () => clearInterval(timer))
}

function readModel(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (piece: string) => (body += piece))
    req.on('end', () => {
      try {
        resolve(String((JSON.parse(body) as { model?: unknown }).model))
      } catch {
        resolve('')
      }
    })
  })
}

/** A node:http Chat Completions upstream that leaks calls slowly or quickly, or stalls mid-JSON, as `model` asks. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const open = new Set<ServerResponse>()
  const server: Server = createServer(async (req, res) => {
    const model = await readModel(req)
    fake.models.push(model)
    open.add(res)
    res.on('close', () => open.delete(res))
    if (model === SLOW_LEAK_MODEL) return streamLeak(res, leakedCallDeltas(SLOW_COMMAND, SLOW_PIECES), SLOW_PIECE_MS)
    if (model === STALLED_JSON_MODEL) {
      const arrived = performance.now()
      res.on('close', () => (fake.stalledClosedAfterMs = performance.now() - arrived))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"id":"chatcmpl-siege","object":"chat.completion","created":1,"model":"siege","choices":[{"index":0,"message":{"role":"assistant","content":"half of an ans')
      return // and nothing more
    }
    return streamLeak(res, leakedCallDeltas('ls -la', 1), 0)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const fake: FakeUpstream = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    models: [],
    async close() {
      for (const res of open) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
  return fake
}
