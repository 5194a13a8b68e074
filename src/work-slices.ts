/**
 * Work in slices, for a server: a long piece of work (decoding a large
 * request body, repairing a long history) is cut into slices, and once the
 * slices done since the event loop's last turn have taken `SLICE_MS`, the
 * next waits for a macrotask, so whatever else is due (other streams, a
 * health check) runs between.
 *
 * Only work of some size waits: until `SMALL_WORK` units (bytes decoded,
 * characters repaired) have been done in all, none is given. A request of
 * ordinary size is handled at once, never behind a timer, even when other
 * exchanges' work made the clock run meanwhile. Past that, the clock alone
 * decides: work that goes slowly (a unit can cost a hundred times another)
 * still gives a turn once it has taken its slice.
 */

/** Work done before the next slice waits for a macrotask. */
export const SLICE_MS = 4
/** Units of work (bytes, characters) below which no turn is given, whatever the clock says. */
export const SMALL_WORK = 64 * 1024

/** The work was stopped at a turn: whoever it was for is gone (`Pace`'s `gone`). */
export class WorkStopped extends Error {}

/** Work done in all, and time spent since the event loop last had a turn. */
export class Pace {
  #since = performance.now()
  #work = 0
  readonly #gone: () => boolean

  /** `gone`: asked after each turn; when it says the work is no longer wanted, the turn throws `WorkStopped`. @default never */
  constructor(gone: () => boolean = () => false) {
    this.#gone = gone
  }

  /** Counts `units` of work (just done, or about to be); gives the loop a turn when the work in all is large and the work since the last turn has taken its slice (then throws `WorkStopped` if the work is no longer wanted). */
  async turn(units: number): Promise<void> {
    this.#work += units
    if (this.#work < SMALL_WORK || performance.now() - this.#since < SLICE_MS) return
    await loopTurn()
    if (this.#gone()) throw new WorkStopped('The work was stopped: it is no longer wanted')
    this.#since = performance.now()
  }
}

const IMMEDIATE = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate

/**
 * Rounds of I/O a turn lets run. A new connection is accepted in one round,
 * its request read in a later one, and its client (another process, on the
 * same cores) needs time of its own between: with two rounds, /health during
 * a 25 MB history still waited through two slices of work at p99 (120 ms),
 * with four it waits through about one (56–65 ms).
 */
const IO_ROUNDS = 4

/**
 * Waits until the event loop has served I/O. A timer alone does not in Node:
 * a timer set while I/O is served fires at the start of the next round,
 * before that round serves I/O (new connections, requests), so the work
 * would go on first. After the timer, immediates, each of which Node runs
 * once a round's I/O is served. Elsewhere (no `setImmediate`), the timer is
 * the turn.
 */
async function loopTurn(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0))
  if (IMMEDIATE === undefined) return
  for (let round = 0; round < IO_ROUNDS; round++) await new Promise<void>((resolve) => IMMEDIATE(resolve))
}
