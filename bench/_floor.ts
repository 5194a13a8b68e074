import { prose } from './inputs.ts'
import { measure } from './measure.ts'
const t = prose(5e6, 1)
const BARS = '|\uFF5C\u2016\u2502'
function passThrough(chunk: string) { return [{ type: 'text', text: chunk }] }
function sixIndexOf(chunk: string) { let n = chunk.indexOf('<') + chunk.indexOf('`'); for (let b = 0; b < 4; b++) n += chunk.indexOf(BARS[b]!); return n > -6 ? [{ type: 'text', text: chunk }] : [] }
function loop(chunk: string) { for (let i = 0; i < chunk.length; i++) { const c = chunk.charCodeAt(i); if (c === 0x3c || c === 0x60 || c === 0x7c || c === 0xff5c || c === 0x2016 || c === 0x2502) return [] } return [{ type: 'text', text: chunk }] }
for (const [name, f] of [['slice only', null], ['pass-through', passThrough], ['6x indexOf', sixIndexOf], ['char loop', loop]] as const) {
  const m = measure(() => { let n = 0; for (let i = 0; i < t.length; i += 4) { const c = t.slice(i, i + 4); n += f === null ? c.length : f(c).length } return n }, { minRuns: 7 })
  console.log(name, m.median.toFixed(1), 'ms', (5 / (m.median / 1000)).toFixed(0), 'MB/s')
}
