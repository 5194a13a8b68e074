/**
 * Work in slices, for a server: a long piece of work (decoding a large
 * request body, repairing a long history) is cut into slices, and once the
 * slices done since the event loop's last turn have taken `SLICE_MS`, the
 * next waits for a macrotask, so whatever else is due (other streams, a
 * health check) runs between. Work that fits in one slice never waits.
 */

/** Work done before the next slice waits for a macrotask. */
export const SLICE_MS = 4

/** Time spent since the event loop last had a turn. */
export class Pace {
  #since = performance.now()

  /** Whether the work done since the loop's last turn has taken its slice. */
  get due(): boolean {
    return performance.now() - this.#since >= SLICE_MS
  }

  /** Gives the loop a turn when one is due; resolves at once otherwise. */
  async turn(): Promise<void> {
    if (!this.due) return
    await new Promise((resolve) => setTimeout(resolve, 0))
    this.#since = performance.now()
  }
}
