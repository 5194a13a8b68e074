/**
 * The post-condition on repaired output: text that still holds a DSML
 * sentinel after sanitizing is a leak that slipped through (a shape the
 * sanitizer does not know yet). It is counted and reported, never
 * rewritten, so the check is safe on output that is already clean.
 */
import { containsDsmlSentinel } from '../dsml/sentinel.ts'
import type { Channel } from '../parts/part.ts'

/** Does sanitized text still hold DSML markup? */
export function residualSanitizerCheck(sanitized: string): boolean {
  return containsDsmlSentinel(sanitized)
}

/** Characters of a channel's earlier text kept, so a sentinel split between two parts is still seen. */
const TAIL_CHARS = 64

export interface ResidualLeak {
  channel: Channel
  /** The inspected text (with the end of the channel's earlier text when the sentinel spans both). */
  text: string
}

export interface ResidualSanitizerCheck {
  /** Inspects the next piece of a channel's sanitized text; true when it holds (or completes) a sentinel. */
  inspect(text: string, channel?: Channel): boolean
  /** Leaks seen so far. */
  readonly leaks: number
}

/**
 * A check on repaired text, piece by piece per channel: any DSML sentinel left (one split between
 * pieces too) is counted and reported to `onLeak`, never rewritten.
 */
export function createResidualSanitizerCheck(onLeak?: (leak: ResidualLeak) => void): ResidualSanitizerCheck {
  return new Check(onLeak)
}

/** A class, so that one per open stream pays for its fields only. */
class Check implements ResidualSanitizerCheck {
  #onLeak: ((leak: ResidualLeak) => void) | undefined
  #tails: Record<Channel, string> = { text: '', reasoning: '' }
  #leaks = 0

  constructor(onLeak: ((leak: ResidualLeak) => void) | undefined) {
    this.#onLeak = onLeak
  }

  get leaks(): number {
    return this.#leaks
  }

  inspect(text: string, channel: Channel = 'text'): boolean {
    if (text === '') return false
    const tail = this.#tails[channel]
    const joined = tail + text
    this.#tails[channel] = joined.length > TAIL_CHARS ? joined.slice(-TAIL_CHARS) : joined
    let leaked: string | undefined
    if (containsDsmlSentinel(text)) leaked = text
    // A sentinel that only the two pieces together make (the tail alone was inspected already).
    else if (tail !== '' && containsDsmlSentinel(joined) && !containsDsmlSentinel(tail)) leaked = joined
    if (leaked === undefined) return false
    this.#leaks++
    this.#onLeak?.({ channel, text: leaked })
    return true
  }
}
