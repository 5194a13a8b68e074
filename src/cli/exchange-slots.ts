/**
 * `ExchangeSlots`: the places the node:http bridge lets exchanges hold at
 * once (`maxInFlight`). A slot is one object, given back exactly once by
 * whichever path ends its exchange first — finished, failed, its response
 * closed, or its connection closed (a request pipelined behind others on a
 * connection the client closes gets no close of its own response) — so no
 * path can keep one for good.
 */

export interface ExchangeSlot {
  /** Gives the slot back; later calls do nothing. */
  release(): void
}

export class ExchangeSlots {
  #free: number

  constructor(size: number) {
    this.#free = size
  }

  /** Slots not held now. */
  get free(): number {
    return this.#free
  }

  /** A slot, or undefined when every one is held. */
  take(): ExchangeSlot | undefined {
    if (this.#free <= 0) return undefined
    this.#free--
    let held = true
    return {
      release: () => {
        if (!held) return
        held = false
        this.#free++
      },
    }
  }
}
