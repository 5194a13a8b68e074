/**
 * tag-start-search.ts: where the scanner's next tag may start — the next
 * `<`, or bar where bars matter, that is not text whatever follows
 * (`isTextTagStart`). Each answer is checked against a plain loop over the
 * characters asking the grammar, at every offset, in short texts (read a
 * few characters at a time first) and long ones (searches remembered), from
 * places further and further on, back at the start after `reset`, and
 * across two texts searched in turn.
 */
import fc from 'fast-check'
import { isBar, LESS_THAN } from '../../src/dsml/grammar.ts'
import { ALL_NAMES, NO_NAMES, OPENERS, type TagContext } from '../../src/dsml/markup-starts.ts'
import { isTextTagStart } from '../../src/dsml/partial-tags.ts'
import { FRESH_SEARCH } from '../../src/dsml/positions.ts'
import { TagStartSearch } from '../../src/dsml/tag-start-search.ts'
import { assertEqual } from '../support/assert.ts'
import { FW_BAR, marker } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

/** The next tag start at or after `from`, by a loop over the characters; `text.length` when none. */
function nextByLoop(text: string, from: number, withBars: boolean, context: TagContext): number {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if ((code === LESS_THAN || (withBars && isBar(code))) && !isTextTagStart(text, index, context)) return index
  }
  return text.length
}

function checkEveryOffset(search: TagStartSearch, text: string, withBars: boolean, context: TagContext, label: string): void {
  for (let from = 0; from <= text.length; from++) assertEqual(search.next(text, from, withBars, context), nextByLoop(text, from, withBars, context), `${label}, from ${from}`)
}

const SAMPLES = [
  'a < b and c <d> then x',
  `see <invoke name="x"> and ${marker()}invoke and A | B`,
  `union A | B ${FW_BAR} c </ d <<`,
  `${'prose '.repeat(Math.ceil(FRESH_SEARCH / 6))}if a < b then <tool_calls> | ${FW_BAR}${FW_BAR} end <`,
]

export const suite = defineSuite('dsml/tag-start-search', (test) => {
  test('next: the first `<`, or bar where bars matter, that is not text whatever follows, at every offset of short and long texts', () => {
    for (const text of SAMPLES) {
      for (const context of [NO_NAMES, OPENERS, ALL_NAMES]) {
        for (const withBars of [false, true]) checkEveryOffset(new TagStartSearch(), text, withBars, context, `${JSON.stringify(text.slice(0, 20))} bars ${withBars}`)
      }
    }
  })

  test('next: text starts are passed (`a < b`, `A | B`), tag starts are not; without bars, a bar is no start', () => {
    const search = new TagStartSearch()
    assertEqual(search.next('a < b', 0, true, ALL_NAMES), 5, '`a < b` is text')
    assertEqual(search.next('A | B', 0, true, ALL_NAMES), 5, '`A | B` is text')
    assertEqual(search.next('x <invoke', 0, true, ALL_NAMES), 2, 'a markerless opener may start a tag')
    assertEqual(search.next(`x ${FW_BAR}${FW_BAR}y`, 0, true, ALL_NAMES), 2, 'a full-width bar before a bar may start a fragment')
    assertEqual(search.next(`x ${FW_BAR}${FW_BAR}y`, 0, false, ALL_NAMES), 5, 'not where bars do not matter')
  })

  test('next (property): one search asked from later and later places, then again from the start after reset, and over two texts in turn, finds what the loop finds', () => {
    const piece = fc.constantFrom('<', '< ', '</', 'a', ' ', '|', FW_BAR, 'invoke', 'tool_calls', '>', '\n', 'x'.repeat(40))
    const text = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''))
    fc.assert(
      fc.property(text, text, fc.boolean(), fc.constantFrom(NO_NAMES, OPENERS, ALL_NAMES), (first, second, withBars, context) => {
        const search = new TagStartSearch()
        for (let from = 0; from <= first.length; from += 3) assertEqual(search.next(first, from, withBars, context), nextByLoop(first, from, withBars, context), `first text from ${from}`)
        search.reset()
        for (let from = 0; from <= first.length; from += 2) {
          assertEqual(search.next(first, from, withBars, context), nextByLoop(first, from, withBars, context), `first text again from ${from}`)
          const other = Math.min(from, second.length)
          assertEqual(search.next(second, other, withBars, context), nextByLoop(second, other, withBars, context), `second text from ${other}`)
        }
      }),
      { numRuns: 300 },
    )
  })
})
