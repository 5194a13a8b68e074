/**
 * `containsDsmlSentinel`: does a text hold anything the engine removes on
 * sight — a DSML marker (`<‹DSML›…`, `</ | DSML | …`, or a bare `｜DSML｜`)
 * or a DeepSeek special token (`<｜end▁of▁sentence｜>` and its spellings)?
 *
 * It follows the lexer's rules exactly (same bar characters, same limits on
 * bars and spaces), so "no sentinel in output text" is a checkable guarantee.
 */
import { isBar, isMarkerSpace, LESS_THAN, MARKER_WORD, MAX_MARKER_BARS, MAX_MARKER_SPACES, SLASH } from './grammar.ts'

const SPECIAL_TOKEN_PATTERN = /<\/?[ \t]{0,4}[|\uFF5C\u2016\u2502]{1,4}(?:end[\u2581 _]of[\u2581 _](?:sentence|thinking)|begin[\u2581 _]of[\u2581 _]sentence)[|\uFF5C\u2016\u2502]{1,2}>/i

/** True when `text` holds a DSML marker or a DeepSeek special token. */
export function containsDsmlSentinel(text: string): boolean {
  if (typeof text !== 'string') throw new TypeError(`Cannot check for DSML: expected a string, got ${typeof text}`)
  let index = text.indexOf(MARKER_WORD)
  while (index !== -1) {
    if (isMarkerAt(text, index)) return true
    index = text.indexOf(MARKER_WORD, index + 1)
  }
  return containsSpecialToken(text, 'sentence') || containsSpecialToken(text, 'thinking')
}

/** Is the word `DSML` at `wordIndex` part of a marker? */
function isMarkerAt(text: string, wordIndex: number): boolean {
  // Bare: a bar directly before and directly after the word.
  const after = wordIndex + MARKER_WORD.length
  if (wordIndex > 0 && isBar(text.charCodeAt(wordIndex - 1)) && after < text.length && isBar(text.charCodeAt(after))) {
    return true
  }
  // Tag: `<` `/`? spaces(0–4) bars(1–2, the whole run) spaces(0–4) DSML.
  let index = wordIndex - 1
  let spaces = 0
  while (index >= 0 && isMarkerSpace(text.charCodeAt(index)) && spaces < MAX_MARKER_SPACES) {
    index--
    spaces++
  }
  let bars = 0
  while (index >= 0 && isBar(text.charCodeAt(index))) {
    index--
    bars++
  }
  if (bars < 1 || bars > MAX_MARKER_BARS) return false
  spaces = 0
  while (index >= 0 && isMarkerSpace(text.charCodeAt(index)) && spaces < MAX_MARKER_SPACES) {
    index--
    spaces++
  }
  if (index >= 0 && text.charCodeAt(index) === SLASH) index--
  return index >= 0 && text.charCodeAt(index) === LESS_THAN
}

function containsSpecialToken(text: string, word: string): boolean {
  let index = text.indexOf(word)
  while (index !== -1) {
    // Look only at a short window around the word: no regex over long text.
    if (SPECIAL_TOKEN_PATTERN.test(text.slice(Math.max(0, index - 20), index + word.length + 3))) return true
    index = text.indexOf(word, index + 1)
  }
  return false
}
