/**
 * One shape's doubling run, in a process of its own: median ms at n, 2n and
 * 4n, timed in interleaved rounds, printed as JSON. `run.ts` starts one such
 * process per shape and mode, so what the other shapes left behind (the
 * optimizer's type feedback, heap) does not land in these runs.
 *
 *   node --import tsx bench/doubling.ts <shape key> <whole|fed>
 */
import { measureInterleaved } from './measure.ts'
import { fedBy4, SHAPES, whole } from './shapes.ts'

export interface DoublingResult {
  /** The input at n, 2n, 4n, in code units. */
  lengths: number[]
  /** Median ms at n, 2n, 4n. */
  times: number[]
}

const [key, mode] = process.argv.slice(2)
const shape = SHAPES.find((candidate) => candidate.key === key)
if (shape === undefined || (mode !== 'whole' && mode !== 'fed')) {
  throw new Error(`Usage: doubling.ts <${SHAPES.map((candidate) => candidate.key).join('|')}> <whole|fed>`)
}
const options = shape.doublingOptions ?? shape.options
const texts = [1, 2, 4].map((factor) => shape.make(shape.n * factor))
const run = mode === 'whole' ? whole : fedBy4
const times = measureInterleaved(
  texts.map((text) => () => run(text, options)),
  { warmup: 3, minRuns: 7, maxRuns: 31, budgetMs: 2000 },
)
const result: DoublingResult = { lengths: texts.map((text) => text.length), times }
console.log(JSON.stringify(result))
