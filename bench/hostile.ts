/**
 * Hostile inputs: one table row per input an attacker (or a broken model)
 * could send — parameter names that are Object.prototype's, a 10 MB line,
 * 5 million `<`, 100,000 unclosed openers, invalid UTF-8, lone surrogates
 * split across reads, NUL, deeply repeated tags — with its wall time, peak
 * memory and result. A report, not a test: it prints Markdown and never
 * exits non-zero because a check failed; each row's result says what was
 * checked and whether it held (✓ / ✗).
 *
 *   npm run bench:hostile   (node --import tsx bench/hostile.ts, then bench/siege.ts: the gateway under siege)
 *   node --import tsx bench/hostile.ts --case KEY   (one row, as JSON: what the report runs per row)
 *
 * Each row runs in a fresh Node process (`--expose-gc`), so no row inherits
 * another's heap or type feedback. The child builds its input (untimed),
 * collects garbage twice and reads `heapUsed` ("start"), then times one run
 * through a public entry point (`src/index.ts` or a layer's `index.ts`),
 * feeding streams one read at a time and draining their output. Peak RSS is
 * the kernel's high-water mark (`process.resourceUsage().maxRSS`), reset
 * when the run starts (Linux `/proc/self/clear_refs`), so building the input
 * does not count; peak `heapUsed` is sampled after every read (at most once
 * per millisecond) and on a 5 ms timer, so inside one synchronous call
 * (`sanitizeText` on a whole text) it sees only the ends. The checks run
 * after the timing stops. The cases are in `hostile-cases.ts`.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { HOSTILE_CASES, type HostileCase } from './hostile-cases.ts'
import { type AfterRead, describeError, type Verdict } from './hostile-support.ts'
import { cpuModel } from './measure.ts'

/** What one row's child process prints (its last stdout line, as JSON). */
interface RowReport {
  key: string
  size: string
  timeMs: number
  rssAtStartBytes: number
  peakRssBytes: number
  /** `run`: the peak since the input was built (Linux lets a process reset its high-water mark); `process`: over its whole life. */
  peakRssScope: 'run' | 'process'
  peakHeapBytes: number
  heapAtStartBytes: number
  verdict: Verdict
}

const SCRIPT = fileURLToPath(import.meta.url)
/** A row that takes longer than this is reported as failed. */
const ROW_TIMEOUT_MS = 60_000
const SAMPLE_EVERY_MS = 5

const print = (line = ''): void => console.log(line)
const fixed = (value: number, digits = 1): string => value.toFixed(digits)
const megabytes = (bytes: number): string => fixed(bytes / 1e6)

// ── the child: one row ───────────────────────────────────────────────────

/**
 * Resets the kernel's RSS high-water mark to the current RSS (Linux:
 * `5` written to `/proc/self/clear_refs`), so the peak read afterwards is the
 * run's, not the input building's. False where that is not possible.
 */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5')
    return true
  } catch {
    return false
  }
}

/** The RSS high-water mark in bytes (`getrusage`'s `ru_maxrss`, which the reset above lowers too). */
const peakRss = (): number => process.resourceUsage().maxRSS * 1024

interface MemorySampler {
  /** Samples `rss` and `heapUsed`, at most once per millisecond. */
  sample: AfterRead
  stop(): { peakRssBytes: number; peakHeapBytes: number }
}

function startMemorySampler(): MemorySampler {
  let peakRssBytes = 0
  let peakHeapBytes = 0
  let lastSample = -Infinity
  const sampleNow = (): void => {
    const usage = process.memoryUsage()
    peakRssBytes = Math.max(peakRssBytes, usage.rss)
    peakHeapBytes = Math.max(peakHeapBytes, usage.heapUsed)
    lastSample = performance.now()
  }
  const timer = setInterval(sampleNow, SAMPLE_EVERY_MS)
  return {
    sample() {
      if (performance.now() - lastSample >= 1) sampleNow()
    },
    stop() {
      clearInterval(timer)
      sampleNow()
      return { peakRssBytes: Math.max(peakRssBytes, peakRss()), peakHeapBytes }
    },
  }
}

function collectGarbage(): void {
  globalThis.gc?.()
  globalThis.gc?.()
}

/** A verdict for a run that threw where the case expected none. */
function thrownVerdict(error: unknown): Verdict {
  return { checks: [{ label: `no throw (threw ${describeError(error)})`, held: false }], facts: [] }
}

/** The verdict, or, if reading it threw, a failed check saying so. */
function safeVerdict(readVerdict: () => Verdict): Verdict {
  try {
    return readVerdict()
  } catch (error) {
    return { checks: [{ label: `the checks could not run (${describeError(error)})`, held: false }], facts: [] }
  }
}

async function runRow(hostileCase: HostileCase): Promise<RowReport> {
  const prepared = hostileCase.prepare()
  collectGarbage()
  const heapAtStartBytes = process.memoryUsage().heapUsed
  const rssAtStartBytes = process.memoryUsage().rss
  const peakRssScope = resetPeakRss() ? 'run' : 'process'
  const sampler = startMemorySampler()
  const started = performance.now()
  let readVerdict: () => Verdict
  try {
    readVerdict = await prepared.run(sampler.sample)
  } catch (error) {
    readVerdict = () => thrownVerdict(error)
  }
  const timeMs = performance.now() - started
  const { peakRssBytes, peakHeapBytes } = sampler.stop()
  const verdict = safeVerdict(readVerdict)
  return { key: hostileCase.key, size: prepared.size, timeMs, rssAtStartBytes, peakRssBytes, peakRssScope, peakHeapBytes, heapAtStartBytes, verdict }
}

// ── the parent: every row in a child, then the table ─────────────────────

function failedRow(hostileCase: HostileCase, reason: string): RowReport {
  return {
    key: hostileCase.key,
    size: '—',
    timeMs: Number.NaN,
    rssAtStartBytes: Number.NaN,
    peakRssBytes: Number.NaN,
    peakRssScope: 'process',
    peakHeapBytes: Number.NaN,
    heapAtStartBytes: Number.NaN,
    verdict: { checks: [{ label: `the row's process failed: ${reason}`, held: false }], facts: [] },
  }
}

/** The line of a child's stderr that names its error, else its last line. */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('Node.js v'))
  return lines.find((line) => /^[A-Za-z]*Error\b/.test(line)) ?? lines.at(-1) ?? 'no output'
}

function runRowInChild(hostileCase: HostileCase): RowReport {
  const child = spawnSync(process.execPath, [...process.execArgv, '--expose-gc', SCRIPT, '--case', hostileCase.key], {
    encoding: 'utf8',
    timeout: ROW_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  })
  const lastLine = child.stdout.trim().split('\n').pop() ?? ''
  if (child.status !== 0 || !lastLine.startsWith('{')) {
    const reason = child.error?.message ?? errorLine(child.stderr)
    return failedRow(hostileCase, `${reason} (status ${child.status ?? child.signal})`)
  }
  return JSON.parse(lastLine) as RowReport
}

/** Markdown table cells cannot hold a bare `|` or a line break. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

function resultCell(verdict: Verdict): string {
  const checks = verdict.checks.map((entry) => `${entry.label} ${entry.held ? '✓' : '✗'}`).join('; ')
  return verdict.facts.length === 0 ? checks : `${checks} — ${verdict.facts.join('; ')}`
}

function heapCell(report: RowReport): string {
  if (Number.isNaN(report.peakHeapBytes)) return '—'
  const growth = report.peakHeapBytes - report.heapAtStartBytes
  return `${megabytes(report.peakHeapBytes)} (+${megabytes(Math.max(0, growth))})`
}

function rssCell(report: RowReport): string {
  if (Number.isNaN(report.peakRssBytes)) return '—'
  const peak = `${megabytes(report.rssAtStartBytes)} → ${megabytes(report.peakRssBytes)}`
  return report.peakRssScope === 'run' ? peak : `${peak} (process peak)`
}

function printRow(hostileCase: HostileCase, report: RowReport): void {
  const time = Number.isNaN(report.timeMs) ? '—' : fixed(report.timeMs, 0)
  const cells = [hostileCase.row, hostileCase.input, hostileCase.fedAs, report.size, time, rssCell(report), heapCell(report), resultCell(report.verdict)]
  print(`| ${cells.map(cell).join(' | ')} |`)
}

function printHeader(cpu: string): void {
  print('# Hostile inputs')
  print()
  print(`Node ${process.version}, ${os.cpus().length} cores (${cpu}), ${new Date().toISOString().slice(0, 10)}. Produced by`)
  print('`npm run bench:hostile` (`bench/hostile.ts`, cases in `bench/hostile-cases.ts`); method in `bench/README.md`.')
  print()
  print('Each row is one cold run in a fresh Node process: time is the wall time of that run (input built before, checks after).')
  print('RSS: at the start of the run (input built, two full GCs) → the kernel\'s high-water mark during the run (reset at its')
  print('start); row 0 is the floor (Node, tsx, the modules). Heap: peak `heapUsed`, sampled after every read and every 5 ms')
  print('(so only the ends of one synchronous call), with its growth over the start; it counts garbage not yet collected. The')
  print('consumer keeps all output for the checks. MB = 10⁶ bytes; `ch` = UTF-16 code units. Engine options are the defaults')
  print('unless the row says otherwise. ✓ a check held, ✗ it did not.')
  print()
  print('| # | input | fed as | size | time ms | RSS MB start → peak | peak heap MB (growth) | result |')
  print('|---|---|---|---:|---:|---:|---:|---|')
}

function printSummary(reports: readonly RowReport[], started: number): void {
  const checks = reports.flatMap((report) => report.verdict.checks)
  const missed = reports.filter((report) => report.verdict.checks.some((entry) => !entry.held))
  const rowsOf = (key: string): string => HOSTILE_CASES.find((hostileCase) => hostileCase.key === key)?.row ?? key
  print()
  print(`${checks.filter((entry) => entry.held).length} of ${checks.length} checks held.` + (missed.length === 0 ? '' : ` Rows with a ✗: ${missed.map((report) => rowsOf(report.key)).join(', ')}.`))
  print()
  print(`Total ${fixed((performance.now() - started) / 1000)} s. Load average at end: ${os.loadavg().map((value) => fixed(value, 2)).join(' ')}.`)
}

async function report(): Promise<void> {
  const started = performance.now()
  printHeader(await cpuModel())
  const reports: RowReport[] = []
  for (const hostileCase of HOSTILE_CASES) {
    const rowReport = runRowInChild(hostileCase)
    reports.push(rowReport)
    printRow(hostileCase, rowReport)
  }
  printSummary(reports, started)
}

async function main(): Promise<void> {
  const caseFlag = process.argv.indexOf('--case')
  if (caseFlag === -1) return report()
  const key = process.argv[caseFlag + 1]
  const hostileCase = HOSTILE_CASES.find((candidate) => candidate.key === key)
  if (hostileCase === undefined) throw new Error(`Unknown case ${key}; one of: ${HOSTILE_CASES.map((candidate) => candidate.key).join(', ')}`)
  console.log(JSON.stringify(await runRow(hostileCase)))
}

await main()
