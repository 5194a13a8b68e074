/**
 * Timing helpers: `performance.now()`, warm-up, median of several runs.
 */

export interface Timing {
  /** Median of the measured runs, in milliseconds. */
  median: number
  runs: number
}

export interface MeasureOptions {
  /** Untimed runs first (JIT warm-up). @default 2 */
  warmup?: number
  /** At least this many timed runs. @default 5 */
  minRuns?: number
  /** At most this many timed runs. @default 21 */
  maxRuns?: number
  /** Stop adding runs (past minRuns) once this much time was spent. @default 1000 */
  budgetMs?: number
}

/** A value the JIT can't prove unused: every measured function's result is folded into it. */
let blackhole = 0

export function consume(value: number): void {
  blackhole = (blackhole + value) | 0
}

export function blackholeValue(): number {
  return blackhole
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * Times `run` (which returns a number to keep its work observable): `warmup`
 * untimed runs, then timed runs back to back until at least `minRuns` were
 * taken and `budgetMs` spent (or `maxRuns` were taken).
 *
 * No forced `gc()` between runs: on a small machine the concurrent sweeping
 * that follows a full collection lands in the next timed run and about doubles
 * it. Runs see the steady state a long-lived stream sees instead.
 */
export function measure(run: () => number, options: MeasureOptions = {}): Timing {
  const { warmup = 2, minRuns = 5, maxRuns = 21, budgetMs = 1000 } = options
  for (let index = 0; index < warmup; index++) consume(run())
  const times: number[] = []
  const started = performance.now()
  while (times.length < maxRuns && (times.length < minRuns || performance.now() - started < budgetMs)) {
    const before = performance.now()
    const value = run()
    times.push(performance.now() - before)
    consume(value)
  }
  return { median: median(times), runs: times.length }
}

/**
 * Times several functions in interleaved rounds, alternating the order each
 * round, so that drift in the machine or the heap (and garbage one run leaves
 * to the next) falls on all of them alike. Returns one median per function.
 */
export function measureInterleaved(runs: ReadonlyArray<() => number>, options: MeasureOptions = {}): number[] {
  const { warmup = 2, minRuns = 5, maxRuns = 21, budgetMs = 1000 } = options
  for (let round = 0; round < warmup; round++) for (const run of runs) consume(run())
  const times = runs.map((): number[] => [])
  const started = performance.now()
  for (let round = 0; round < maxRuns && (round < minRuns || performance.now() - started < budgetMs); round++) {
    for (let step = 0; step < runs.length; step++) {
      const index = round % 2 === 0 ? step : runs.length - 1 - step
      const before = performance.now()
      const value = runs[index]!()
      times[index]!.push(performance.now() - before)
      consume(value)
    }
  }
  return times.map(median)
}

/** MB/s, where MB = 1e6 UTF-16 code units of input. */
export function throughput(codeUnits: number, milliseconds: number): number {
  return codeUnits / 1e6 / (milliseconds / 1000)
}

/** Heap in use after a full collection (needs `node --expose-gc`). */
export function heapAfterGc(): number {
  if (globalThis.gc === undefined) throw new Error('Run node with --expose-gc to measure memory')
  globalThis.gc()
  globalThis.gc()
  return process.memoryUsage().heapUsed
}

/**
 * Bundles `entry` the way `npm run build` compiles it (esbuild, no
 * `keepNames`) into a temporary file and imports it, or undefined when esbuild
 * cannot. tsx compiles with `keepNames`, which gives every closure its own
 * `name` property when it is created and so inflates the memory of
 * closure-built objects; memory is measured on the shipped form.
 */
export async function importAsBuilt<Module>(entry: string): Promise<Module | undefined> {
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { pathToFileURL } = await import('node:url')
  const directory = mkdtempSync(join(tmpdir(), 'dsml-bench-'))
  try {
    const { buildSync } = await import('esbuild')
    const outfile = join(directory, 'bundle.mjs')
    buildSync({ entryPoints: [entry], bundle: true, format: 'esm', target: 'es2022', outfile, logLevel: 'silent' })
    return (await import(pathToFileURL(outfile).href)) as Module
  } catch {
    return undefined
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

/** The CPU model, from /proc/cpuinfo on Linux, else from Node. */
export async function cpuModel(): Promise<string> {
  const { readFileSync } = await import('node:fs')
  const { cpus } = await import('node:os')
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('model name'))
    if (line !== undefined) return line.slice(line.indexOf(':') + 1).trim()
  } catch {
    // not Linux: fall back to what Node knows
  }
  return cpus()[0]?.model ?? 'unknown'
}
