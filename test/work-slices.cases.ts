/**
 * work-slices.ts: a Pace gives the event loop a turn only for work of some size that has taken its slice, so a
 * request of ordinary size is never put behind a timer, however long other work made the clock run; past that size,
 * every slice of time gives a turn, however few units it did.
 */
import { Pace, SLICE_MS, SMALL_WORK } from '../src/work-slices.ts'
import { assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

/** Keeps the thread busy for `ms` (the clock runs, no turn is given). */
function busy(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // spin
  }
}

/** Whether `turn` gave the loop a turn: a timer set before it fired before it resolved. */
async function gaveTurn(turn: () => Promise<void>): Promise<boolean> {
  let fired = false
  setTimeout(() => (fired = true), 0)
  await turn()
  return fired
}

export const suite = defineSuite('work-slices', (test) => {
  test('small work never waits, however long the clock ran; large work waits once its slice is taken, then counts again', async () => {
    const pace = new Pace()
    busy(SLICE_MS * 2)
    assertEqual(await gaveTurn(() => pace.turn(SMALL_WORK - 1)), false, 'below SMALL_WORK: at once')
    assertEqual(await gaveTurn(() => pace.turn(1)), true, 'SMALL_WORK reached, slice taken: a turn')
    assertEqual(await gaveTurn(() => pace.turn(SMALL_WORK)), false, 'just after a turn: the slice is not yet taken')
    busy(SLICE_MS * 2)
    assertEqual(await gaveTurn(() => pace.turn(0)), true, 'the work counted before, and the slice taken since')
  })

  test('past SMALL_WORK in all, the clock alone decides: slow work of one unit per slice still gives a turn after each slice', async () => {
    const pace = new Pace()
    await pace.turn(SMALL_WORK)
    for (let slice = 0; slice < 3; slice++) {
      assertEqual(await gaveTurn(() => pace.turn(1)), false, `slice ${slice}: not taken yet`)
      busy(SLICE_MS * 2)
      assertEqual(await gaveTurn(() => pace.turn(1)), true, `slice ${slice}: taken, by one unit of slow work`)
    }
  })
})
