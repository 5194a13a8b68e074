/**
 * `Capacity`: a fixed amount of something the node:http bridge lets
 * exchanges hold at once, given out in shares: exchange slots
 * (`maxInFlight`, one unit each) and the bytes of request bodies held in
 * memory (`maxBodyBytesInFlight`, a share that grows as a body arrives).
 *
 * A share is one object, given back exactly once by whichever path ends its
 * exchange first — finished, failed, refused, its response closed, or its
 * connection closed (a request pipelined behind others on a connection the
 * client closes gets no close of its own response) — so no path can keep
 * any of it for good.
 */

export interface Share {
  /** Units held now. */
  readonly units: number
  /** Takes `units` more; false (and nothing taken) when that is more than is free. */
  grow(units: number): boolean
  /** Gives every unit back; later calls do nothing, and a released share grows no more. */
  release(): void
}

export class Capacity {
  #free: number

  constructor(size: number) {
    this.#free = size
  }

  /** Units not held now. */
  get free(): number {
    return this.#free
  }

  /** A share of `units`, or undefined when fewer are free. */
  take(units = 1): Share | undefined {
    if (units > this.#free) return undefined
    this.#free -= units
    let held = units
    let released = false
    return {
      get units() {
        return held
      },
      grow: (more: number): boolean => {
        if (released || more > this.#free) return false
        this.#free -= more
        held += more
        return true
      },
      release: () => {
        if (released) return
        released = true
        this.#free += held
        held = 0
      },
    }
  }
}
