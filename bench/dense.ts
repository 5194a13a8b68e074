/**
 * The markup-dense shapes against prose of the same size, in a process of its
 * own (as `doubling.ts`): medians of interleaved rounds, whole and fed 64 at a
 * time, printed as JSON. `run.ts` starts it, and times the same shapes again
 * in its own process, after the other inputs, as a cross-check.
 *
 *   node --import tsx bench/dense.ts
 */
import { measureDense } from './shapes.ts'

console.log(JSON.stringify(measureDense()))
