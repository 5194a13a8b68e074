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
