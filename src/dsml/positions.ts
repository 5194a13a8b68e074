/**
 * `Positions`: where a few needles next occur in a text, each searched in
 * one pass (`indexOfNeedle`) and remembered while still ahead, so a scan
 * over a long text reads it about once per needle (a short text is searched
 * afresh: `firstOf`). `TagStartSearch` uses it for `<` and the bars, the fence
 * tracker for the characters that can wake it (line breaks, backticks,
 * backslashes), the code spans for backticks.
 *
 * Two texts are remembered (`RecentTexts`): text held and read again (a
 * code-span gate's) comes between two reads of the input it came from, and
 * the input's searches must not start over each time, or a needle that does
 * not occur again would be searched for to the end of it again and again.
 */

/**
 * What a search looks for: a string, or (a global `RegExp` made by
 * `needlesOf`) any one of a few characters outside Latin-1, found in one
 * pass. V8 compiles such a class to fail at once on a one-byte string and to
 * read a two-byte one once, where an `indexOf` per character reads it once
 * per character, and some (`‖` U+2016, `│` U+2502) at several times the
 * cost of others: three characters searched one by one take three times as
 * long as the class (measured on 64-character pieces, 257-character chunks
 * and 4 MB texts alike).
 */
export type Needle = string | RegExp

/** The characters (one UTF-16 unit each) as needles: each in Latin-1 on its own, the others as one class, last. */
export function needlesOf(characters: Iterable<string>): readonly Needle[] {
  const all = [...characters]
  const narrow: Needle[] = all.filter((character) => character.charCodeAt(0) <= 0xff)
  const wide = all.filter((character) => character.charCodeAt(0) > 0xff)
  return wide.length === 0 ? narrow : [...narrow, new RegExp(`[${wide.join('')}]`, 'g')]
}

/** The first place at or after `from` where `needle` starts, or -1. */
export function indexOfNeedle(text: string, needle: Needle, from: number): number {
  if (typeof needle === 'string') return text.indexOf(needle, from)
  needle.lastIndex = from
  // `test` moves `lastIndex` past the one character matched, and makes no match array.
  return needle.test(text) ? needle.lastIndex - 1 : -1
}

/** Texts this short are read a character at a time: cheaper than a search call per needle (measured: the loop wins below about 12). */
export const SHORT_SEARCH = 12
/**
 * Texts up to this long are searched afresh each time (`firstOf`): searching
 * one again from a later place costs at most its length, less than keeping
 * what was found. `Positions` remembers its searches only in longer texts.
 */
export const FRESH_SEARCH = 256

/** The first position at or after `from` where any of the first `count` of `needles` starts, or `text.length`. Nothing is kept. */
export function firstOf(text: string, needles: readonly Needle[], from: number, count = needles.length): number {
  let first = text.length
  for (let needle = 0; needle < count; needle++) {
    const at = indexOfNeedle(text, needles[needle]!, from)
    if (at !== -1 && at < first) first = at
  }
  return first
}

/**
 * What is known of the texts searched lately, one entry per text, for the
 * two longest: a text searched again finds its entry, and a new one takes
 * the entry of the shorter. The input being read is the longest text around
 * (held text, read again between its reads, is at most `maxHoldChars`), so
 * its searches are never started over; a shorter text searched over again
 * costs at most its length, which the text that pushed it out paid for.
 */
export class RecentTexts<Entry extends { text: string | undefined }> {
  #first: Entry | undefined
  /** Made when a second text is searched (held text read again between reads of the input). */
  #second: Entry | undefined
  #make: () => Entry
  #forget: (entry: Entry) => void

  /** `make` makes an empty entry; `forget` empties one for a new text. */
  constructor(make: () => Entry, forget: (entry: Entry) => void) {
    this.#make = make
    this.#forget = forget
  }

  of(text: string): Entry {
    const first = (this.#first ??= this.#make())
    // An equal text may be another string (a gate's held text equal to the last one): kept as the entry's, the next
    // comparison is of one string with itself, at once, not of their characters again.
    if (first.text === text) {
      first.text = text
      return first
    }
    if (first.text === undefined) return this.#take(first, text)
    const second = (this.#second ??= this.#make())
    if (second.text === text) {
      second.text = text
      return second
    }
    return this.#take((first.text?.length ?? -1) <= (second.text?.length ?? -1) ? first : second, text)
  }

  #take(entry: Entry, text: string): Entry {
    entry.text = text
    this.#forget(entry)
    return entry
  }

  /** Forgets every text: the next may be the same string read again from its start. */
  reset(): void {
    if (this.#first !== undefined) this.#first.text = undefined
    if (this.#second !== undefined) this.#second.text = undefined
  }

  /**
   * Forgets `text`, read to its end and never searched again (its entry is
   * compared with it as one string, at once): a later text of its length is
   * not compared with it character by character on every search.
   */
  forget(text: string): void {
    if (this.#first?.text === text) this.#first.text = undefined
    else if (this.#second?.text === text) this.#second.text = undefined
  }
}

/** The characters compared at once when a run is measured (`endOfRun`, `startOfRun`). */
const RUN_BLOCK = 1024
/** A run read this far a character at a time is measured on in blocks. */
const SHORT_RUN = 32
const runBlocks = new Map<string, string>()

/** `character` repeated `RUN_BLOCK` times, made once. */
function runBlock(character: string): string {
  let block = runBlocks.get(character)
  if (block === undefined) runBlocks.set(character, (block = character.repeat(RUN_BLOCK)))
  return block
}

/**
 * Where the run of `character` (one UTF-16 unit) that starts at `from` ends:
 * the first other character after it, or `text.length`. Compared a block at
 * a time, as strings (V8 compares them as memory: about 25 times the speed
 * of a loop over the characters, measured on a 30 MB run).
 */
export function endOfRun(text: string, from: number, character: string): number {
  const code = character.charCodeAt(0)
  let at = from
  // A short run (the usual one) is read a character at a time: a block compared costs a string made.
  while (at < text.length && at - from < SHORT_RUN && text.charCodeAt(at) === code) at++
  if (at - from < SHORT_RUN) return at
  const block = runBlock(character)
  while (at + RUN_BLOCK <= text.length && text.substring(at, at + RUN_BLOCK) === block) at += RUN_BLOCK
  while (at < text.length && text.charCodeAt(at) === code) at++
  return at
}

/** Where the run of `character` that ends right before `to` begins (not before `from`); as `endOfRun`. */
export function startOfRun(text: string, from: number, to: number, character: string): number {
  const code = character.charCodeAt(0)
  let at = to
  while (at > from && to - at < SHORT_RUN && text.charCodeAt(at - 1) === code) at--
  if (to - at < SHORT_RUN) return at
  const block = runBlock(character)
  while (at - RUN_BLOCK >= from && text.substring(at - RUN_BLOCK, at) === block) at -= RUN_BLOCK
  while (at > from && text.charCodeAt(at - 1) === code) at--
  return at
}

/** What is known of one text: per needle, its first position at or after `from[needle]` (-2: none to the end). */
interface Searched {
  text: string | undefined
  at: number[]
  from: number[]
  /** The last answer (for `firstCount` needles, from `firstFrom`), kept while still ahead. */
  first: number
  firstFrom: number
  firstCount: number
}

export class Positions {
  #needles: readonly Needle[]
  #texts: RecentTexts<Searched>

  constructor(needles: readonly Needle[]) {
    this.#needles = needles
    this.#texts = new RecentTexts<Searched>(
      () => ({ text: undefined, at: needles.map(() => -2), from: needles.map(() => Number.MAX_SAFE_INTEGER), first: -1, firstFrom: 0, firstCount: 0 }),
      (searched) => {
        searched.from.fill(Number.MAX_SAFE_INTEGER)
        searched.first = -1
      },
    )
  }

  /** Forgets what was found: the next text may be the same string read again from its start. */
  reset(): void {
    this.#texts.reset()
  }

  /** Forgets what was found in `text`, read to its end (`RecentTexts.forget`). */
  forget(text: string): void {
    this.#texts.forget(text)
  }

  /** The first position at or after `from` where any of the first `count` needles starts, or `text.length`. */
  first(text: string, from: number, count = this.#needles.length): number {
    if (text.length <= FRESH_SEARCH) return firstOf(text, this.#needles, from, count)
    const searched = this.#texts.of(text)
    const kept = searched.first
    if (kept >= from && count === searched.firstCount && from >= searched.firstFrom) return kept
    let first = text.length
    for (let needle = 0; needle < count; needle++) {
      let at = searched.at[needle]!
      // A search from `from[needle]` answers for any later `from` it has not passed.
      if (from < searched.from[needle]! || (at !== -2 && at < from)) {
        at = indexOfNeedle(text, this.#needles[needle]!, from)
        if (at === -1) at = -2
        searched.at[needle] = at
        searched.from[needle] = from
      }
      if (at !== -2 && at < first) first = at
    }
    searched.first = first
    searched.firstFrom = from
    searched.firstCount = count
    return first
  }
}
