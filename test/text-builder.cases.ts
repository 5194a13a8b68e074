/**
 * `TextBuilder`: a text appended in pieces reads back as the pieces joined,
 * across block boundaries, however it was cut, and as often as it is read;
 * `take` hands the text over and empties the builder; `takePieces` hands it
 * over as its blocks, a piece of `PIECE_KEPT_WHOLE` characters or more as it came; `clear`
 * drops it; `equals` answers as comparing with the text read would.
 */
import fc from 'fast-check'
import { PIECE_KEPT_WHOLE, TextBuilder } from '../src/text-builder.ts'
import { assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

export const suite = defineSuite('text-builder', (test) => {
  test('the pieces joined, at every count around the block size (255–1025 pieces), read twice, appended to after a read', () => {
    for (const count of [0, 1, 255, 256, 257, 511, 512, 513, 1025]) {
      const builder = new TextBuilder()
      let expected = ''
      for (let index = 0; index < count; index++) {
        const piece = index % 7 === 0 ? '' : `${index},`
        builder.append(piece)
        expected += piece
      }
      assertEqual(builder.toString(), expected, `${count} pieces`)
      assertEqual(builder.toString(), expected, `${count} pieces, read again`)
      assertEqual(builder.length, expected.length, `${count} pieces: length`)
      builder.append('end')
      assertEqual(builder.toString(), `${expected}end`, `${count} pieces, appended to after a read`)
    }
  })

  test('take: the text so far, and the builder empty after it (length 0, reads ""), at every count around the block size; appended to again, only the new pieces', () => {
    for (const count of [0, 1, 255, 256, 257, 513]) {
      const builder = new TextBuilder()
      let expected = ''
      for (let index = 0; index < count; index++) {
        builder.append('<')
        expected += '<'
      }
      if (count % 2 === 1) assertEqual(builder.toString(), expected, `${count} pieces, read before the take`)
      assertEqual(builder.take(), expected, `${count} pieces taken`)
      assertEqual([builder.length, builder.toString(), builder.take()], [0, '', ''], `${count} pieces: empty after the take`)
      builder.append('a')
      builder.append('b')
      assertEqual(builder.take(), 'ab', `${count} pieces: appended to after the take`)
    }
  })

  test('property: any pieces come back in order, once, by take; usable after take; clear drops everything', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 5 }), { maxLength: 2000 }), (pieces) => {
        const builder = new TextBuilder()
        for (const piece of pieces) builder.append(piece)
        assertEqual(builder.length, pieces.join('').length)
        assertEqual(builder.take(), pieces.join(''))
        assertEqual([builder.length, builder.take()], [0, ''])
        builder.append('again')
        assertEqual(builder.take(), 'again', 'usable after take')
        for (const piece of pieces) builder.append(piece)
        builder.clear()
        builder.append('fresh')
        assertEqual([builder.length, builder.take()], [5, 'fresh'], 'clear drops everything')
      }),
      { numRuns: 50 },
    )
  })

  test('property: any pieces, read at any points, give their concatenation', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 700 }), fc.array(fc.nat(700), { maxLength: 4 }), (pieces, readsAt) => {
        const builder = new TextBuilder()
        let expected = ''
        pieces.forEach((piece, index) => {
          builder.append(piece)
          expected += piece
          if (readsAt.includes(index)) assertEqual(builder.toString(), expected, `read after piece ${index}`)
        })
        assertEqual(builder.toString(), expected)
      }),
      { numRuns: 200 },
    )
  })

  test('takePieces: blocks that join to the text, each large piece the very string appended, small ones joined between them; the builder empty after', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer({ min: PIECE_KEPT_WHOLE, max: 3 * PIECE_KEPT_WHOLE }).map((length) => 'W'.repeat(length))), { maxLength: 900 }), (pieces) => {
        const builder = new TextBuilder()
        for (const piece of pieces) builder.append(piece)
        const blocks = builder.takePieces()
        assertEqual(blocks.join(''), pieces.join(''), 'the text')
        const large = pieces.filter((piece) => piece.length >= PIECE_KEPT_WHOLE)
        assertEqual(blocks.filter((block) => block.length >= PIECE_KEPT_WHOLE && /^W+$/.test(block)), large, 'every large piece is a block of its own, as it came')
        assertEqual(blocks.every((block) => block.length > 0), true, 'no empty block')
        assertEqual([builder.length, builder.take()], [0, ''], 'empty after')
      }),
      { numRuns: 100 },
    )
  })

  test('property: equals answers as comparing with the text read, for the text, a text one character off anywhere, shorter and longer ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer({ min: PIECE_KEPT_WHOLE, max: 2 * PIECE_KEPT_WHOLE }).map((length) => 'W'.repeat(length))), { maxLength: 600 }),
        fc.nat(),
        fc.boolean(),
        (pieces, at, readFirst) => {
          const builder = new TextBuilder()
          for (const piece of pieces) builder.append(piece)
          const text = pieces.join('')
          if (readFirst) assertEqual(builder.toString(), text, 'read before comparing')
          assertEqual(builder.equals(text), true, 'the text')
          if (text.length > 0) {
            const index = at % text.length
            const changed = `${text.slice(0, index)}${text[index] === 'x' ? 'y' : 'x'}${text.slice(index + 1)}`
            assertEqual(builder.equals(changed), false, `one character off at ${index}`)
            assertEqual(builder.equals(text.slice(0, index)), false, `cut at ${index}`)
          }
          assertEqual(builder.equals(`${text}x`), false, 'longer')
          for (const other of [undefined, null, text.length, [text], { text }]) assertEqual(builder.equals(other), false, `not a string: ${typeof other}`)
          assertEqual(builder.toString(), text, 'unchanged by comparing')
        },
      ),
      { numRuns: 200 },
    )
  })
})
