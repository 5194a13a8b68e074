/**
 * `keepForProcess`: one instance of an object each stream makes, kept for the
 * life of the process. While it lives, so do the object shapes V8 built the
 * optimized code of its kind on. With none alive (a gateway between
 * requests), a full collection drops that code, and the next stream runs
 * slower until it is optimized again: measured in `bench/` (the pipeline
 * bench's table after a full `gc()`; docs/benchmarks.md). Each kind keeps one fresh instance, or one
 * that has read enough to build what it builds on demand.
 */

/**
 * The kept instances, in a class's private field: a bundler drops writes to
 * a module's array that nothing reads (the kept instances would then be
 * collected), but not a class's own state.
 */
class Kept {
  static #values: object[] = []

  static add(value: object): void {
    Kept.#values.push(value)
  }
}

/** Keeps `value` alive as long as the process; returns it. */
export function keepForProcess<T extends object>(value: T): T {
  Kept.add(value)
  return value
}
