/**
 * The finish reason, as each AI SDK specification writes it: the one place
 * the middleware's specs differ in what it reads and writes (its text,
 * reasoning and tool parts are the same in all three).
 *
 * - V2 (ai 5): a string, `'stop'`, `'tool-calls'`, `'length'`, …, `'unknown'`;
 * - V3 and V4 (ai 6 and 7): `{ unified, raw }`, `unified` one of those
 *   strings (`'other'` for V2's `'unknown'`), `raw` what the provider sent.
 *
 * The reason's own shape says which: a repaired reason is written in the
 * shape it was read in, so the middleware serves the model it wraps,
 * whichever spec that model speaks.
 */

/** The unified reason of `finishReason` (either shape), or undefined when it is neither. */
export function unifiedFinishReason(finishReason: unknown): string | undefined {
  if (typeof finishReason === 'string') return finishReason
  if (finishReason === null || typeof finishReason !== 'object') return undefined
  const unified = (finishReason as { unified?: unknown }).unified
  return typeof unified === 'string' ? unified : undefined
}

/** `finishReason` with `unified` as its reason, in its own shape (a V3/V4 reason keeps its `raw`). */
export function withUnifiedFinishReason<Reason>(finishReason: Reason, unified: string): Reason {
  if (typeof finishReason === 'string') return unified as Reason
  return { ...(finishReason as object), unified } as Reason
}

/**
 * A finish the middleware makes itself (a runaway ended the stream): the
 * reason, and an unknown usage, in the shape of the spec the model speaks
 * (`specificationVersion`: `'v2'` strings and flat usage; V3 and V4 objects).
 */
export function madeFinish(unified: string, specificationVersion: unknown): { finishReason: unknown; usage: unknown } {
  if (specificationVersion === 'v2') return { finishReason: unified, usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined } }
  return {
    finishReason: { unified, raw: undefined },
    usage: { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } },
  }
}
