/**
 * `LongTexts` (src/long-texts.ts): a text taken from a builder, or joined
 * from pieces, is the pieces joined; a long one gives back pieces that join
 * to it (a piece of 4,096 characters or more as it came, small ones joined
 * into blocks), a short one, or any text it did not make, gives itself.
 */
import fc from 'fast-check'
import { LONG_TEXT_CHARS, LongTexts } from '../src/long-texts.ts'
import { TextBuilder } from '../src/text-builder.ts'
import { assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

export const suite = defineSuite('long-texts', (test) => {
  test('a long text made of large pieces: the rope of those very pieces, given back by piecesOf', () => {
    const longTexts = new LongTexts()
    const pieces = Array.from({ length: 20 }, (_, index) => String.fromCharCode(97 + index).repeat(8192))
    const text = longTexts.join(pieces)
    assertEqual(text, pieces.join(''), 'the text')
    assertEqual([...longTexts.piecesOf(text)], pieces, 'its pieces, as they came')
    assertEqual([...longTexts.piecesOf(pieces.join(''))], pieces, 'found by value: an equal string made elsewhere')
  })

  test('one text kept per length: a second of the same length gives itself, and each still joins to its pieces', () => {
    const longTexts = new LongTexts()
    const first = longTexts.join(['a'.repeat(40_000), 'b'.repeat(40_000)])
    const second = longTexts.join(['c'.repeat(40_000), 'd'.repeat(40_000)])
    assertEqual(longTexts.piecesOf(first).length, 2, 'the first keeps its pieces')
    assertEqual([...longTexts.piecesOf(second)], [second], 'the second, of the same length, gives itself')
    assertEqual(longTexts.piecesOf(second).join(''), `${'c'.repeat(40_000)}${'d'.repeat(40_000)}`)
  })

  test('short texts are joined and give themselves; a text it did not make gives itself', () => {
    const longTexts = new LongTexts()
    const short = longTexts.join(['a', 'b'.repeat(LONG_TEXT_CHARS - 2)])
    assertEqual([short.length, [...longTexts.piecesOf(short)]], [LONG_TEXT_CHARS - 1, [short]])
    const foreign = 'z'.repeat(LONG_TEXT_CHARS * 2)
    assertEqual([...longTexts.piecesOf(foreign)], [foreign])
    assertEqual(longTexts.join([]), '')
  })

  test('property: any pieces (small, large, empty) join to their text, and its pieces join to it', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: 4000, max: 30_000 }).map((length) => 'L'.repeat(length)))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), (pieces) => {
        const longTexts = new LongTexts()
        const text = longTexts.join(pieces)
        assertEqual(text, pieces.join(''))
        assertEqual(longTexts.piecesOf(text).join(''), text)
        if (text.length >= LONG_TEXT_CHARS && pieces.filter((one) => one.length >= 4096).length > 1) {
          assertEqual(longTexts.piecesOf(text).length > 1, true, 'a long text of large pieces stays pieces')
        }
        const builder = new TextBuilder()
        for (const one of pieces) builder.append(one)
        assertEqual(longTexts.take(builder), text, 'take gives the same text')
        assertEqual(builder.length, 0, 'and empties the builder')
      }),
      { numRuns: 100 },
    )
  })
})
