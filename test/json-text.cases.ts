/**
 * `parseBoundedJson` (src/json-text.ts), the one reader of JSON from outside:
 * JSON nested at most MAX_JSON_DEPTH arrays and objects deep parses; one level
 * deeper is not JSON; brackets inside strings (escaped quotes included) do not
 * count; text that is not JSON is not JSON at any depth. `endOfJsonString`,
 * where every reader of raw JSON text finds a string's end.
 */
import { endOfJsonString, MAX_JSON_DEPTH, parseBoundedJson } from '../src/json-text.ts'
import { assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
const objects = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1)

export const suite = defineSuite('json-text', (test) => {
  test('at the limit: parsed; one level deeper: not JSON (arrays, objects, and the two mixed)', () => {
    assertEqual(MAX_JSON_DEPTH, 512)
    assertEqual(JSON.stringify(parseBoundedJson(arrays(MAX_JSON_DEPTH))?.value), arrays(MAX_JSON_DEPTH), 'arrays at the limit')
    assertEqual(parseBoundedJson(arrays(MAX_JSON_DEPTH + 1)), undefined, 'arrays one deeper')
    assertEqual(JSON.stringify(parseBoundedJson(objects(MAX_JSON_DEPTH))?.value), objects(MAX_JSON_DEPTH), 'objects at the limit')
    assertEqual(parseBoundedJson(objects(MAX_JSON_DEPTH + 1)), undefined, 'objects one deeper')
    const mixed = `[${objects(MAX_JSON_DEPTH - 1)}]`
    assertEqual(JSON.stringify(parseBoundedJson(mixed)?.value), mixed, 'mixed at the limit')
    assertEqual(parseBoundedJson(`[${mixed}]`), undefined, 'mixed one deeper')
  })

  test('brackets inside strings do not count, after escaped quotes and backslashes too; many siblings are not depth', () => {
    const inString = JSON.stringify({ text: '['.repeat(5000), quoted: `\\"${'{'.repeat(5000)}`, slash: `\\\\${'['.repeat(5000)}` })
    assertEqual(parseBoundedJson(inString)?.value, JSON.parse(inString), 'brackets in strings')
    const siblings = `[${Array.from({ length: 5000 }, () => '[]').join(',')}]`
    assertEqual((parseBoundedJson(siblings)?.value as unknown[]).length, 5000, '5,000 siblings, depth 2')
  })

  test('endOfJsonString: just past the closing quote, escaped quotes and backslashes read past; an unclosed string runs to the end', () => {
    const text = `x${JSON.stringify('a"b\\')}:1`
    assertEqual(endOfJsonString(text, 1), text.indexOf(':'), 'escaped quote and backslash')
    assertEqual(endOfJsonString('""', 0), 2, 'empty string')
    assertEqual(endOfJsonString('"a\\\\"b', 0), 5, 'an escaped backslash does not escape the quote after it')
    assertEqual(endOfJsonString('"ab\\"c', 0), 6, 'unclosed (the quote escaped): the text ends first')
  })

  test('not JSON at any depth: undefined, never a throw; scalars and null are JSON', () => {
    for (const text of ['', '{', '[1,]', 'undefined', "{'a':1}", '{"a":1}x']) assertEqual(parseBoundedJson(text), undefined, JSON.stringify(text))
    assertEqual(parseBoundedJson('null'), { value: null })
    assertEqual(parseBoundedJson(' 12 '), { value: 12 })
    assertEqual(parseBoundedJson('"[[["'), { value: '[[[' })
  })
})
