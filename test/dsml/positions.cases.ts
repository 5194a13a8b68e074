/**
 * positions.ts: searches for a few needles (afresh in a short text,
 * remembered in a long one) and the ends of a run of one character, measured
 * a block at a time; needles that are a class of characters outside
 * Latin-1, found in one pass. Each answer is checked against a plain loop
 * over the characters, at every offset and across block boundaries.
 */
import fc from 'fast-check'
import { endOfRun, FRESH_SEARCH, firstOf, indexOfNeedle, needlesOf, Positions, startOfRun } from '../../src/dsml/positions.ts'
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

  test('needlesOf: each Latin-1 character alone, in order, and the others as one class, last; each found where a loop finds it', () => {
    const characters = ['<', '|', '\uFF5C', '\u2016', '\u2502']
    const needles = needlesOf(characters)
    assertEqual(needles.slice(0, 2), ['<', '|'], 'Latin-1 characters as strings, in order')
    assertEqual(needles.length, 3, 'the others as one needle')
    assertEqual(needlesOf(['\n', '`']), ['\n', '`'], 'no class when every character is in Latin-1')
    const wide = characters.slice(2)
    for (const text of ['no bar at all', 'a \u2502 b \uFF5C c \u2016 d', `${'\u00e9'.repeat(FRESH_SEARCH)}\u2016`, `x${'\u2014'.repeat(FRESH_SEARCH)}\uFF5C|<`]) {
      for (let from = 0; from <= text.length; from++) {
        const found = indexOfNeedle(text, needles[2]!, from)
        assertEqual(found === -1 ? text.length : found, firstByLoop(text, wide, from), `the class in ${JSON.stringify(text.slice(0, 12))} from ${from}`)
        assertEqual(firstOf(text, needles, from), firstByLoop(text, characters, from), `firstOf from ${from}`)
      }
    }
  })

  test('needles (property): Positions.first with a class of characters finds what a loop finds, from places further and further on, and after a return to the start', () => {
    const characters = ['<', '\uFF5C', '\u2016', '\u2502']
    const needles = needlesOf(characters)
    const alphabet = ['a', ' ', '\u2014', '\u00e9', ...characters]
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { minLength: FRESH_SEARCH - 8, maxLength: 2 * FRESH_SEARCH }), fc.array(fc.nat(), { maxLength: 12 }), (parts, steps) => {
        const text = parts.join('')
        const positions = new Positions(needles)
        let from = 0
        for (const step of steps) {
          assertEqual(positions.first(text, from), firstByLoop(text, characters, from), `from ${from}`)
          assertEqual(positions.first(text, from, 1), firstByLoop(text, ['<'], from), `'<' only, from ${from}`)
          from = Math.min(text.length, from + (step % 40))
        }
        positions.reset()
        assertEqual(positions.first(text, 0), firstByLoop(text, characters, 0), 'from the start again')
      }),
      { numRuns: 500 },
    )
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
