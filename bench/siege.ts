/**
 * The gateway under siege: the second part of the hostile report. One table row per attack on
 * `dsml-streams serve` (rows in `siege-attacks.ts`): each row starts a fresh gateway from the build
 * in a process group of its own, mounts the attack, and measures during it the latency of GET
 * /health (polled every 20 ms) and what an honest streaming client beside the attacker gets. A
 * report, not a test: it prints Markdown and never exits non-zero because a target was missed.
 *
 *   npm run bench:siege   (node --import tsx bench/siege.ts; `npm run bench:hostile` runs it after the hostile inputs)
 *   node --import tsx bench/siege.ts --only 2,4 --slowloris-seconds 5   (some rows, a shorter slowloris; nothing saved)
 *
 * Run in full, it also saves its section in `hostile-results.md` (after the hostile inputs, in
 * place of the section an earlier run saved). Run `npm run build` first: the gateways run from
 * dist/ (row 6's `npm start` rebuilds it).
 */
import { existsSync, fstatSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { check, type Check, count, describeError } from './hostile-support.ts'
import { cpuModel } from './measure.ts'
import { type SiegeContext, type SiegeOutcome, type SiegeRow, SIEGE_ROWS } from './siege-attacks.ts'
import { describeHonest, type FakeUpstream, HEALTH_TIMEOUT_MS, type HealthSummary, ROOT, sleep, startFakeUpstream, stopAll } from './siege-support.ts'

const RESULTS = `${ROOT}bench/hostile-results.md`
const TITLE = '# The gateway under siege'
const HEALTH_P99_TARGET_MS = 100

interface RowReport {
  row: SiegeRow
  /** Undefined when the row failed before it measured anything. */
  outcome: SiegeOutcome | undefined
  checks: Check[]
}

const lines: string[] = []
const print = (line = ''): void => {
  lines.push(line)
  console.log(line)
}
const fixed = (value: number, digits = 1): string => value.toFixed(digits)
const mark = (held: boolean): string => (held ? '✓' : '✗')
/** Markdown table cells cannot hold a bare `|` or a line break. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

function milliseconds(value: number): string {
  if (Number.isNaN(value)) return '—'
  return value === Infinity ? '∞' : fixed(value, 0)
}

/** The checks every row shares: /health p99, every poll 200, the honest client's call. */
function sharedChecks(outcome: SiegeOutcome): Check[] {
  const { health, honest } = outcome
  return [
    check(`/health p99 ≤ ${HEALTH_P99_TARGET_MS} ms`, health.p99 <= HEALTH_P99_TARGET_MS),
    check('/health: every poll answered 200', health.polls > 0 && health.answered200 === health.polls),
    check('the honest client got its call', honest.gotItsCall),
  ]
}

/** Runs one row, bounded by its limit; a row that throws or runs over reports that as a failed check. */
async function runRow(row: SiegeRow, context: SiegeContext): Promise<RowReport> {
  let timer: NodeJS.Timeout | undefined
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the row did not finish within ${row.limitMs / 1000} s`)), row.limitMs)
  })
  try {
    const outcome = await Promise.race([row.run(context), overrun])
    return { row, outcome, checks: [...sharedChecks(outcome), ...outcome.checks] }
  } catch (error) {
    return { row, outcome: undefined, checks: [check(`the row could not run: ${describeError(error)}`, false)] }
  } finally {
    clearTimeout(timer)
    await stopAll()
  }
}

function healthCell(health: HealthSummary): string {
  return `${milliseconds(health.p50)} / ${milliseconds(health.p99)} / ${milliseconds(health.max)} ${mark(health.p99 <= HEALTH_P99_TARGET_MS)}`
}

function answeredCell(health: HealthSummary): string {
  return `${count(health.answered200)} / ${count(health.answeredOther)} / ${count(health.unanswered)} ${mark(health.answered200 === health.polls)}`
}

function printRow(report: RowReport): void {
  const { row, outcome } = report
  const own = (outcome?.checks ?? report.checks).map((entry) => `${entry.label} ${mark(entry.held)}`).join('; ')
  const facts = outcome === undefined || outcome.facts.length === 0 ? '' : ` — ${outcome.facts.join('; ')}`
  const cells = [
    row.row,
    row.attack,
    row.gateway,
    outcome === undefined ? '—' : healthCell(outcome.health),
    outcome === undefined ? '—' : answeredCell(outcome.health),
    outcome === undefined ? '—' : `${describeHonest(outcome.honest)} ${mark(outcome.honest.gotItsCall)}`,
    own + facts,
    mark(report.checks.every((entry) => entry.held)),
  ]
  print(`| ${cells.map(cell).join(' | ')} |`)
}

function printHeader(cpu: string, slowlorisSeconds: number): void {
  print(TITLE)
  print()
  print(`Node ${process.version}, ${os.cpus().length} cores (${cpu}), ${new Date().toISOString().slice(0, 10)}. Produced by`)
  print('`npm run bench:siege` (run by `npm run bench:hostile` after the table above; `bench/siege.ts`, attacks in')
  print('`bench/siege-attacks.ts`); method in `bench/README.md`.')
  print()
  print('Each row starts a fresh gateway from the build (`node dist/cli/bin.mjs serve --port P …`, a process group of its own,')
  print('killed after the row) and mounts one attack. During it, GET /health on a fresh connection every 20 ms, on a fixed')
  print(`schedule (a poll unanswered after ${HEALTH_TIMEOUT_MS / 1000} s counts as none; p50 / p99 / max over every poll, an unanswered one as ∞),`)
  print('and an honest streaming client beside the attacker: `POST /v1/chat/completions`, `stream: true`, the replay\'s default')
  print('capture (rows 4 and 5: a quick leaked call from the fake upstream), read to its end. Targets: /health p99 ≤ 100 ms and')
  print('every poll answered 200; the honest client gets its call (200, a `tool_calls` delta, `[DONE]`, no error event); the')
  print(`row's own checks. The slowloris runs ${slowlorisSeconds} s. ✓ a target held, ✗ it did not.`)
  print()
  print('| # | attack | gateway | /health ms p50 / p99 / max | /health 200 / other / none | honest client | the row\'s checks — facts | verdict |')
  print('|---|---|---|---:|---:|---|---|---|')
}

function printSummary(reports: readonly RowReport[], started: number): void {
  const missed = reports.filter((report) => report.checks.some((entry) => !entry.held))
  const checks = reports.flatMap((report) => report.checks)
  print()
  print(`${reports.length - missed.length} of ${reports.length} rows met every target (${checks.filter((entry) => entry.held).length} of ${checks.length} checks held).` + (missed.length === 0 ? '' : ` Rows with a ✗: ${missed.map((report) => report.row.row).join(', ')}.`))
  print()
  print(`Total ${fixed((performance.now() - started) / 1000)} s. Load average at end: ${os.loadavg().map((value) => fixed(value, 2)).join(' ')}.`)
}

/** Whether this process's stdout is `path` itself (`… > bench/hostile-results.md`): then the printed report is the saved one. */
function stdoutIs(path: string): boolean {
  try {
    const out = fstatSync(1)
    const file = statSync(path)
    return out.isFile() && out.ino === file.ino && out.dev === file.dev
  } catch {
    return false
  }
}

/** Saves the printed section in `hostile-results.md`, after the hostile inputs, in place of an earlier run's. */
function saveSection(): void {
  if (stdoutIs(RESULTS)) return
  const saved = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : ''
  const at = saved.startsWith(TITLE) ? 0 : saved.indexOf(`\n${TITLE}\n`)
  const before = (at === -1 ? saved : saved.slice(0, at)).trimEnd()
  writeFileSync(RESULTS, `${before === '' ? '' : `${before}\n\n`}${lines.join('\n')}\n`)
  console.error(`saved in ${RESULTS}`)
}

function sharedContext(slowlorisSeconds: number): SiegeContext {
  let fake: Promise<FakeUpstream> | undefined
  return {
    slowlorisSeconds,
    fakeUpstream: () => (fake ??= startFakeUpstream()),
    async closeFakeUpstream() {
      const started = fake
      fake = undefined
      if (started !== undefined) await (await started).close()
    },
  }
}

function parseCli(): { rows: readonly SiegeRow[]; slowlorisSeconds: number; full: boolean } {
  const { values } = parseArgs({ options: { only: { type: 'string' }, 'slowloris-seconds': { type: 'string' } } })
  const only = values.only?.split(',').map((entry) => entry.trim())
  const slowlorisSeconds = Number(values['slowloris-seconds'] ?? 20)
  if (!Number.isFinite(slowlorisSeconds) || slowlorisSeconds < 6) throw new Error(`--slowloris-seconds must be a number of seconds, at least 6, got ${values['slowloris-seconds']}`)
  const rows = only === undefined ? SIEGE_ROWS : SIEGE_ROWS.filter((row) => only.includes(row.row))
  if (rows.length === 0) throw new Error(`--only names no row; the rows are ${SIEGE_ROWS.map((row) => row.row).join(', ')}`)
  return { rows, slowlorisSeconds, full: only === undefined && slowlorisSeconds === 20 }
}

async function main(): Promise<void> {
  const { rows, slowlorisSeconds, full } = parseCli()
  if (!existsSync(`${ROOT}dist/cli/bin.mjs`)) throw new Error('dist/cli/bin.mjs not found: run `npm run build` first')
  const started = performance.now()
  const context = sharedContext(slowlorisSeconds)
  printHeader(await cpuModel(), slowlorisSeconds)
  const reports: RowReport[] = []
  for (const row of rows) {
    const report = await runRow(row, context)
    reports.push(report)
    printRow(report)
    await sleep(500)
  }
  await context.closeFakeUpstream()
  printSummary(reports, started)
  if (full) saveSection()
}

await main()
