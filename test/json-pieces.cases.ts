/**
 * `jsonPieces` (src/json-pieces.ts): its pieces join to exactly
 * `JSON.stringify(value, null, indent)`, for any JSON value, at any indent,
 * with what `JSON.stringify` skips or writes as null (undefined, functions,
 * symbols, `toJSON`), surrogate pairs cut at a slice's end; a cycle or a
 * BigInt throws as `JSON.stringify` throws. No piece holds much more than a
 * slice, and a long text kept as its pieces (`LongTexts`) is written from
 * them, however they cut a pair.
 */
import fc from 'fast-check'
import { jsonPieces, PIECE_CHARS } from '../src/json-pieces.ts'
import { LongTexts } from '../src/long-texts.ts'
import { assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

const written = (value: unknown, indent?: number, longTexts?: LongTexts): string =>
  [...jsonPieces(value, { ...(indent === undefined ? {} : { indent }), ...(longTexts === undefined ? {} : { longTexts }) })].join('')

const throwsLike = (run: () => unknown): string => {
  try {
    run()
    return 'no error'
  } catch (error) {
    return error instanceof TypeError ? 'TypeError' : String(error)
  }
}

const long = 'x'.repeat(65_535)

export const suite = defineSuite('json-pieces', (test) => {
  test('property: any JSON value, at indents 0–12 and none, joins to JSON.stringify', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.integer({ min: -2, max: 12 }), { nil: undefined }), (value, indent) => {
        assertEqual(written(value, indent), JSON.stringify(value, null, indent))
      }),
      { numRuns: 300 },
    )
  })

  test('property: what JSON.stringify skips or nulls (undefined, functions, symbols, holes) and toJSON, in objects and arrays', () => {
    const withToJSON = Object.assign(() => 1, { toJSON: () => 'a function with toJSON' })
    const odd = fc.constantFrom<unknown>(undefined, () => 1, Symbol('s'), { toJSON: (key: string) => `key ${key}` }, new Date(0), NaN, -Infinity, -0, withToJSON, new String('boxed'), new Number(3), new Boolean(false))
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), odd)), fc.array(fc.oneof(fc.jsonValue(), odd)), fc.integer({ min: 0, max: 4 }), (record, list, indent) => {
        const value = { record, list, sparse: [1, , 3] } // eslint-disable-line no-sparse-arrays
        assertEqual(written(value, indent), JSON.stringify(value, null, indent))
      }),
      { numRuns: 200 },
    )
  })

  test('long strings at a slice edge: pairs across it, lone halves, escapes that grow, a long key, a marker-like string', () => {
    const values: unknown[] = [
      { text: `${long}\uD83D\uDE00 and on` },
      { text: `${long}\uD83D` },
      { text: `${'x'.repeat(65_534)}\uD83D\uD83D\uDE00b` },
      { text: `a "quoted" \\ line\nbreak \u0000 \u2028 \uDE00 ${'\u00e9\uFF5C'.repeat(70_000)}` },
      [[`${long}${long}`, 1, -0, 1e21, null, true, {}, []], { nested: { deeper: [`${long}!`] } }],
      { [`${long}key`]: `${long}value` },
      `${long}${long}`,
    ]
    for (const [index, value] of values.entries()) {
      for (const indent of [undefined, 2]) {
        const pieces = [...jsonPieces(value, indent === undefined ? {} : { indent })]
        assertEqual(pieces.join(''), JSON.stringify(value, null, indent), `value ${index}, indent ${indent}`)
        // a piece is given out once it holds a slice: at most one value's escaping (6 characters each) more
        assertEqual(pieces.every((piece) => piece.length <= PIECE_CHARS * 13 + 2), true, `value ${index}: no piece much longer than a slice`)
      }
    }
    assertEqual([...jsonPieces({ text: 'y'.repeat(1_000_000) }, { indent: 2 })].length > 10, true, 'a long string is written in slices')
  })

  test('a long text kept as its pieces: written as the text they join to, however they cut pairs, with empty pieces and lone halves at either end', () => {
    const cuts: string[][] = [
      [`${'q'.repeat(65_536)}\uD83D`, `\uDE00${'"\\\n'.repeat(30_000)}`, '\u2028\u0000'],
      [`${'a'.repeat(70_000)}\uD83D`, '', `\uDE00${'b'.repeat(5000)}`],
      [`\uDE00${'c'.repeat(70_000)}\uD83D`],
      [`${'d'.repeat(40_000)}\uD83D`, `\uD83D${'e'.repeat(40_000)}`, `\uDE00${'f'.repeat(5000)}\uD83D`],
      ['abc', '\uD83D', '\uDE00 def'],
      [],
    ]
    for (const pieces of cuts) {
      const longTexts = new LongTexts()
      const content = longTexts.join(pieces)
      for (const indent of [undefined, 2]) {
        const expected = JSON.stringify({ content: pieces.join(''), other: 'short' }, null, indent)
        assertEqual(written({ content, other: 'short' }, indent, longTexts), expected, `${JSON.stringify(pieces.map((piece) => piece.length))}, indent ${indent}`)
      }
    }
  })

  test('what JSON.stringify refuses is refused: a cycle, a BigInt, a value with no JSON text', () => {
    const cycle: Record<string, unknown> = { a: 1 }
    cycle.self = { back: cycle }
    assertEqual(throwsLike(() => written(cycle)), throwsLike(() => JSON.stringify(cycle)), 'a cycle')
    assertEqual(throwsLike(() => written({ n: 1n })), throwsLike(() => JSON.stringify({ n: 1n })), 'a BigInt')
    assertEqual(throwsLike(() => written(undefined)), 'TypeError', 'undefined has no JSON text')
    const rooted = Object.assign(() => 1, { toJSON: () => 'fn' })
    assertEqual(written(rooted), JSON.stringify(rooted), 'a function with toJSON at the root is its toJSON')
    const shared = { same: true }
    assertEqual(written([shared, shared]), JSON.stringify([shared, shared]), 'the same object twice is not a cycle')
  })
})
