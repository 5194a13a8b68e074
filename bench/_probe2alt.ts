import { PerformanceObserver } from 'node:perf_hooks'
import { sanitizeText, createDsmlSanitizer } from '/tmp/alt/src/dsml/index.ts'
import { lessThanDense, prose, blockDense, bigParameter } from '/work/main/bench/inputs.ts'
let gcMs = 0
new PerformanceObserver((list) => { for (const e of list.getEntries()) gcMs += e.duration }).observe({ entryTypes: ['gc'] })
const which = process.argv[2] ?? 'd'
const base = Number(process.argv[3] ?? 200000)
const mode = process.argv[4] ?? 'whole'
const opts = which === 'ck' ? { maxHoldChars: 64_000_000 } : undefined
const make = (n: number) => which === 'd' ? lessThanDense(n, 4) : which === 'a' ? prose(n, 1) : which === 'b' ? blockDense(n, Math.round(500 * n / 1e6), 2) : bigParameter(n, 3)
const run = (t: string) => { if (mode === 'whole') return sanitizeText(t, opts).text.length; const s = createDsmlSanitizer(opts); let n = 0; for (let i = 0; i < t.length; i += 4) n += s.feed(t.slice(i, i + 4)).length; return n + s.end().length }
const texts = [1, 2, 4, 8].map((f) => make(base * f))
for (const t of texts) { run(t); run(t) }
for (const t of texts) {
  const times: number[] = []; const gcs: number[] = []
  for (let r = 0; r < 9; r++) {
    await new Promise((r) => setTimeout(r, 0))
    const g0 = gcMs; const t0 = performance.now(); run(t); times.push(performance.now() - t0)
    await new Promise((r) => setTimeout(r, 0)); gcs.push(gcMs - g0)
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!
  console.log(which, mode, t.length, 'median', med(times).toFixed(1), 'ms; min', Math.min(...times).toFixed(1), '; gc median', med(gcs).toFixed(1))
}
