/**
 * Tool-call ids unique within one stream, the settlement's (the tool-call
 * synthesizer keeps one for every entry point): a recovered call keeps the id
 * the engine gave it unless a native call, or another recovered call, already
 * uses it (a `generateId` that repeats itself).
 */
export class CallIds {
  #used = new Set<string>()
  #generate: () => string

  constructor(generate: () => string) {
    this.#generate = generate
  }

  /** An id the upstream used (a native call's). */
  reserve(id: unknown): void {
    if (typeof id === 'string') this.#used.add(id)
  }

  /** `id`, or a fresh one when `id` is taken or empty. */
  unique(id: string): string {
    let candidate = id
    for (let attempt = 0; this.#used.has(candidate) || candidate === ''; attempt++) {
      candidate = attempt < 8 ? this.#generate() : `${id}_${this.#used.size + attempt}`
      if (typeof candidate !== 'string') candidate = ''
    }
    this.#used.add(candidate)
    return candidate
  }
}
