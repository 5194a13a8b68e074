/**
 * hold.ts: how `maxHoldChars` is shared out.
 */
import fc from 'fast-check'
import { holdLimits } from '../../src/dsml/hold.ts'
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
})
