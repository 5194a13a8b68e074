/**
 * Tests of the framework-free assertions themselves, so the portable pipeline
 * (vitest, Deno, Bun) always has something true to run, including one
 * fast-check property to prove fast-check loads in every runtime.
 */
import fc from 'fast-check'
import { AssertionError, assert, assertEqual, assertThrows, rejectionOf, thrownBy } from './assert.ts'
import { defineSuite } from './harness.ts'

/** Runs `run`, which must throw an AssertionError, and returns its message. */
function messageOf(run: () => void): string {
  try {
    run()
  } catch (error) {
    if (error instanceof AssertionError) return error.message
    throw new AssertionError(`expected an AssertionError, got ${String(error)}`)
  }
  throw new AssertionError('expected an AssertionError, none was thrown')
}

/** Rebuilds plain objects with their keys in reverse order (arrays keep their order). */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(out, key, { value: reverseKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true })
  }
  return out
}

export const suite = defineSuite('support/assert', (test) => {
  test('assertEqual accepts equal nested objects and arrays', () => {
    assertEqual(
      { a: [1, { b: 'x', c: [null, true] }], d: { e: { f: [] } } },
      { a: [1, { b: 'x', c: [null, true] }], d: { e: { f: [] } } },
    )
    assertEqual([[1, 2], [3, [4, [5]]]], [[1, 2], [3, [4, [5]]]])
  })

  test('assertEqual ignores key order, at every depth', () => {
    assertEqual({ a: 1, b: { c: 2, d: [{ e: 3, f: 4 }] } }, { b: { d: [{ f: 4, e: 3 }], c: 2 }, a: 1 })
  })

  test('assertEqual treats NaN as equal to NaN but -0 as differing from 0 (Object.is)', () => {
    assertEqual({ n: Number.NaN }, { n: Number.NaN })
    assertThrows(() => assertEqual(-0, 0), AssertionError)
  })

  test('a mismatch throws with the path of the first difference', () => {
    const message = messageOf(() => assertEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }))
    assert(message.includes('.a[1].b'), `message should name the path .a[1].b: ${message}`)
    assert(message.includes('"y"') && message.includes('"x"'), `message should show both values: ${message}`)
  })

  test('a mismatch in keys, length or kind names what differs', () => {
    assertThrows(() => assertEqual({ a: 1 }, { a: 1, b: 2 }), AssertionError, /^value: expected keys \[\s*"a",\s*"b"\s*\], got \[\s*"a"\s*\]$/)
    assertThrows(() => assertEqual({ list: [1, 2] }, { list: [1, 2, 3] }), AssertionError, /^\.list: expected length 3, got 2/)
    assertThrows(() => assertEqual({ x: [] }, { x: {} }), AssertionError, /^\.x: expected an object/)
    assertThrows(() => assertEqual(null, {}), AssertionError, /^value: expected \{\}, got null/)
  })

  test('a custom message comes first, followed by the difference', () => {
    const message = messageOf(() => assertEqual([1], [2], 'events differ'))
    assert(message.startsWith('events differ\n[0]: expected 2, got 1'), `unexpected message: ${JSON.stringify(message)}`)
  })

  test('assert and assertThrows fail when they should', () => {
    assertThrows(() => assert(false, 'boom'), AssertionError, /^boom$/)
    assertThrows(() => assertThrows(() => undefined, Error), AssertionError, /expected Error to be thrown/)
    assertThrows(() => assertThrows(() => { throw new Error('nope') }, TypeError), AssertionError, /expected TypeError/)
    assertThrows(() => assertThrows(() => { throw new Error('nope') }, Error, /yes/), AssertionError, /does not match/)
  })

  test('thrownBy returns what was thrown, and fails when nothing is', () => {
    const error = new RangeError('x')
    assert(thrownBy(() => { throw error }) === error, 'the very error')
    assertEqual(messageOf(() => thrownBy(() => 1)), 'expected an error to be thrown, none was')
  })

  test('rejectionOf returns the reason, and fails when the promise resolves', async () => {
    const reason = new TypeError('y')
    assert((await rejectionOf(Promise.reject(reason))) === reason, 'the very reason')
    let failure: unknown
    try {
      await rejectionOf(Promise.resolve(1))
    } catch (error) {
      failure = error
    }
    assert(failure instanceof AssertionError && failure.message === 'expected a rejection, the promise resolved', `got ${String(failure)}`)
  })

  test('async cases are awaited', async () => {
    const value = await new Promise<number>((resolve) => setTimeout(() => resolve(42), 1))
    assertEqual(value, 42)
  })

  test('property: assertEqual is reflexive on cloned JSON values, in any key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assertEqual(structuredClone(value), value)
        assertEqual(reverseKeys(value), value)
      }),
    )
  })

  test('property: assertEqual rejects a changed leaf and names its path', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1 }), fc.nat(), (list, at) => {
        const index = at % list.length
        const changed = list.map((item, position) => (position === index ? item + 1 : item))
        const message = messageOf(() => assertEqual({ list: changed }, { list }))
        assert(message.startsWith(`.list[${index}]: `), `message should start with the path .list[${index}]: ${message}`)
      }),
    )
  })
})
