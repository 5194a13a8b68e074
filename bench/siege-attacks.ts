/**
 * The rows of "the gateway under siege" (`siege.ts`): each starts a fresh gateway (a process group
 * of its own), polls its /health every 20 ms, mounts one attack, and runs an honest streaming
 * client beside it; it returns what it measured and its own checks. The report adds the checks
 * every row shares (/health p99 ≤ 100 ms, every poll answered 200, the honest client got its call).
 *
 * The attacks are the project issue's: pipelined requests on connections closed at once, slowloris
 * bodies, a 25 MB history, an upstream that leaks a call slowly, an upstream that stalls mid-JSON,
 * and Ctrl-C on `npm start`. No marker is written here: the fake upstream's leaks come from the test
 * builders (`siege-support.ts`).
 */
import { connect, type Socket } from 'node:net'
import { check, type Check } from './hostile-support.ts'
import {
  defaultCapture,
  describeExchange,
  exchange,
  type FakeUpstream,
  type Group,
  groupAlive,
  type HealthSummary,
  honestStream,
  type HonestResult,
  lastLines,
  listening,
  pollHealth,
  readChatStream,
  seconds,
  SLOW_COMMAND,
  SLOW_LEAK_MODEL,
  sleep,
  STALLED_JSON_MODEL,
  startGateway,
  startNpmStart,
  stopAll,
  summarizeHealth,
  whenGroupGone,
} from './siege-support.ts'

/** What the rows share: the fake upstream (started once), and the slowloris length. */
export interface SiegeContext {
  fakeUpstream(): Promise<FakeUpstream>
  /** Closes the fake upstream, if it was started. */
  closeFakeUpstream(): Promise<void>
  slowlorisSeconds: number
}

export interface SiegeOutcome {
  health: HealthSummary
  honest: HonestResult
  /** The row's own checks (the shared ones are the report's). */
  checks: Check[]
  facts: string[]
}

export interface SiegeRow {
  row: string
  attack: string
  /** The gateway's flags, as the table shows them. */
  gateway: string
  /** Longest the row may take before it is reported as failed. */
  limitMs: number
  run(context: SiegeContext): Promise<SiegeOutcome>
}

/** The model the fake upstream answers with a quick leaked call (any model but the faults'). */
const FAKE_HONEST_MODEL = 'siege-honest'
/** The tool the slow leak's request declares: the `bash` the fake upstream leaks. */
const BASH_TOOL = { type: 'function', function: { name: 'bash', description: 'Run a shell command', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } } }

const stillUpCheck = (group: Group): Check =>
  group.exit === undefined ? check('the gateway still up', true) : check(`the gateway still up (it exited, code ${group.exit.code ?? group.exit.signal}: ${lastLines(group)})`, false)

/** Counts of equal strings, as `3× 200, 1× 503`. */
function tally(values: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].map(([value, times]) => `${times}× ${value}`).join(', ') || 'none'
}

/** A promise resolved by the first call of `signal` (later calls do nothing). */
function firstSignal(): { signal: () => void; arrived: Promise<void> } {
  let signal = (): void => {}
  const arrived = new Promise<void>((resolve) => (signal = resolve))
  return { signal, arrived }
}

/**
 * Starts an honest stream and resolves once its first byte came (or 10 s passed), with the stream
 * still running: `running` (wrapped, since an async function's returned promise would be awaited).
 */
async function honestStreamUnderway(port: number, model: string, timeoutMs: number): Promise<{ running: Promise<HonestResult> }> {
  const first = firstSignal()
  const running = honestStream(port, model, timeoutMs, first.signal)
  await Promise.race([first.arrived, sleep(10_000)])
  return { running }
}

// ── 1. pipelined requests, then close ───────────────────────────────────

const PIPELINE_BODY = JSON.stringify({ model: 'm', stream: true, messages: [] })

function pipelinedRequest(port: number): string {
  const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(PIPELINE_BODY)}\r\n\r\n`
  return head + PIPELINE_BODY
}

/** One connection: three pipelined requests written at once, the connection destroyed `closeAfterMs` later. Resolves when it closed. */
function pipelineThenClose(port: number, closeAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(pipelinedRequest(port).repeat(3))
      setTimeout(() => socket.destroy(), closeAfterMs)
    })
    socket.on('error', () => {})
    socket.on('close', () => resolve())
  })
}

const pipelined: SiegeRow = {
  row: '1',
  attack: '130 connections, one after another, each writing 3 pipelined streaming `POST /v1/chat/completions` at once and destroyed 40 ms later; then 8 concurrent honest streams',
  gateway: '`--delay 15`',
  limitMs: 90_000,
  async run() {
    const gateway = await startGateway(['--delay', '15'])
    const model = await defaultCapture(gateway.port)
    const poller = pollHealth(gateway.port)
    const honestRun = honestStream(gateway.port, model)
    const started = performance.now()
    for (let connection = 0; connection < 130; connection++) await pipelineThenClose(gateway.port, 40)
    const attackMs = performance.now() - started
    await sleep(500)
    const after = await Promise.all(Array.from({ length: 8 }, () => honestStream(gateway.port, model)))
    const honest = await honestRun
    const health = summarizeHealth(await poller.stop())
    const completed = after.filter((stream) => stream.exchange.status === 200 && stream.exchange.complete && stream.stream.done).length
    return {
      health,
      honest,
      checks: [check(`the 8 honest streams after it: ${completed}/8 got 200 and [DONE]`, completed === 8), stillUpCheck(gateway)],
      facts: [`attack over in ${seconds(attackMs)}`, `the 8: ${tally(after.map((stream) => describeExchange(stream.exchange)))}, slowest ${seconds(Math.max(...after.map((stream) => stream.exchange.ms)))}`],
    }
  },
}

// ── 2. slowloris bodies ─────────────────────────────────────────────────

interface SlowBody {
  socket: Socket
  /** The status the gateway answered this attacker with, if it answered. */
  answered?: string
  closedByGateway: boolean
}

/** A connection that sent a request's headers announcing a 100,000-byte body, and nothing of the body yet. */
function openSlowBody(port: number): Promise<SlowBody> {
  const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head)
      resolve(slow)
    })
    const slow: SlowBody = { socket, closedByGateway: false }
    socket.on('error', () => resolve(slow))
    socket.once('data', (data: Buffer) => (slow.answered = data.toString('latin1').split(' ')[1] ?? '?'))
    socket.on('end', () => (slow.closedByGateway = true))
  })
}

const slowloris: SiegeRow = {
  row: '2',
  attack: '300 connections send headers with `Content-Length: 100000`, then 1 byte a second each, for 20 s; the honest stream starts 5 s in',
  gateway: '`--delay 15`',
  limitMs: 120_000,
  async run(context) {
    const gateway = await startGateway(['--delay', '15'])
    const model = await defaultCapture(gateway.port)
    const poller = pollHealth(gateway.port)
    const started = performance.now()
    const attackers = await Promise.all(Array.from({ length: 300 }, () => openSlowBody(gateway.port)))
    let sent = 0
    const trickle = setInterval(() => {
      sent++
      for (const attacker of attackers) if (!attacker.socket.destroyed) attacker.socket.write(sent === 1 ? '{' : ' ')
    }, 1000)
    try {
      await sleep(5000)
      const honest = await honestStream(gateway.port, model, 15_000)
      await sleep(Math.max(0, context.slowlorisSeconds * 1000 - (performance.now() - started)))
      const health = summarizeHealth(await poller.stop())
      const open = attackers.filter((attacker) => !attacker.socket.destroyed && !attacker.closedByGateway).length
      return {
        health,
        honest,
        checks: [stillUpCheck(gateway)],
        facts: [`${sent} body bytes each over ${seconds(performance.now() - started)}`, `attackers answered: ${tally(attackers.flatMap((attacker) => attacker.answered ?? []))}`, `${open} of 300 still open at the end`],
      }
    } finally {
      clearInterval(trickle)
      for (const attacker of attackers) attacker.socket.destroy()
    }
  },
}

// ── 3. a large history; a cross-site text/plain POST ────────────────────

const BIG_HISTORY_CHARS = 25_000_000

/**
 * A non-streaming request whose history holds one assistant message of 25 MB of `<`, as bytes: encoded
 * before the row starts, since encoding 25 MB holds the bench's own event loop (its /health poller's)
 * for about 100 ms, which would count against the gateway.
 */
const bigHistory = (): Uint8Array =>
  Buffer.from(JSON.stringify({ model: 'm', stream: false, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: '<'.repeat(BIG_HISTORY_CHARS) }, { role: 'user', content: 'go on' }] }))

/** A `text/plain` POST from a foreign page (what a browser sends without a preflight) reaches the fake upstream or not. */
async function crossSitePlainText(fake: FakeUpstream): Promise<Check[]> {
  const gateway = await startGateway(['--upstream', fake.url])
  const before = fake.models.length
  const body = JSON.stringify({ model: 'siege-text-plain', stream: false, messages: [{ role: 'user', content: 'hi' }] })
  const result = await exchange(gateway.port, '/v1/chat/completions', { headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' }, body, timeoutMs: 10_000 })
  await sleep(200)
  const reached = fake.models.length - before
  const status = result.status ?? 0
  return [check(`\`text/plain\` POST from \`https://evil.example\`: 4xx (got ${describeExchange(result)})`, status >= 400 && status < 500), check(reached === 0 ? 'it never reached the upstream' : `it never reached the upstream (it did, ${reached}×)`, reached === 0)]
}

const largeHistory: SiegeRow = {
  row: '3',
  attack: 'a 25 MB history (one assistant message of 25,000,000 `<`, `stream: false`) posted while the honest stream (~7 s) is being read; then a `text/plain` POST with `Origin: https://evil.example` (to a second gateway, `--upstream` the fake)',
  gateway: '`--delay 60`',
  limitMs: 120_000,
  async run(context) {
    const big = bigHistory()
    const gateway = await startGateway(['--delay', '60'])
    const model = await defaultCapture(gateway.port)
    const poller = pollHealth(gateway.port)
    await sleep(300)
    const { running } = await honestStreamUnderway(gateway.port, model, 60_000)
    let honestEndedAt = Infinity
    void running.then(() => (honestEndedAt = performance.now()))
    await sleep(200)
    const bigPostAt = performance.now()
    const bigPost = await exchange(gateway.port, '/v1/chat/completions', { body: big, timeoutMs: 60_000 })
    const honest = await running
    await sleep(300)
    const health = summarizeHealth(await poller.stop())
    const gapStart = health.longestGapFrom - bigPostAt
    const gapWhen = `began ${seconds(Math.abs(gapStart))} ${gapStart < 0 ? 'before' : 'after'} the big POST was sent, ${health.longestGapFrom < honestEndedAt ? 'with the honest stream open' : 'after the honest stream ended'}`
    const up = stillUpCheck(gateway)
    const plainText = await crossSitePlainText(await context.fakeUpstream())
    return {
      health,
      honest,
      checks: [check(`longest gap between /health answers ≤ 250 ms (${health.longestGap.toFixed(0)} ms)`, health.longestGap <= 250), ...plainText, up],
      facts: [`the big POST (${(big.length / 1e6).toFixed(1)} MB): ${describeExchange(bigPost)} in ${seconds(bigPost.ms)}`, `the longest gap ${gapWhen}`],
    }
  },
}

// ── 4. the idle timeout against a slow leak ─────────────────────────────

const slowLeak: SiegeRow = {
  row: '4',
  attack: 'the upstream (fake, in the bench) streams a leaked `bash` call slowly: its value in 60 pieces 100 ms apart, ~6.3 s; the client must get the call whole, no error event; the honest stream (fake upstream, a quick leak) 1 s in',
  gateway: '`--upstream` the fake `--idle-timeout 3 --keep-alive 1`',
  limitMs: 90_000,
  async run(context) {
    const fake = await context.fakeUpstream()
    const gateway = await startGateway(['--upstream', fake.url, '--idle-timeout', '3', '--keep-alive', '1'])
    const poller = pollHealth(gateway.port)
    const body = JSON.stringify({ model: SLOW_LEAK_MODEL, stream: true, messages: [{ role: 'user', content: 'run the 60 steps' }], tools: [BASH_TOOL] })
    const slowRun = exchange(gateway.port, '/v1/chat/completions', { body, timeoutMs: 30_000 })
    await sleep(1000)
    const honest = await honestStream(gateway.port, FAKE_HONEST_MODEL)
    const slow = await slowRun
    const health = summarizeHealth(await poller.stop())
    const stream = readChatStream(slow.text)
    const bash = stream.calls.find((call) => call.name === 'bash')
    const whole = bash !== undefined && commandOf(bash.arguments) === SLOW_COMMAND
    const errors = stream.errors.length === 0 ? 'no error event' : `no error event (got "${stream.errors[0]!.slice(0, 80)}")`
    return {
      health,
      honest,
      checks: [
        check(`the slow client: 200, read to its end (got ${describeExchange(slow)})`, slow.status === 200 && slow.complete),
        check(bash === undefined ? 'the `bash` call whole (no `bash` call)' : `the \`bash\` call whole${whole ? '' : ' (its command differs)'}`, whole),
        check(errors, stream.errors.length === 0),
        check('[DONE]', stream.done),
        stillUpCheck(gateway),
      ],
      facts: [`the slow stream took ${seconds(slow.ms)}`],
    }
  },
}

function commandOf(argumentsText: string): unknown {
  try {
    return (JSON.parse(argumentsText) as { command?: unknown }).command
  } catch {
    return undefined
  }
}

// ── 5. a non-SSE body that stalls ───────────────────────────────────────

/** How soon the stalled JSON request must be answered: the idle timeout (3 s) and some slack. */
const STALLED_LIMIT_MS = 4500

function hasErrorBody(text: string): boolean {
  try {
    return (JSON.parse(text) as { error?: unknown }).error !== undefined
  } catch {
    return false
  }
}

const stalledJson: SiegeRow = {
  row: '5',
  attack: 'the upstream (fake) answers a `stream: false` request with JSON headers and half a JSON body, then stalls; the client must get a 5xx or an error body within ~4 s; the honest stream 0.5 s in',
  gateway: '`--upstream` the fake `--idle-timeout 3`',
  limitMs: 90_000,
  async run(context) {
    const fake = await context.fakeUpstream()
    const gateway = await startGateway(['--upstream', fake.url, '--idle-timeout', '3'])
    const poller = pollHealth(gateway.port)
    const body = JSON.stringify({ model: STALLED_JSON_MODEL, stream: false, messages: [{ role: 'user', content: 'hi' }] })
    fake.stalledClosedAfterMs = undefined
    const stalledRun = exchange(gateway.port, '/v1/chat/completions', { body, timeoutMs: 15_000 })
    await sleep(500)
    const honest = await honestStream(gateway.port, FAKE_HONEST_MODEL)
    const stalled = await stalledRun
    await sleep(500)
    const health = summarizeHealth(await poller.stop())
    const failed = stalled.complete && ((stalled.status ?? 0) >= 500 || hasErrorBody(stalled.text))
    const got = `${describeExchange(stalled)} after ${seconds(stalled.ms)}${stalled.text === '' ? '' : `: ${stalled.text.slice(0, 100)}`}`
    const upstreamClosed = fake.stalledClosedAfterMs === undefined ? 'still open' : `closed by the gateway ${seconds(fake.stalledClosedAfterMs)} after it was sent`
    return {
      health,
      honest,
      checks: [check(`a 5xx or an error body within ${seconds(STALLED_LIMIT_MS)} (got ${got})`, failed && stalled.ms <= STALLED_LIMIT_MS), stillUpCheck(gateway)],
      facts: [`the stalled upstream request: ${upstreamClosed}`],
    }
  },
}

// ── 6. Ctrl-C on `npm start` ────────────────────────────────────────────

/** `npm start` builds first; this long for it to build and answer /health. */
const NPM_START_LIMIT_MS = 180_000
const EXIT_LIMIT_MS = 30_000

const ctrlC: SiegeRow = {
  row: '6',
  attack: '`npm start -- --port P --delay 15` in its own process group (npm rebuilds dist/ first); the honest stream in flight; SIGINT to the whole group (/health polled from 1 s before the stream until the signal)',
  gateway: '`npm start -- --delay 15`',
  limitMs: NPM_START_LIMIT_MS + 60_000,
  async run(context) {
    // `npm start` rebuilds dist/: nothing may be running from it.
    await context.closeFakeUpstream()
    await stopAll()
    const startedAt = performance.now()
    const group = await startNpmStart(['--delay', '15'], NPM_START_LIMIT_MS)
    const buildMs = performance.now() - startedAt
    const model = await defaultCapture(group.port)
    const poller = pollHealth(group.port)
    await sleep(1000)
    const { running } = await honestStreamUnderway(group.port, model, 60_000)
    await sleep(200)
    const health = summarizeHealth(await poller.stop())
    const signalAt = performance.now()
    process.kill(-group.pgid, 'SIGINT')
    const honest = await running
    const streamEndedAfter = performance.now() - signalAt
    await whenGroupGone(group, EXIT_LIMIT_MS)
    const left = groupAlive(group.pgid)
    const stillListening = await listening(group.port)
    const exit = group.exit
    const exitText = exit === undefined ? `still running at ${seconds(EXIT_LIMIT_MS)}` : `exit ${exit.code ?? exit.signal} ${seconds(exit.at - signalAt)} after the signal`
    const said = group.output().split('\n').filter((line) => /SIG|drain|exiting/.test(line)).map((line) => line.trim().split(' (')[0]!.slice(0, 60))
    return {
      health,
      honest,
      checks: [
        check(`the stream ended with [DONE] (${seconds(streamEndedAfter)} after the signal)`, honest.exchange.status === 200 && honest.stream.done),
        check(`the group exited 0 (npm: ${exitText})`, exit?.code === 0),
        check('no process of the group left', !left),
        check('nothing listening on P', !stillListening),
      ],
      facts: [`built and answering in ${seconds(buildMs)}`, `log: ${said.join(' / ') || '—'}`],
    }
  },
}

export const SIEGE_ROWS: readonly SiegeRow[] = [pipelined, slowloris, largeHistory, slowLeak, stalledJson, ctrlC]
