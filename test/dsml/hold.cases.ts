/**
 * hold.ts: how `maxHoldChars` is shared out, and held text kept as pieces.
 */
import fc from 'fast-check'
import { HeldText, holdLimits } from '../../src/dsml/hold.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

export const suite = defineSuite('dsml/hold', (test) => {
  test('holdLimits: the shares never add up past maxHoldChars; the eager stop is at most an eighth', () => {
    fc.assert(
      fc.property(fc.integer({ min: 256, max: 1 << 24 }), fc.integer({ min: 1, max: 1 << 20 }), (maxHoldChars, eagerStopChars) => {
        const limits = holdLimits(maxHoldChars, eagerStopChars)
        assertEqual(limits.maxTagChars + limits.maxPendingChars + limits.eagerStopChars + limits.maxMarkupChars, maxHoldChars)
        assertEqual(limits.eagerStopChars, Math.min(eagerStopChars, Math.floor(maxHoldChars / 8)))
        assert(limits.maxTagChars <= 4096 && limits.maxMarkupChars > 0, JSON.stringify(limits))
      }),
    )
  })

  test('HeldText: pieces of any size and number come back in order, once, and take empties it', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 5 }), { maxLength: 2000 }), (pieces) => {
        const held = new HeldText()
        for (const piece of pieces) held.add(piece)
        assertEqual(held.length, pieces.join('').length)
        assertEqual(held.take(), pieces.join(''))
        assertEqual([held.length, held.take()], [0, ''])
        held.add('again')
        assertEqual(held.take(), 'again', 'usable after take')
        for (const piece of pieces) held.add(piece)
        held.clear()
        held.add('fresh')
        assertEqual([held.length, held.take()], [5, 'fresh'], 'clear drops everything')
      }),
      { numRuns: 50 },
    )
  })
})
