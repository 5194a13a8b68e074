/**
 * Where markup can start, from the grammar's characters and names: which
 * characters may follow `<`, a fragment's first bar or `</`; where the next
 * markerless opener or bar is (searched by anchors, not read a character at
 * a time); and whether a text could open markup at all — the question the
 * engine's fast path and every fused shortcut ask before reading a text.
 */
import { firstOf, indexOfNeedle, type Needle, needlesOf, RecentTexts } from './positions.ts'
import { BARE_MARKERLESS_OPENERS, BARS, GREATER_THAN, isBar, isMarkupOnlyBar, isWhitespace, isMarkerSpace, isTagNameCharacter, LATIN_CAPITAL_D, LESS_THAN, MARKERLESS_CLOSER_SET, MARKERLESS_OPENER_NAMES, MARKERLESS_OPENER_SET, MAX_CLOSER_SLASHES, MAX_MARKER_SPACES, SLASH, SPACED_MARKERLESS_OPENERS, SPACED_OPENER_MASK, TAG_START_CHARACTERS } from './grammar.ts'

/** What a tag starting at a place may be: which markerless names it may carry, and whether it is read by its shape. */
export interface TagContext {
  /** Markerless openers (`<invoke`, `<parameter`, `<tool_calls`, `<function_calls`) may be read. */
  openers: boolean
  /** Markerless closers (`</invoke>`, `</parameter>`, block closers) may be read. */
  closers: boolean
  /**
   * Inside markup a real marker or special token opened: tags are read by
   * their shape, so a drifted marker word (`<|EPSE|parameter>`), a marker with
   * no bars (`<DSMLinvoke`), and a fragment in ASCII bars with drifted spacing are read.
   */
  drift: boolean
}

function tagContext(openers: boolean, closers: boolean, drift: boolean): TagContext {
  return Object.freeze({ openers, closers, drift })
}

export const NO_NAMES: TagContext = tagContext(false, false, false)
export const OPENERS: TagContext = tagContext(true, false, false)
export const CLOSERS: TagContext = tagContext(false, true, false)
export const ALL_NAMES: TagContext = tagContext(true, true, false)
const DRIFTING: ReadonlyMap<TagContext, TagContext> = new Map([NO_NAMES, OPENERS, CLOSERS, ALL_NAMES].map((context) => [context, tagContext(context.openers, context.closers, true)]))

/** The same names, inside markup a real marker opened (`TagContext.drift`). */
export function drifting(context: TagContext): TagContext {
  return DRIFTING.get(context) ?? context
}

/**
 * Can `code` follow a `<` in a tag, in this context? `/`, a marker space, a
 * bar, the first letter of an allowed markerless opener, or (drift) the word
 * `DSML` with its bars lost. Most `<` in prose, HTML and code fail this on
 * their next character.
 */
export function canFollowLessThan(code: number, context: TagContext): boolean {
  return code === SLASH || isMarkerSpace(code) || isBar(code) || (context.openers && MARKERLESS_OPENER_SET.canStart(code)) || (context.drift && code === LATIN_CAPITAL_D)
}

/**
 * Can `code` follow `bar`, the first bar of a fragment (a marker that lost its
 * `<`)? Another bar, or the word `DSML`; or spaces before them, after a bar
 * that never sits next to the word in prose (`isMarkupOnlyBar`), or anywhere in drift.
 */
export function canFollowFragmentBar(bar: number, code: number, context: TagContext): boolean {
  return isBar(code) || code === LATIN_CAPITAL_D || (isMarkerSpace(code) && (isMarkupOnlyBar(bar) || context.drift))
}

/**
 * Can `code` follow `<` and a marker space, before any slash (`< ‹DSML›`,
 * `< / ‹DSML›`, V4.1's `< calls>` that lost its marker)? Another space, a
 * bar, a slash, or, where openers are read, the first letter of an opener
 * that may be spaced (`SPACED_MARKERLESS_OPENERS`). The lexer's first check
 * there; `a < b` fails it at the `b`.
 */
export function canFollowSpaceAfterLessThan(code: number, context: TagContext): boolean {
  return isMarkerSpace(code) || isBar(code) || code === SLASH || (context.openers && MARKERLESS_OPENER_SET.step(SPACED_OPENER_MASK, 0, code) !== 0)
}

/** Can `code` follow `</`? A marker space, a bar, the first letter of an allowed markerless closer, or (drift) the word `DSML`. */
export function canFollowClosingSlash(code: number, context: TagContext): boolean {
  return isMarkerSpace(code) || isBar(code) || (context.closers && MARKERLESS_CLOSER_SET.canStart(code)) || (context.drift && code === LATIN_CAPITAL_D)
}

/**
 * The longest start of a tag that holds no bar and no whole markerless opener
 * name (`<function_call`, one letter short; `<` spaces `/` spaces `/` spaces
 * before a bar; `<` spaces `call`): past it, such a tag has been decided, so a
 * text with no bar and no opener name can hold markup only within this many
 * characters of its last `<`.
 */
export const LONGEST_BARLESS_TAG_START =
  1 +
  Math.max(
    ...MARKERLESS_OPENER_NAMES.map((name) => name.length - 1),
    MAX_CLOSER_SLASHES + (MAX_CLOSER_SLASHES + 1) * MAX_MARKER_SPACES,
    ...SPACED_MARKERLESS_OPENERS.map((name) => MAX_MARKER_SPACES + name.length - 1),
  )

/**
 * Pieces of the markerless opener names searched for instead of `<` + name:
 * each starts with a character rarer in prose and code than `<` is in HTML,
 * and a search costs about one step per occurrence of its first character.
 * Each name is listed with where the piece starts in it. V4.1's opener that
 * lost its marker (`< calls>`) is not searched for: it is markup only right
 * before a marked tag, so it is looked for back from one
 * (`lostMarkerOpenerBefore`).
 */
const OPENER_ANCHORS: ReadonlyArray<{ anchor: string; names: ReadonlyArray<{ name: string; offset: number; bare: boolean; spaced: boolean }> }> = [
  { anchor: 'voke', names: ['invoke'] },
  { anchor: 'meter', names: ['parameter'] },
  { anchor: '_call', names: ['tool_calls', 'function_calls', 'tool_call', 'function_call'] },
  { anchor: 'ction>', names: ['function'] },
].map(({ anchor, names }) => ({
  anchor,
  names: names.map((name) => ({
    name,
    offset: `${name}>`.indexOf(anchor),
    bare: BARE_MARKERLESS_OPENERS.includes(name),
    spaced: SPACED_MARKERLESS_OPENERS.includes(name),
  })),
}))

/**
 * The `<` of an opener whose name starts at `nameStart`, or -1: right before
 * the name, or (a spaced opener) before up to `MAX_MARKER_SPACES` spaces; and
 * the name not the start of a longer one (the text may end right after it; a
 * bare opener needs its `>`).
 */
function openerAt(text: string, nameStart: number, name: string, bare: boolean, spaced: boolean): number {
  if (nameStart < 1 || !text.startsWith(name, nameStart)) return -1
  const next = text.charCodeAt(nameStart + name.length)
  if (bare ? next !== GREATER_THAN : isTagNameCharacter(next)) return -1
  let start = nameStart - 1
  if (spaced) while (start >= 0 && nameStart - start <= MAX_MARKER_SPACES && isMarkerSpace(text.charCodeAt(start))) start--
  return start >= 0 && text.charCodeAt(start) === LESS_THAN ? start : -1
}

/** What is known of one text: per anchor, where its last search began and the opener it found there (-1: none to the end). */
interface AnchorSearches {
  text: string | undefined
  from: number[]
  found: number[]
  /** The last answer, for searches from `firstFrom` on, while still ahead (-2: none kept). */
  first: number
  firstFrom: number
}

/**
 * Finds `<` + a whole markerless opener name in a text, again and again
 * from later positions: each anchor's next opener is remembered while it is
 * still ahead, so a scan over the whole text reads it about once per anchor.
 * As `Positions` does, it remembers the two longest texts searched lately.
 */
export class MarkerlessOpenerFinder {
  #texts = new RecentTexts<AnchorSearches>(
    () => ({ text: undefined, from: OPENER_ANCHORS.map(() => Number.MAX_SAFE_INTEGER), found: OPENER_ANCHORS.map(() => -1), first: -2, firstFrom: 0 }),
    (searches) => {
      searches.from.fill(Number.MAX_SAFE_INTEGER)
      searches.first = -2
    },
  )

  /** Forgets what was found: the next text may be the same string read again from its start. */
  reset(): void {
    this.#texts.reset()
  }

  /** The first opener at or after `from`, or -1. */
  next(text: string, from: number): number {
    const searches = this.#texts.of(text)
    const kept = searches.first
    if (kept !== -2 && from >= searches.firstFrom && (kept === -1 || kept >= from)) return kept
    let first = -1
    for (let anchor = 0; anchor < OPENER_ANCHORS.length; anchor++) {
      let found = searches.found[anchor]!
      if (from < searches.from[anchor]! || (found !== -1 && found < from)) {
        found = searchAnchor(text, anchor, from)
        searches.found[anchor] = found
        searches.from[anchor] = from
      }
      if (found !== -1 && (first === -1 || found < first)) first = found
    }
    searches.first = first
    searches.firstFrom = from
    return first
  }
}

/** The first opener at or after `from` that holds anchor number `anchor`, or -1. */
function searchAnchor(text: string, anchor: number, from: number): number {
  const { anchor: piece, names } = OPENER_ANCHORS[anchor]!
  for (let at = text.indexOf(piece, from); at !== -1; at = text.indexOf(piece, at + 1)) {
    for (let index = 0; index < names.length; index++) {
      const { name, offset, bare, spaced } = names[index]!
      const start = openerAt(text, at - offset, name, bare, spaced)
      if (start >= from) return start
    }
  }
  return -1
}

/** The first `<` followed by a whole markerless opener name at or after `from`, or -1 (one search per anchor, nothing kept). */
export function indexOfMarkerlessOpener(text: string, from: number): number {
  let first = -1
  for (let anchor = 0; anchor < OPENER_ANCHORS.length; anchor++) {
    const found = searchAnchor(text, anchor, from)
    if (found !== -1 && (first === -1 || found < first)) first = found
  }
  return first
}

/**
 * Where V4.1's block opener that lost its marker (`< calls>`, `<calls>`:
 * `SPACED_MARKERLESS_OPENERS`) begins, when only whitespace follows it up to
 * `at`, and it starts at or after `from`; -1 when there is none. The scanner
 * asks this at a bar its fast path stopped at, and at the end of a text, so
 * that such an opener is read as a tag whenever a marked tag may follow it.
 */
export function lostMarkerOpenerBefore(text: string, from: number, at: number): number {
  let end = at
  while (end > from && isWhitespace(text.charCodeAt(end - 1))) end--
  if (end - 1 < from || text.charCodeAt(end - 1) !== GREATER_THAN) return -1
  for (const name of SPACED_MARKERLESS_OPENERS) {
    const nameStart = end - 1 - name.length
    if (nameStart < from) continue
    const start = openerAt(text, nameStart, name, true, true)
    if (start >= from) return start
  }
  return -1
}

/** The bars as needles (`needlesOf`): the ASCII bar, and the others at once. */
export const BAR_NEEDLES: readonly Needle[] = needlesOf(BARS)
/** The characters a tag may start with (`TAG_START_CHARACTERS`) as needles: `<` first, then the bars as in `BAR_NEEDLES`. */
export const TAG_START_NEEDLES: readonly Needle[] = needlesOf(TAG_START_CHARACTERS)
/** How many of `TAG_START_NEEDLES` a search for `<` alone takes: the first (`<`), where bars are not looked for. */
export const LESS_THAN_NEEDLE_COUNT = 1

/** The first bar at or after `from`, or -1. */
export function indexOfBar(text: string, from: number): number {
  const first = firstOf(text, BAR_NEEDLES, from)
  return first === text.length ? -1 : first
}

/**
 * Finds the bars of one text in order, from later and later places: the next
 * place of each of `BAR_NEEDLES` is kept while still ahead, so the text is
 * searched about once (`indexOfBar` from each place would search the rest of
 * it again each time no bar of one needle is left).
 */
export class BarFinder {
  #text: string | undefined
  /** The next place of each needle at or after where it was last searched from (-1: none to the end). */
  #next = BAR_NEEDLES.map(() => -1)
  #from = 0

  /** The first bar at or after `from`, or -1. */
  next(text: string, from: number): number {
    const again = text === this.#text && from >= this.#from
    this.#text = text
    this.#from = from
    let first = -1
    for (let needle = 0; needle < BAR_NEEDLES.length; needle++) {
      let at = this.#next[needle]!
      if (!again || (at !== -1 && at < from)) this.#next[needle] = at = indexOfNeedle(text, BAR_NEEDLES[needle]!, from)
      if (at !== -1 && (first === -1 || at < first)) first = at
    }
    return first
  }
}

/**
 * Texts this short are read one tag start at a time rather than searched
 * (fewer calls): a chunk of a stream, or the rest of one. Searching costs a
 * few hundred nanoseconds a text whatever its length; reading, a little per
 * `<`. Fed 65 to 256 characters at a time (`bench/no-leak.ts`, the chunk-size
 * table), prose is read 2.5–4 times as fast as when it was searched,
 * TypeScript 1.6–2.4 times, HTML as fast or faster; XML as dense in
 * markerless look-alikes as a parameter list, fed 128 to 256 at a time,
 * 10–20 % slower.
 */
export const SHORT_TEXT = 256

/**
 * Could `text`, read outside any markup with markerless closers not allowed,
 * hold the start of markup? False when it has no bar, no `<` + markerless
 * opener name, and no `<` near its end (a tag begun there may go on in the
 * next text). With `whole` (nothing follows `text`: a whole text, read to
 * its end), a `<` near the end opens nothing either: a tag with no bar and no
 * whole opener name that the text ends inside is text. A few `indexOf`
 * searches, whatever the text's length (a short piece of a stream is read
 * one tag start at a time instead: `couldHoldMarkup`, which asks this of
 * longer texts).
 */
export function couldOpenMarkup(text: string, whole = false): boolean {
  if (indexOfBar(text, 0) !== -1) return true
  const last = text.lastIndexOf('<')
  if (last === -1) return false
  return (!whole && last >= text.length - LONGEST_BARLESS_TAG_START) || indexOfMarkerlessOpener(text, 0) !== -1 || lostMarkerOpenerBefore(text, 0, text.length) !== -1
}
