/**
 * positions.ts: searches for a few needles (afresh in a short text,
 * remembered in a long one) and the ends of a run of one character, measured
 * a block at a time. Each answer is checked against a plain loop over the
 * characters, at every offset and across block boundaries.
 */
import fc from 'fast-check'
import { endOfRun, FRESH_SEARCH, firstOf, Positions, startOfRun } from '../../src/dsml/positions.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

/** The first position at or after `from` of any of `needles` (one character each), by a loop; `text.length` when none. */
function firstByLoop(text: string, needles: readonly string[], from: number): number {
  for (let index = from; index < text.length; index++) if (needles.includes(text.charAt(index))) return index
  return text.length
}

const NEEDLES = ['\n', '`', '\uFF5C']

export const suite = defineSuite('dsml/positions', (test) => {
  test('firstOf and Positions.first: the first needle at or after each offset, in a short text and a long one', () => {
    for (const text of ['a`b\nc', `x${'y'.repeat(FRESH_SEARCH)}\n${'z'.repeat(40)}\uFF5C tail \``]) {
      const positions = new Positions(NEEDLES)
      for (let from = 0; from <= text.length; from++) {
        assertEqual(firstOf(text, NEEDLES, from), firstByLoop(text, NEEDLES, from), `firstOf from ${from}`)
        assertEqual(positions.first(text, from), firstByLoop(text, NEEDLES, from), `Positions.first from ${from}`)
        assertEqual(positions.first(text, from, 1), firstByLoop(text, NEEDLES.slice(0, 1), from), `the first needle only, from ${from}`)
      }
    }
  })

  test('endOfRun and startOfRun: the run measured a block at a time ends where a loop says, across block boundaries', () => {
    for (const length of [0, 1, 1023, 1024, 1025, 2048, 3000]) {
      const text = `ab${'<'.repeat(length)}c<`
      assertEqual(endOfRun(text, 2, '<'), 2 + length, `a run of ${length}, from its start`)
      assertEqual(startOfRun(text, 0, 2 + length, '<'), 2, `a run of ${length}, back from its end`)
      assertEqual(startOfRun(text, 5, 2 + length, '<'), Math.min(5, 2 + length), `a run of ${length}, no earlier than from`)
      assertEqual(endOfRun(`${'<'.repeat(length)}`, 0, '<'), length, `a run of ${length} to the end of the text`)
    }
  })

  test('endOfRun and startOfRun (property): the same as a loop, at any offset', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('<', '<<<<', '<'.repeat(700), 'x', '\u2014'), { maxLength: 12 }), fc.nat(), (pieces, seed) => {
        const text = pieces.join('')
        const at = text.length === 0 ? 0 : seed % (text.length + 1)
        let end = at
        while (end < text.length && text.charAt(end) === '<') end++
        let start = at
        while (start > 0 && text.charAt(start - 1) === '<') start--
        assertEqual(endOfRun(text, at, '<'), end, 'end')
        assertEqual(startOfRun(text, 0, at, '<'), start, 'start')
      }),
      { numRuns: 500 },
    )
  })
})
