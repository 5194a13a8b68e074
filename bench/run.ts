/**
 * DSML engine benchmark: throughput, doubling (linearity) and memory, in one
 * process, printed as Markdown. A report, not a test: it never exits non-zero
 * because a target failed.
 *
 *   npm run bench        (node --expose-gc --import tsx bench/run.ts)
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDsmlSanitizer, type DsmlSanitizer, sanitizeText } from '../src/dsml/index.ts'
import type { DoublingResult } from './doubling.ts'
import { blackholeValue, consume, cpuModel, heapAfterGc, importAsBuilt, measure, measureInterleaved, type MeasureOptions, median, throughput } from './measure.ts'
import { BARS } from '../src/dsml/grammar.ts'
import { FENCE_BACKLOG_CHARS, FENCE_BACKLOG_PIECES } from '../src/dsml/fence-backlog.ts'
import { DENSE_SHAPES, DENSE_SIZE, type DenseResult, fedBy4, measureDense, SHAPES, whole } from './shapes.ts'

const started = performance.now()

// ── what is measured (beside whole and fedBy4, in shapes.ts) ──────────────

function indexOfScan(text: string): number {
  let count = 0
  for (let index = text.indexOf('<'); index !== -1; index = text.indexOf('<', index + 1)) count++
  return count
}

function jsonRoundTrip(text: string): number {
  return (JSON.parse(JSON.stringify(text)) as string).length
}

/** The shortcut the simpler sanitizers take: a text without the word or a bar is left alone. */
function substringGate(text: string): number {
  return text.includes('DSML') || [...BARS].some((bar) => text.includes(bar)) ? 1 : 0
}

// ── machine ──────────────────────────────────────────────────────────────


function print(line = ''): void {
  console.log(line)
}

const fixed = (value: number, digits = 1): string => value.toFixed(digits)

const SOURCE_DIR = fileURLToPath(new URL('../src/dsml/', import.meta.url))

/** Which engine was measured: a hash of src/dsml/*.ts (the tree may differ from the last commit). */
function sourceFingerprint(): string {
  const hash = createHash('sha256')
  for (const file of readdirSync(SOURCE_DIR).filter((name) => name.endsWith('.ts')).sort()) {
    hash.update(file).update(readFileSync(join(SOURCE_DIR, file)))
  }
  return hash.digest('hex').slice(0, 12)
}

const load = (): string => os.loadavg().map((value) => fixed(value, 2)).join(' ')

print('# DSML engine benchmark')
print()
print(`Node ${process.version}, ${os.availableParallelism()} CPUs (nproc), CPU: ${await cpuModel()}, ${os.platform()} ${os.arch()}`)
print(`Engine: src/dsml/*.ts sha256 ${sourceFingerprint()}, loaded through tsx. Load average at start: ${load()}`)
print()
print('MB = 1e6 UTF-16 code units of input (string `.length`), so MB/s = input code units / 1e6 / seconds.')
print('Each figure is the median of several timed runs after 2 warm-up runs; "fed by 4" = a fresh')
print('`createDsmlSanitizer()` fed `text.slice(i, i + 4)` chunks, then `end()` (slicing included).')
print()

// ── sanity: what the engine does with each input ─────────────────────────

print('## Sanity check (one run each, whole vs fed by 4)')
print()
print('| Input | code units | text out | calls | diagnostics | fed by 4 gives the same |')
print('|---|---:|---:|---:|---|---|')
const inputs = new Map<string, string>()
for (const shape of SHAPES) {
  const text = shape.make(shape.size)
  inputs.set(shape.key, text)
  const result = sanitizeText(text, shape.options)
  const kinds = new Map<string, number>()
  for (const diagnostic of result.diagnostics) kinds.set(diagnostic.kind, (kinds.get(diagnostic.kind) ?? 0) + 1)
  const sanitizer = createDsmlSanitizer(shape.options)
  let fedText = ''
  let fedCalls = 0
  const collect = (events: ReturnType<DsmlSanitizer['feed']>): void => {
    for (const event of events) {
      if (event.type === 'text') fedText += event.text
      else if (event.type === 'tool-call') fedCalls++
    }
  }
  for (let index = 0; index < text.length; index += 4) collect(sanitizer.feed(text.slice(index, index + 4)))
  collect(sanitizer.end())
  const same = fedText === result.text && fedCalls === result.calls.length
  const diagnostics = [...kinds].map(([kind, count]) => `${kind} ×${count}`).join(', ') || 'none'
  print(`| ${shape.label} | ${text.length} | ${result.text.length} | ${result.calls.length} | ${diagnostics} | ${same ? 'yes' : '**NO**'} |`)
}
print()

// ── 1. throughput ────────────────────────────────────────────────────────

print('## 1. Throughput, MB/s (median ms in parentheses)')
print()
print('| Input | code units | `sanitizeText` whole | fed by 4 | baseline `indexOf(\'<\')` loop | baseline `JSON.parse(JSON.stringify)` |')
print('|---|---:|---:|---:|---:|---:|')
const throughputs = new Map<string, { whole: number; fed: number }>()
for (const shape of SHAPES) {
  const text = inputs.get(shape.key)!
  const cell = (run: () => number, options?: MeasureOptions): { text: string; rate: number } => {
    const timing = measure(run, options)
    const rate = throughput(text.length, timing.median)
    return { text: `${fixed(rate)} (${fixed(timing.median, 2)})`, rate }
  }
  const wholeCell = cell(() => whole(text, shape.options))
  const fedCell = cell(() => fedBy4(text, shape.options))
  const scanCell = cell(() => indexOfScan(text), { minRuns: 9, budgetMs: 300 })
  const jsonCell = cell(() => jsonRoundTrip(text), { minRuns: 9, budgetMs: 300 })
  throughputs.set(shape.key, { whole: wholeCell.rate, fed: fedCell.rate })
  print(`| ${shape.label} | ${text.length} | ${wholeCell.text} | ${fedCell.text} | ${scanCell.text} | ${jsonCell.text} |`)
}
print()

// ── 2. markup-dense text ──────────────────────────────────────────────────

print('## 2. Markup-dense text with no DSML: time relative to prose of the same size (target ≤ 4×)')
print()
print(`${DENSE_SIZE / 1e6} MB each, timed in interleaved rounds with prose, medians, in a process of its own (\`bench/dense.ts\`);`)
print('"fed by 64" = a fresh sanitizer fed 64 code units at a time. "after the other inputs": the same, timed here, where')
print('the inputs above ran first (their type feedback makes V8 compile some engine code more generally). "substring')
print('gate" = `includes(\'DSML\')` and each bar, the shortcut simpler sanitizers take (it recovers nothing markerless).')
print()
print('| Input | whole MB/s | × prose | fed by 64 MB/s | × prose | × prose after the other inputs (whole / fed) | substring gate MB/s |')
print('|---|---:|---:|---:|---:|---:|---:|')
const DENSE_SCRIPT = fileURLToPath(new URL('./dense.ts', import.meta.url))
const denseChild = spawnSync(process.execPath, [...process.execArgv, DENSE_SCRIPT], { encoding: 'utf8' })
if (denseChild.status !== 0) throw new Error(`dense.ts failed:\n${denseChild.stderr}`)
const dense = JSON.parse(denseChild.stdout.trim().split('\n').pop()!) as DenseResult
const here = measureDense()
const denseGate = measureInterleaved(
  DENSE_SHAPES.map((shape) => shape.make(DENSE_SIZE)).map((text) => () => substringGate(text)),
  { warmup: 3, minRuns: 9, maxRuns: 31, budgetMs: 500 },
)
const denseRatios: Array<{ label: string; ratio: number }> = []
DENSE_SHAPES.forEach((shape, index) => {
  const ratio = (times: number[]): number => times[index]! / times[0]!
  if (index > 0) denseRatios.push({ label: `${shape.label}, whole`, ratio: ratio(dense.whole) }, { label: `${shape.label}, fed by 64`, ratio: ratio(dense.fed) })
  const rate = (ms: number): string => fixed(throughput(DENSE_SIZE, ms), 0)
  const cells = [rate(dense.whole[index]!), fixed(ratio(dense.whole), 2), rate(dense.fed[index]!), fixed(ratio(dense.fed), 2)]
  print(`| ${shape.label} | ${cells.join(' | ')} | ${fixed(ratio(here.whole), 2)} / ${fixed(ratio(here.fed), 2)} | ${rate(denseGate[index]!)} |`)
})
print()

// ── 3. doubling ──────────────────────────────────────────────────────────

/** V8's young generation for the doubling processes: 1 MB semi-spaces. */
const YOUNG_GENERATION = '--max-semi-space-size=1'
print('## 3. Doubling: median ms at n, 2n, 4n, timed in interleaved rounds (linear ≈ 4, target ≤ 4.6)')
print()
print('Each row in a fresh Node process (`bench/doubling.ts`), so that the type feedback and heap the other inputs left')
print(`behind do not land in its runs, with V8's young generation fixed small (\`${YOUNG_GENERATION}\`): every size then pays`)
print('the collector at the same rate. With the default, which grows, a whole-text run at n may finish before its first')
print('collection while 2n and 4n do not, a one-time step of up to 40 % that says nothing about the engine.')
print()
print('| Input | n (code units) | mode | t(n) ms | t(2n) ms | t(4n) ms | t(4n)/t(n) |')
print('|---|---:|---|---:|---:|---:|---:|')
const ratios: Array<{ label: string; ratio: number }> = []
const DOUBLING_SCRIPT = fileURLToPath(new URL('./doubling.ts', import.meta.url))
for (const shape of SHAPES) {
  for (const [mode, label] of [
    ['whole', 'whole'],
    ['fed', 'fed by 4'],
  ] as const) {
    const child = spawnSync(process.execPath, [...process.execArgv, YOUNG_GENERATION, DOUBLING_SCRIPT, shape.key, mode], { encoding: 'utf8' })
    if (child.status !== 0) throw new Error(`doubling.ts ${shape.key} ${mode} failed:\n${child.stderr}`)
    const { lengths, times } = JSON.parse(child.stdout.trim().split('\n').pop()!) as DoublingResult
    const ratio = times[2]! / times[0]!
    ratios.push({ label: `${shape.label}, ${label}`, ratio })
    const name = shape.doublingNote === undefined ? shape.label : `${shape.label}; ${shape.doublingNote}`
    print(`| ${name} | ${lengths[0]} | ${label} | ${fixed(times[0]!, 2)} | ${fixed(times[1]!, 2)} | ${fixed(times[2]!, 2)} | ${fixed(ratio, 2)} |`)
  }
}
print()

// ── 4. memory ────────────────────────────────────────────────────────────

interface Engine {
  createDsmlSanitizer: typeof createDsmlSanitizer
}

/** The engine as shipped (see `importAsBuilt`). */
function loadShippedEngine(): Promise<Engine | undefined> {
  return importAsBuilt<Engine>(join(SOURCE_DIR, 'index.ts'))
}

const SANITIZERS = 10_000
const HELD_CHUNK = 'The total is small when a <'

/** Heap retained per sanitizer, holding `SANITIZERS` of them (median of 3 measurements). */
function bytesPerSanitizer(engine: Engine, prepare: (sanitizer: DsmlSanitizer) => void): number {
  for (let index = 0; index < 1000; index++) prepare(engine.createDsmlSanitizer()) // warm up
  const samples: number[] = []
  for (let attempt = 0; attempt < 3; attempt++) {
    const keep: Array<DsmlSanitizer | undefined> = new Array<DsmlSanitizer | undefined>(SANITIZERS).fill(undefined)
    const before = heapAfterGc()
    for (let index = 0; index < SANITIZERS; index++) {
      const sanitizer = engine.createDsmlSanitizer()
      prepare(sanitizer)
      keep[index] = sanitizer
    }
    const after = heapAfterGc()
    consume(keep.length)
    samples.push((after - before) / SANITIZERS)
  }
  return median(samples)
}

/** Prose a stream passed, waiting for the fence tracker (`FENCE_BACKLOG_CHARS`, `FENCE_BACKLOG_PIECES`): the most an idle stream keeps. */
const PASSED_CHUNKS = 60
const feedPassed = (sanitizer: DsmlSanitizer): void => {
  for (let index = 0; index < PASSED_CHUNKS; index++) sanitizer.feed(`chunk ${index} of prose, passed through with nothing to read in it at all. `.slice(0, 64))
}

let heldOk = true
const feedHeld = (sanitizer: DsmlSanitizer): void => {
  sanitizer.feed(HELD_CHUNK)
  if (sanitizer.heldChars !== 1) heldOk = false
}

print('## 4. Memory: heap retained per sanitizer (10,000 held in an array, `heapUsed` after `gc()`)')
print()
const tsxEngine: Engine = { createDsmlSanitizer }
const shippedEngine = await loadShippedEngine()
const tsxIdle = bytesPerSanitizer(tsxEngine, () => {})
const tsxHeld = bytesPerSanitizer(tsxEngine, feedHeld)
const shippedIdle = shippedEngine === undefined ? undefined : bytesPerSanitizer(shippedEngine, () => {})
const shippedHeld = shippedEngine === undefined ? undefined : bytesPerSanitizer(shippedEngine, feedHeld)
const tsxPassed = bytesPerSanitizer(tsxEngine, feedPassed)
const shippedPassed = shippedEngine === undefined ? undefined : bytesPerSanitizer(shippedEngine, feedPassed)
const bytes = (value: number | undefined): string => (value === undefined ? 'n/a (esbuild not found)' : String(Math.round(value)))
print('| Sanitizer state | as built (esbuild, no `keepNames`) | as run by tsx (`keepNames`) |')
print('|---|---:|---:|')
print(`| idle (created, fed nothing) | ${bytes(shippedIdle)} | ${bytes(tsxIdle)} |`)
print(`| fed ${JSON.stringify(HELD_CHUNK)} (\`<\` held${heldOk ? '' : ' — **heldChars was not 1**'}) | ${bytes(shippedHeld)} | ${bytes(tsxHeld)} |`)
print(`| fed ${PASSED_CHUNKS} chunks of 64 characters of prose, passed (what waits for the fence tracker: under ${FENCE_BACKLOG_CHARS} characters and ${FENCE_BACKLOG_PIECES} pieces) | ${bytes(shippedPassed)} | ${bytes(tsxPassed)} |`)
print()
print('The target applies to the built engine; the tsx column is the same source compiled with `keepNames`.')
print()

// ── 5. targets ───────────────────────────────────────────────────────────

print('## 5. Targets')
print()
const verdict = (pass: boolean): string => (pass ? 'PASS' : 'FAIL')
const a = throughputs.get('a')!
const b = throughputs.get('b')!
print(`- ${verdict(a.whole >= 300)}: prose (a) whole ≥ 300 MB/s — measured ${fixed(a.whole)} MB/s`)
print(`- ${verdict(a.fed >= 30)}: prose (a) fed by 4 ≥ 30 MB/s — measured ${fixed(a.fed)} MB/s`)
print(`- ${verdict(b.whole >= 50)}: block-dense (b) whole ≥ 50 MB/s — measured ${fixed(b.whole)} MB/s`)
const worstDense = denseRatios.reduce((max, entry) => (entry.ratio > max.ratio ? entry : max))
print(`- ${verdict(worstDense.ratio <= 4)}: markup-dense text ≤ 4× prose, whole and fed by 64 — worst ${fixed(worstDense.ratio, 2)} (${worstDense.label})`)
const worst = ratios.reduce((max, entry) => (entry.ratio > max.ratio ? entry : max))
print(`- ${verdict(worst.ratio <= 4.6)}: every doubling ratio ≤ 4.6 — worst ${fixed(worst.ratio, 2)} (${worst.label})`)
for (const entry of ratios.filter((item) => item.ratio > 4.6)) print(`  - FAIL: ${entry.label}: ${fixed(entry.ratio, 2)}`)
const idleBytes = shippedIdle ?? tsxIdle
print(`- ${verdict(idleBytes <= 1024)}: memory ≤ 1 KB per idle sanitizer — measured ${Math.round(idleBytes)} bytes (${shippedIdle === undefined ? 'tsx build' : 'as built'})`)
print()
print(`Total bench time ${fixed((performance.now() - started) / 1000)} s. Load average at end: ${load()} (checksum ${blackholeValue()}).`)
