/**
 * `containsDsmlSentinel`: does a text hold anything the engine removes on
 * sight — a DSML marker (`<‹DSML›…`, `</ | DSML | …`, a bare `‹DSML›`), a
 * tag with bars and a known name (`<‹‹›invoke`), or a DeepSeek special token
 * (`<‹end▁of▁sentence›>` and its spellings)?
 *
 * It is the tag lexer run from every `<` and bar, with no markerless name
 * allowed: a sentinel is a tag the lexer commits to (or completes). So "no
 * sentinel in output text" means exactly "nothing the lexer would read as
 * markup", with the same characters and limits.
 */
import { CANONICAL_BAR, isBar, MARKER_WORD } from './grammar.ts'
import { indexOfBar, NO_NAMES, TAG_START_NEEDLES } from './markup-starts.ts'
import { indexOfNeedle } from './positions.ts'
import { STEP_CONTINUE, STEP_REJECT } from './tag.ts'
import { TagLexer } from './tag-lexer.ts'

/** Longer than any marker or special token: the lexer commits or rejects well before. */
const SENTINEL_TAG_CHARS = 4096

/** True when `text` holds a DSML marker, a barred known tag, or a DeepSeek special token. */
export function containsDsmlSentinel(text: string): boolean {
  if (typeof text !== 'string') throw new TypeError(`Cannot check for DSML: expected a string, got ${typeof text}`)
  return findSentinel(text, 0, false) !== undefined
}

interface Found {
  start: number
  /** Where the lexer's reading of it ended (the tag's end, or where it committed). */
  end: number
  /** Its marker's bars and word, when it completed. */
  marker: string
  special: boolean
}

/**
 * Whether `text` may hold a sentinel, or part of one: it holds a bar, as
 * every sentinel does. A few native searches. Texts of which none may hold
 * one hold none joined either.
 */
export function mayHoldSentinel(text: string, from = 0): boolean {
  return indexOfBar(text, from) !== -1
}

/** The first sentinel at or after `from`; `whole`: read it to its end (for its marker), not only to where it commits. */
function findSentinel(text: string, from: number, whole: boolean): Found | undefined {
  if (!mayHoldSentinel(text, from)) return undefined
  const lexer = new TagLexer(SENTINEL_TAG_CHARS)
  const next = TAG_START_NEEDLES.map((needle) => indexOfNeedle(text, needle, from))
  for (;;) {
    let start = -1
    for (const at of next) if (at !== -1 && (start === -1 || at < start)) start = at
    if (start === -1) return undefined
    const found = readSentinel(lexer, text, start, whole)
    if (found !== undefined) return found
    for (let index = 0; index < next.length; index++) if (next[index] === start) next[index] = indexOfNeedle(text, TAG_START_NEEDLES[index]!, start + 1)
  }
}

/** Every sentinel in `text`, each read to its end, in order. */
function* sentinelsIn(text: string): Generator<Found> {
  let from = 0
  for (let found = findSentinel(text, from, true); found !== undefined; found = findSentinel(text, from, true)) {
    yield found
    from = Math.max(found.end, found.start + 1)
  }
}

/** Runs the lexer from `start`: a sentinel if it commits or completes a tag. */
function readSentinel(lexer: TagLexer, text: string, start: number, whole: boolean): Found | undefined {
  lexer.begin(text.charCodeAt(start), NO_NAMES)
  let step: number = STEP_CONTINUE
  for (let index = start + 1; index < text.length; index++) {
    if (!whole && lexer.committed) return { start, end: index, marker: '', special: false }
    step = lexer.step(text.charCodeAt(index))
    if (step !== STEP_CONTINUE) break
  }
  if (step === STEP_CONTINUE) step = lexer.finish()
  if (step === STEP_REJECT) return undefined
  const tag = lexer.tag()
  return { start, end: start + tag.length, marker: text.slice(start + tag.markerStart, start + tag.markerEnd), special: tag.special }
}

/**
 * Does `text` hold tool-call markup: a DSML marker or a barred tag, not only
 * special tokens such as end-of-sentence? (History repair notes only the
 * removal of calls.)
 */
export function holdsCallMarkup(text: string): boolean {
  for (const found of sentinelsIn(text)) if (!found.special) return true
  return false
}

/**
 * The marker spellings in a text, shown without live bytes, each once: the
 * canonical full-width bars as `‹` and `›`, every other bar in brackets, so
 * that no bar touches the word: `‹DSML›`, `‹‹DSML››`, `[|] DSML [|]`,
 * `[‖]DSML[‖]`…; special tokens as `special token`.
 */
export function markerSpellings(text: string): string[] {
  const seen = new Set<string>()
  for (const found of sentinelsIn(text)) seen.add(found.special ? 'special token' : showMarker(found.marker))
  return [...seen]
}

function showMarker(marker: string): string {
  const word = marker.indexOf(MARKER_WORD)
  const before = word === -1 ? marker : marker.slice(0, word)
  const after = word === -1 ? '' : marker.slice(word + MARKER_WORD.length)
  return word === -1 ? showBars(before, '‹') : `${showBars(before, '‹')}${MARKER_WORD}${showBars(after, '›')}`
}

function showBars(text: string, canonical: string): string {
  let shown = ''
  for (const character of text) {
    const code = character.charCodeAt(0)
    shown += code === CANONICAL_BAR.charCodeAt(0) ? canonical : isBar(code) ? `[${character}]` : character
  }
  return shown
}
