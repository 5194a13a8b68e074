/**
 * Which characters of an output text are code (documentation the engine
 * neither runs nor removes, DESIGN.md §5.4), by the engine's own rules, each
 * tested on its own against CommonMark (`fence-tracker-commonmark.test.ts`,
 * `code-spans-commonmark.test.ts`): fenced code blocks, and inline code spans.
 */
import { createFenceTracker, type FenceTracker } from '../../src/dsml/fence-tracker.ts'

/**
 * Is the character at `index` in an inline code span, for a tracker that has
 * read `text` up to it? Where a backtick run may open one, a clone reads ahead
 * (as the engine's code-span gate does) until a run closes it or the paragraph ends.
 */
export function inCodeSpanAt(tracker: FenceTracker, text: string, index: number): boolean {
  if (!tracker.codeSpanOpenAt(text.charCodeAt(index))) return false
  const ahead = tracker.clone()
  ahead.watchCodeSpan()
  // The first run that closes one unmatched at the place says it is in a span (where the span ends does not matter here).
  for (let at = index; at < text.length; ) {
    at = ahead.track(text, at)
    if (ahead.takeCodeSpanClose() !== -1) return true
    if (ahead.codeSpanSettlement !== 'open') return false
  }
  ahead.endOfText()
  return ahead.takeCodeSpanClose() !== -1
}

/** `text` with every character in code (a fence or a code span) replaced by a line break, so the text on either side never joins. */
export function outsideCode(text: string): string {
  const tracker = createFenceTracker()
  let out = ''
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    out += tracker.inFenceAt(code) || inCodeSpanAt(tracker, text, index) ? '\n' : text[index]
    tracker.track(text, index, index + 1)
  }
  return out
}
