import { sanitizeText, createDsmlSanitizer } from '../src/dsml/index.ts'
import { lessThanDense, prose, blockDense, bigParameter } from './inputs.ts'
import { measure } from './measure.ts'
const which = process.argv[2] ?? 'd'
const make = (n: number) => which === 'd' ? lessThanDense(n, 4) : which === 'a' ? prose(n, 1) : which === 'b' ? blockDense(n, Math.round(500 * n / 1e6), 2) : bigParameter(n, 3)
const base = Number(process.argv[3] ?? 200000)
const opts = which === 'ck' ? { maxHoldChars: 64_000_000 } : undefined
for (const f of [1, 2, 4, 8]) {
  const t = make(base * f)
  const w = measure(() => sanitizeText(t, opts).text.length, { minRuns: 7, budgetMs: 700 })
  const fed = measure(() => { const s = createDsmlSanitizer(opts); let n = 0; for (let i = 0; i < t.length; i += 4) n += s.feed(t.slice(i, i + 4)).length; return n + s.end().length }, { minRuns: 5, budgetMs: 700 })
  console.log(which, t.length, 'whole', w.median.toFixed(2), 'fed4', fed.median.toFixed(2))
}
