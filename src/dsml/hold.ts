/**
 * How `maxHoldChars` is shared out. (Held text itself is kept in a
 * `TextBuilder`, `../text-builder.ts`.)
 *
 * What an engine holds at any moment is at most:
 * - the tag being read (`maxTagChars`);
 * - a chain of partial tags, each cut short by the start of the next, whose
 *   fate follows the tag after them (`maxPendingChars`);
 * - the text after a lone block opener, or a markerless candidate, until
 *   the eager stop (`eagerStopChars`);
 * - committed markup (`maxMarkupChars`, the rest): past it, markup is
 *   removed and reported in pieces instead of growing.
 *
 * So held text never passes `maxHoldChars`, whatever the input.
 */
import { MIN_TAG_CHARS } from './grammar.ts'

/** Largest single tag read (opener with attributes). */
const MAX_TAG_CHARS = 4096

export interface HoldLimits {
  maxTagChars: number
  maxPendingChars: number
  eagerStopChars: number
  maxMarkupChars: number
}

/**
 * Shares `maxHoldChars` out. The tag and the pending chain get an eighth each
 * (at least room for the longest special token, at most 4096); the eager stop
 * at most an eighth; committed markup the rest.
 */
export function holdLimits(maxHoldChars: number, eagerStopChars: number): HoldLimits {
  const maxTagChars = Math.max(MIN_TAG_CHARS, Math.min(MAX_TAG_CHARS, Math.floor(maxHoldChars / 8)))
  const eagerStop = Math.min(eagerStopChars, Math.floor(maxHoldChars / 8))
  return {
    maxTagChars,
    maxPendingChars: maxTagChars,
    eagerStopChars: eagerStop,
    maxMarkupChars: maxHoldChars - 2 * maxTagChars - eagerStop,
  }
}
