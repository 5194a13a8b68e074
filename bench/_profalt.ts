import { sanitizeText, createDsmlSanitizer } from '/tmp/alt/src/dsml/index.ts'
import { lessThanDense, prose, blockDense, bigParameter } from '/work/main/bench/inputs.ts'
const which = process.argv[2] ?? 'd'
const n = Number(process.argv[3] ?? 1600000)
const mode = process.argv[4] ?? 'whole'
const reps = Number(process.argv[5] ?? 10)
const t = which === 'd' ? lessThanDense(n, 4) : which === 'a' ? prose(n, 1) : which === 'b' ? blockDense(n, Math.round(500 * n / 1e6), 2) : bigParameter(n, 3)
const opts = which === 'ck' ? { maxHoldChars: 64_000_000 } : undefined
let x = 0
const t0 = performance.now()
for (let r = 0; r < reps; r++) {
  if (mode === 'whole') x += sanitizeText(t, opts).text.length
  else { const s = createDsmlSanitizer(opts); for (let i = 0; i < t.length; i += 4) x += s.feed(t.slice(i, i + 4)).length; x += s.end().length }
}
console.log(which, mode, n, ((performance.now() - t0) / reps).toFixed(1), 'ms/rep', x)
