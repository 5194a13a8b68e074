/**
 * `npm run bench:load [-- concurrency seconds pacedDelayMs]`: the gateway under load, over loopback
 * only, bounded in count and time (defaults: 200 concurrent streaming clients for 20 s per round;
 * 10 ms between events in the paced scenario).
 *
 * Two scenarios, each with a fresh upstream and gateway: flat out (the upstream sends every event
 * at once, so the three processes saturate the cores and the gateway's CPU cost per request decides
 * throughput and queueing), and paced (the upstream sends its events 10 ms apart on a fixed
 * schedule, as a model streams, so the cores are not saturated and the latency added is the
 * gateway's own).
 *
 * The replay upstream (`dsml-streams replay`), the gateway (`dsml-streams serve`, to it) and the
 * client (`bench/load-client.ts`) each run in a process of their own, from the build. In one run,
 * per scenario: one round directly to the replay upstream, one through a proxy that repairs nothing
 * (`bench/load-pass-through.ts`: the floor, what any Node proxy hop costs on this machine), then two
 * rounds through the gateway.
 *
 * Each scenario first runs a warm-up round through the gateway (a quarter of a round, at least 3 s),
 * not counted: the gateway is a long-running process, and its first seconds are spent compiling.
 *
 * Reported: failed and corrupted streams (every body compared with a reference, call ids aside),
 * requests/s as a ratio gateway/direct, the latency the gateway adds per request (p50 and p99 of
 * its own time per exchange, which its log line gives: the exchange's whole time less the
 * upstream's, from the request leaving to the upstream body's last byte; and, for context, whole-
 * body times of the gateway rounds less the direct round's, which also carry the slow-down of the
 * client and the upstream sharing the cores with one more process), the same against the
 * pass-through proxy, and the gateway's RSS before, at its peak during, and
 * after each gateway round, and at 10, 30, 60 and 90 s of idle once the rounds are over.
 *
 * Targets: 0 failed and 0 corrupted; gateway/direct throughput ≥ 0.7; added p99 ≤ 5 ms; RSS after
 * the second round within 15 % of after the first. Run `npm run build` first.
 *
 * `LOAD_GATEWAY_NODE_FLAGS` (space-separated) starts the gateway's Node with those flags, e.g.
 * `LOAD_GATEWAY_NODE_FLAGS=--max-semi-space-size=64` to trade memory for fewer young-generation
 * collections; the report's title names them.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = `${root}dist/cli/bin.mjs`
const concurrency = Number(process.argv[2] ?? 200)
const seconds = Number(process.argv[3] ?? 20)
/** When the gateway's RSS is read again after the rounds, in seconds of idle. */
const IDLE_SAMPLES_SECONDS = [10, 30, 60, 90]
/** Each scenario's warm-up round through the gateway, before the measured rounds. */
const warmUpSeconds = Math.max(3, Math.round(seconds / 4))
/** The paced scenario's spacing of SSE events: 116 events take about 1.2 s, as a fast model streams. */
const pacedDelayMs = Number(process.argv[4] ?? 10)
/** Node flags for the gateway's process only. */
const gatewayNodeFlags = (process.env.LOAD_GATEWAY_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '')

interface Served {
  child: ChildProcess
  url: string
  /** While set, the gateway's own time of each exchange its log reports (`(gateway X ms)`) is added here. */
  ownMs?: number[]
}

/** Starts a server process (`node …args`) and resolves once it prints the address it listens on. */
function serving(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    const read = (data: Buffer): void => {
      out += data.toString()
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(out)
      if (found !== null) {
        child.stdout!.off('data', read)
        const served: Served = { child, url: found[0] }
        // Keep reading its log (one line per request), so it never blocks on a full pipe.
        let partial = ''
        child.stdout!.on('data', (more: Buffer) => {
          const lines = (partial + more.toString()).split('\n')
          partial = lines.pop()!
          if (served.ownMs === undefined) return
          for (const line of lines) {
            const own = / \(gateway (\d+\.\d) ms\)$/.exec(line)
            if (own !== null) served.ownMs.push(Number(own[1]))
          }
        })
        resolve(served)
      }
    }
    child.stdout!.on('data', read)
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)))
  })
}

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

interface Round {
  requests: number
  failed: number
  corrupted: number
  latencies: number[]
  perSecond: number
  rss?: { before: number; peak: number; after: number }
}

async function round(target: string, watched?: number, roundSeconds = seconds): Promise<Round> {
  const before = watched === undefined ? 0 : rssOf(watched)
  let peak = before
  const sampler = watched === undefined ? undefined : setInterval(() => (peak = Math.max(peak, rssOf(watched))), 200)
  const client = spawn(process.execPath, ['--import', 'tsx', `${root}bench/load-client.ts`, target, String(concurrency), String(roundSeconds)], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  client.stdout!.on('data', (data: Buffer) => (out += data.toString()))
  await new Promise((resolve) => client.on('exit', resolve))
  if (sampler !== undefined) clearInterval(sampler)
  await new Promise((resolve) => setTimeout(resolve, 2000))
  const result = JSON.parse(out) as Omit<Round, 'perSecond' | 'rss'>
  const measured: Round = { ...result, perSecond: result.latencies.length / roundSeconds }
  if (watched !== undefined) measured.rss = { before, peak, after: rssOf(watched) }
  return measured
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN

const version = execFileSync(process.execPath, ['--version'], { encoding: 'utf8' }).trim()
const mb = (value: number): string => `${value.toFixed(0)} MB`
const verdict = (held: boolean): string => (held ? 'PASS' : 'FAIL')

/**
 * One scenario: a fresh replay upstream (waiting `delayMs` between SSE events) and a fresh gateway
 * to it; a warm-up round, one direct round, then two gateway rounds; then the gateway's RSS as it
 * idles, counted from the end of the second gateway round.
 */
async function scenario(title: string, delayMs: number): Promise<void> {
  const upstream = await serving([bin, 'replay', '--port', '0', '--delay', String(delayMs)])
  const gateway = await serving([...gatewayNodeFlags, bin, 'serve', '--port', '0', '--upstream', `${upstream.url}/v1`, '--max-in-flight', String(concurrency * 2)])
  const passThrough = await serving(['--import', 'tsx', `${root}bench/load-pass-through.ts`, upstream.url])
  try {
    const cold = rssOf(gateway.child.pid!)
    // A warm-up round, not counted: a gateway runs for days, so its first seconds of compiling are not its cost.
    const warmUp = await round(gateway.url, undefined, warmUpSeconds)
    const direct = await round(upstream.url)
    const floor = await round(passThrough.url)
    gateway.ownMs = []
    const first = await round(gateway.url, gateway.child.pid)
    const second = await round(gateway.url, gateway.child.pid)
    const ownMs = gateway.ownMs.sort((a, b) => a - b)
    delete gateway.ownMs
    // Idle after the burst (the rounds' 2 s pause included): V8 gives memory back on its own schedule (its memory reducer runs after some idle time).
    const settled: Array<[number, number]> = []
    for (const at of IDLE_SAMPLES_SECONDS) {
      await new Promise((resolve) => setTimeout(resolve, (at - (settled.at(-1)?.[0] ?? 0)) * 1000))
      settled.push([at, rssOf(gateway.child.pid!)])
    }
    const gatewayLatencies = [...first.latencies, ...second.latencies].sort((a, b) => a - b)
    const addedP50 = quantile(gatewayLatencies, 0.5) - quantile(direct.latencies, 0.5)
    const addedP99 = quantile(gatewayLatencies, 0.99) - quantile(direct.latencies, 0.99)
    const gatewayPerSecond = (first.perSecond + second.perSecond) / 2
    const ratio = gatewayPerSecond / direct.perSecond
    const rssDrift = (second.rss!.after - first.rss!.after) / first.rss!.after
    console.log(`## ${title}\n`)
    console.log('| round | requests | failed | corrupted | req/s | p50 ms | p99 ms | gateway RSS before / peak / after |')
    console.log('|---|---:|---:|---:|---:|---:|---:|---|')
    for (const [name, result] of [['gateway 1', first], ['gateway 2', second], ['direct', direct], ['pass-through proxy', floor]] as const) {
      const rss = result.rss === undefined ? '—' : `${mb(result.rss.before)} / ${mb(result.rss.peak)} / ${mb(result.rss.after)}`
      console.log(`| ${name} | ${result.requests} | ${result.failed} | ${result.corrupted} | ${result.perSecond.toFixed(0)} | ${quantile(result.latencies, 0.5).toFixed(1)} | ${quantile(result.latencies, 0.99).toFixed(1)} | ${rss} |`)
    }
    const failures = first.failed + second.failed + direct.failed + floor.failed
    const corrupted = first.corrupted + second.corrupted + direct.corrupted + floor.corrupted
    console.log(`\nGateway RSS: ${mb(cold)} started; ${mb(first.rss!.before)} after the warm-up round (${warmUp.requests} requests, ${warmUp.failed} failed, ${warmUp.corrupted} corrupted, not counted above); idle after the last round: ${settled.map(([at, rss]) => `${mb(rss)} at ${at} s`).join(', ')}.\n`)
    console.log('| target | measured | verdict |\n|---|---:|---|')
    console.log(`| 0 failed, 0 corrupted | ${failures} / ${corrupted} | ${verdict(failures === 0 && corrupted === 0)} |`)
    console.log(`| gateway/direct throughput ≥ 0.7 | ${ratio.toFixed(2)} | ${verdict(ratio >= 0.7)} |`)
    const ownP99 = quantile(ownMs, 0.99)
    // Flat out, the cores are saturated: bytes wait in the sockets for the gateway's event loop, and
    // the gateway's log counts that wait as the upstream's. The clients' wait is the queue (context row).
    const latencyVerdict = delayMs === 0 ? 'not judged: saturated (the clients wait in the queue; context row)' : verdict(ownP99 <= 5)
    console.log(`| added p99 ≤ 5 ms: the gateway's own time per exchange (its whole time less the upstream's, from its log) | ${ownP99.toFixed(1)} ms (p50 ${quantile(ownMs, 0.5).toFixed(1)} ms, of ${ownMs.length} exchanges) | ${latencyVerdict} |`)
    console.log(`| (context) whole-body time, gateway rounds less the direct round | p99 ${addedP99.toFixed(1)} ms, p50 ${addedP50.toFixed(1)} ms | — |`)
    console.log(`| RSS after round 2 within 15 % of after round 1 | ${(rssDrift * 100).toFixed(1)} % | ${verdict(Math.abs(rssDrift) <= 0.15)} |\n`)
    // The floor: a proxy that repairs nothing, in the same run. What a hop costs here is not the gateway's.
    const floorP50 = quantile(gatewayLatencies, 0.5) - quantile(floor.latencies, 0.5)
    const floorP99 = quantile(gatewayLatencies, 0.99) - quantile(floor.latencies, 0.99)
    console.log(`Against the pass-through proxy (a Node proxy that repairs nothing, \`bench/load-pass-through.ts\`): it reaches ${(floor.perSecond / direct.perSecond).toFixed(2)} of direct; the gateway reaches ${(gatewayPerSecond / floor.perSecond).toFixed(2)} of it, and adds ${floorP50.toFixed(1)} ms at p50 and ${floorP99.toFixed(1)} ms at p99 to it.\n`)
  } finally {
    passThrough.child.kill('SIGKILL')
    gateway.child.kill('SIGKILL')
    upstream.child.kill('SIGKILL')
  }
}

const flagsNote = gatewayNodeFlags.length === 0 ? '' : ` The gateway's Node runs with \`${gatewayNodeFlags.join(' ')}\`.`
console.log(`# Load bench\n\nNode ${version}; ${concurrency} concurrent streaming clients, ${seconds} s per round; the Cherry capture (116 SSE events, two calls) per request.${flagsNote}\n`)
await scenario('Flat out: the upstream sends every event at once (the gateway\'s CPU cost decides)', 0)
await scenario(`Paced: the upstream sends its events ${pacedDelayMs} ms apart, on a fixed schedule (about a fast model's token rate)`, pacedDelayMs)
