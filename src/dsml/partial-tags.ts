/**
 * Tag starts in plain text, decided without running the scanner: a start the
 * lexer rejects at once (`isTextTagStart`), and chains of partial tags — each
 * a tag start the lexer reads up to the `<` that begins the next one, where
 * it is rejected (`<<`, `< <`, `<i<`). The scanner holds such a chain
 * (pending) until the tag after it is decided, and removes it past
 * `maxPendingChars`; its fast path asks `PartialTagChains` where a chain
 * begins, and where the first one that long begins, so that reading a text
 * whole decides every chain exactly as reading it split would.
 *
 * In the stretches asked about there is no bar (the fast path stops at the
 * first), so each tag start is a `<` and reads at most
 * `LONGEST_BARLESS_TAG_START` characters before it is decided.
 */
import { isBar, isMarkerSpace, LESS_THAN, SLASH } from './grammar.ts'
import { ALL_NAMES, BarFinder, canFollowClosingSlash, canFollowFragmentBar, canFollowLessThan, canFollowSpaceAfterLessThan, couldOpenMarkup, indexOfBar, LONGEST_BARLESS_TAG_START, type TagContext, SHORT_TEXT } from './markup-starts.ts'
import { startOfRun } from './positions.ts'
import { STEP_CONTINUE, STEP_REJECT } from './tag.ts'
import { TagLexer } from './tag-lexer.ts'

/**
 * Is the `<` or bar at `index` text, whatever follows? When the lexer rejects
 * it at its next character (`canFollowLessThan`, `canFollowFragmentBar`), or
 * at the one after `</` or `< ` (`canFollowClosingSlash`,
 * `canFollowSpaceAfterLessThan`: `a < b` in prose) — unless that character is
 * itself a `<` (or, after a bar, a bar), which makes it a pending partial tag.
 */
export function isTextTagStart(text: string, index: number, context: TagContext): boolean {
  if (index + 1 >= text.length) return false
  const code = text.charCodeAt(index)
  const following = text.charCodeAt(index + 1)
  if (following === LESS_THAN) return false
  if (code !== LESS_THAN) return isBar(code) && !canFollowFragmentBar(code, following, context)
  if (!canFollowLessThan(following, context)) return true
  return (following === SLASH || isMarkerSpace(following)) && index + 2 < text.length && rejectsThird(following, text.charCodeAt(index + 2), context)
}

/** After `</` or `< `, does `third` reject the tag (and is no `<`, which would make it a partial tag)? */
function rejectsThird(following: number, third: number, context: TagContext): boolean {
  if (third === LESS_THAN) return false
  return following === SLASH ? !canFollowClosingSlash(third, context) : !canFollowSpaceAfterLessThan(third, context)
}

/** How many characters from a tag start `tagStartAhead` reads at most: past them, one with no bar has been decided. */
export const TAG_START_DECIDED_WITHIN = LONGEST_BARLESS_TAG_START + 1

/**
 * What the tag start at `index` is, by the characters after it (at most
 * `TAG_START_DECIDED_WITHIN` of them): `text` when it stays text — a start
 * `isTextTagStart` clears, or a `<` or a bar the lexer rejects before any
 * other bar or `<` (a bar could begin a fragment; a `<`, a tag whose fate
 * this one follows); `tag` when it may be markup; `undecided` when the text
 * ends before that is known.
 */
export function tagStartAhead(text: string, index: number, context: TagContext): 'text' | 'tag' | 'undecided' {
  if (isTextTagStart(text, index, context)) return 'text'
  const probe = probeFrom(text.charCodeAt(index), context)
  const end = Math.min(text.length, index + TAG_START_DECIDED_WITHIN)
  for (let at = index + 1; at < end; ) {
    const code = text.charCodeAt(at)
    if (code === LESS_THAN || isBar(code)) return 'tag'
    const step = probe.step(code)
    if (step === STEP_REJECT) return 'text'
    if (step !== STEP_CONTINUE) return 'tag'
    at = probe.readName(text, at + 1, end)
  }
  return end === index + TAG_START_DECIDED_WITHIN ? 'tag' : 'undecided'
}

let sharedProbe: TagLexer | undefined

/**
 * The lexer that reads a tag start (`first`: a `<` or a bar) ahead, begun
 * there: one for every reader here (each reads synchronously, and no further
 * than `TAG_START_DECIDED_WITHIN`).
 */
function probeFrom(first: number, context: TagContext): TagLexer {
  const probe = (sharedProbe ??= new TagLexer(TAG_START_DECIDED_WITHIN + 1))
  probe.begin(first, context)
  return probe
}

export class PartialTagChains {
  /**
   * Where the chain of partial tags running up to `at` begins (no earlier
   * than `from`): each a `<` whose text up to the next one (or to `at`) the
   * lexer still reads as the start of a tag. `at` itself when there is none.
   */
  start(text: string, from: number, at: number, context: TagContext): number {
    let start = at
    while (start > from) {
      if (text.charCodeAt(start - 1) === LESS_THAN) {
        // A `<` right before reads nothing before `start`: it reaches it, and so does each of a run of them.
        start = startOfRun(text, from, start, '<')
        continue
      }
      // The `<` before, if it is near enough to start a partial tag that reaches `start`.
      const nearest = Math.max(from, start - LONGEST_BARLESS_TAG_START)
      let previous = start - 1
      while (previous >= nearest && text.charCodeAt(previous) !== LESS_THAN) previous--
      if (previous < nearest) return start
      if (previous + 1 < start && isTextTagStart(text, previous, context)) return start
      if (readsTo(text, previous, start, context) < start) return start
      start = previous
    }
    return start
  }

  /**
   * Where the first chain in `text` between `from` and `to` whose held part
   * (every tag start but its last) is longer than `cap` begins; `to` when
   * there is none. Such a chain has a `<` at least every
   * `LONGEST_BARLESS_TAG_START` characters over more than `cap`, so looking
   * around points `cap` apart finds it; a chain is walked only where a point
   * falls near a `<`, and at most once.
   */
  firstLong(text: string, from: number, to: number, context: TagContext, cap: number): number {
    if (to - from <= cap) return to // no room for one
    const stride = Math.max(1, cap - LONGEST_BARLESS_TAG_START)
    let walked = from
    let point = from
    while (point < to) {
      const next = text.indexOf('<', point)
      if (next === -1 || next >= to) return to
      if (next - point > LONGEST_BARLESS_TAG_START) {
        // No chain covers `point`, and none begins before `next`.
        point = next
        continue
      }
      const start = this.start(text, walked, next, context)
      let last = start
      // Each tag start reads up to where it is rejected; at a `<` the chain goes on from there.
      for (;;) {
        const rejected = readsTo(text, last, to, context)
        if (rejected >= to || text.charCodeAt(rejected) !== LESS_THAN) break
        last = rejected
        if (last - start > cap) return start
      }
      walked = last + 1
      point = Math.max(point + stride, walked)
    }
    return to
  }

}

/** Reads the tag start at `start` (a `<`) up to `end`: where it is decided, or `end`. */
function readsTo(text: string, start: number, end: number, context: TagContext): number {
  const probe = probeFrom(LESS_THAN, context)
  let index = start + 1
  while (index < end && probe.step(text.charCodeAt(index)) === STEP_CONTINUE) index = probe.readName(text, index + 1, end)
  return index
}

let sharedChains: PartialTagChains | undefined

/**
 * How far a short piece of a stream, read from outside markup with nothing
 * held, is certainly plain: up to its first tag start (a `<` or a bar) not
 * known to be text by the characters after it (`tagStartAhead`, in
 * `context`: by default under every markerless name, an answer for any
 * context; a start cut short by another, or by the piece's end, is not
 * known). Each start before that place was decided within it, so the part
 * before it reads as plain text whatever follows: a bar in `A | B` is passed
 * as a `<` in `a < b` is. `text.length` when all of it is plain. From
 * `from`: the rest of a text read up to there with nothing held, as if the
 * piece began there.
 */
export function plainPieceUntil(text: string, context: TagContext = ALL_NAMES, from = 0): number {
  let bar = indexOfBar(text, from)
  let lessThan = text.indexOf('<', from)
  for (;;) {
    const end = bar === -1 ? text.length : bar
    for (; lessThan !== -1 && lessThan < end; lessThan = text.indexOf('<', lessThan + 1)) {
      if (tagStartAhead(text, lessThan, context) !== 'text') return lessThan
    }
    if (bar === -1 || tagStartAhead(text, bar, context) !== 'text') return end
    bar = indexOfBar(text, bar + 1)
  }
}

/**
 * Could a whole text hold markup where only a marker can open it (no tool
 * declared: a markerless candidate becomes markup only when a marked tag
 * confirms it, `acceptsMarkerless`)? Only at a bar: one that may begin a
 * fragment by the characters after it (`tagStartAhead`), or one a tag begun
 * at the `<` before it reads on to (`<|`, `< / |`: no barless tag start
 * reads further than `LONGEST_BARLESS_TAG_START`). A bar of a Markdown table
 * or a TypeScript union (`A | B`) is neither.
 */
function holdsMarkerStart(text: string): boolean {
  const bars = new BarFinder()
  for (let bar = bars.next(text, 0); bar !== -1; bar = bars.next(text, bar + 1)) {
    // The text ending inside the tag: the end decides it, as markup if its marker committed; a bar alone begins nothing.
    const ahead = tagStartAhead(text, bar, ALL_NAMES)
    if (ahead === 'tag' || (ahead === 'undecided' && bar + 1 < text.length)) return true
    const lessThan = text.lastIndexOf('<', bar - 1)
    if (lessThan !== -1 && bar - lessThan <= LONGEST_BARLESS_TAG_START && readsTo(text, lessThan, bar, ALL_NAMES) === bar) return true
  }
  return false
}

/**
 * Could reading `text` from outside markup, with nothing held, hold or
 * remove anything? Yes where the grammar sees the start of markup
 * (`couldOpenMarkup`; `whole`: nothing follows the text; with `whole` and not
 * `markerless`, where no markup without a marker may be acted on by itself,
 * only at a bar that may be a marker's, `holdsMarkerStart`), or where a chain
 * of partial tags passes `maxPendingChars` (under every markerless name: an
 * answer for any context). When no, the text comes out as it is.
 */
export function couldHoldMarkup(text: string, maxPendingChars: number, whole = false, markerless = true): boolean {
  // A short piece of a stream: each tag start in it is decided by the characters after it, or holds.
  if (!whole && text.length <= SHORT_TEXT) return plainPieceUntil(text) < text.length
  if (whole && !markerless ? holdsMarkerStart(text) : couldOpenMarkup(text, whole)) return true
  sharedChains ??= new PartialTagChains()
  return sharedChains.firstLong(text, 0, text.length, ALL_NAMES, maxPendingChars) < text.length
}
