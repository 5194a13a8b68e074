/**
 * The readable-side queuing strategy of every TransformStream stage in the
 * package: up to one chunk held. A transform may then run once before the consumer reads,
 * which saves a backpressure round trip (two promises) per chunk against the
 * default of none; a stage still holds at most one output chunk ahead.
 */
export const ONE_CHUNK_AHEAD = { highWaterMark: 1 } as const
