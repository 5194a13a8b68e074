/**
 * Held text and how `maxHoldChars` is shared out.
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

/** Text kept as pieces (small ones joined in batches) and joined when it is taken. */
/** Small pieces joined into one at a time (see `HeldText.add`). */
const PIECES_PER_JOIN = 256

export class HeldText {
  length = 0
  #pieces: string[] = []
  /** Pieces from this index on have not been joined (see `add`). */
  #joinedUpTo = 0

  add(text: string): void {
    if (text.length === 0) return
    const pieces = this.#pieces
    pieces.push(text)
    this.length += text.length
    // Text fed a few characters at a time would otherwise be held as very many
    // small strings, which the garbage collector walks on every pass: every
    // PIECES_PER_JOIN pieces become one (each character is copied once more).
    if (pieces.length - this.#joinedUpTo >= PIECES_PER_JOIN) {
      const joined = pieces.splice(this.#joinedUpTo).join('')
      pieces.push(joined)
      this.#joinedUpTo = pieces.length
    }
  }

  /** What is held, left held. */
  peek(): string {
    const text = this.take()
    this.add(text)
    return text
  }

  /** Drops what is held. */
  clear(): void {
    this.#pieces = []
    this.#joinedUpTo = 0
    this.length = 0
  }

  take(): string {
    const pieces = this.#pieces
    const text = pieces.length === 1 ? pieces[0]! : pieces.join('')
    if (pieces.length > 0) this.#pieces = []
    this.#joinedUpTo = 0
    this.length = 0
    return text
  }
}
