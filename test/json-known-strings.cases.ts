/**
 * `parseBoundedJsonKnowing` (src/json-known-strings.ts): a JSON text read
 * with the long strings it repeats known gives exactly what
 * `parseBoundedJson` gives — wherever the known strings fall (values, keys,
 * inside longer strings, across the structure), however they are spelled,
 * and when the text already holds the stand-ins' escapes or is not JSON;
 * and `parseBoundedJsonAround`, the text given as the stretches around known
 * strings, gives what `parseBoundedJson` gives for the text joined; and
 * `stringifyKnowing` writes what `JSON.stringify` writes, each known string
 * spliced in as it is written.
 */
import fc from 'fast-check'
import { joinedJson, type KnownJsonString, knownJsonString, parseBoundedJsonAround, parseBoundedJsonKnowing, stringifyKnowing } from '../src/json-known-strings.ts'
import { parseBoundedJson } from '../src/json-text.ts'
import { assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

/** Both readers' answers, compared whole (a `__proto__` key shows up as an own key in the JSON written back). */
function same(text: string, known: readonly string[], label: string): void {
  const expected = parseBoundedJson(text)
  const actual = parseBoundedJsonKnowing(text, known.map(knownJsonString))
  assertEqual(actual === undefined ? 'not JSON' : JSON.stringify(actual.value), expected === undefined ? 'not JSON' : JSON.stringify(expected.value), label)
  if (actual !== undefined && expected !== undefined) assertEqual(Object.keys(actual.value ?? {}).join(), Object.keys(expected.value ?? {}).join(), `${label}: the same own keys`)
}

/** What `run` gives, and the length of every text it gave `JSON.parse`. */
function parsedLengths<T>(run: () => T): { value: T; read: number[] } {
  const parse = JSON.parse
  const read: number[] = []
  JSON.parse = ((source: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    read.push(source.length)
    return parse(source, reviver)
  }) as typeof JSON.parse
  try {
    return { value: run(), read }
  } finally {
    JSON.parse = parse
  }
}

const LONG = `line one\n"quoted" \\ back\\slash \u00e9\u2014 \u{1F600} <tag>${'x'.repeat(50)}`
const OTHER = 'another text, repeated'

export const suite = defineSuite('json-known-strings', (test) => {
  test('known strings as values, nested and repeated: the same value, each put back', () => {
    const text = JSON.stringify({ type: 'response.completed', text: LONG, response: { output: [{ content: [{ text: LONG }, { text: OTHER }] }] } })
    same(text, [LONG, OTHER], 'values')
    // The parser is given the text without the known strings: the longest text it reads is the rest.
    const { read } = parsedLengths(() => parseBoundedJsonKnowing(text, [knownJsonString(LONG), knownJsonString(OTHER)]))
    assertEqual(read.length, 1, 'one parse')
    // Each of the three known strings in the text is a stand-in of 15 characters (`"\u0000\u0001N"`) there.
    const removed = 2 * (JSON.stringify(LONG).length - 15) + (JSON.stringify(OTHER).length - 15)
    assertEqual(read[0], text.length - removed, `the parser read ${read[0]} of ${text.length} characters`)
  })

  test('a known string out of place is read as the parser reads it: a key, inside a longer string, across tokens, escaped otherwise', () => {
    same(JSON.stringify({ [LONG]: 1, a: LONG }), [LONG], 'a key')
    same(JSON.stringify({ a: `before ${LONG} after`, b: `"${LONG}"` }), [LONG], 'inside longer strings')
    same('["a",1,"b"]', [',1,'], 'its written form across a string end and the next string start')
    same('{"a":"x","b":"y"}', ['x","b":"y'], 'across a key')
    same(JSON.stringify({ a: LONG }).replace('\\n', '\\u000a'), [LONG], 'spelled with another escape: not found, parsed as it is')
    same(JSON.stringify({ a: LONG, b: '\u0000\u00010' }), [LONG], 'the text holds a string a stand-in would be')
    same(JSON.stringify({ a: LONG, ['\u0000\u00010']: 2 }), [LONG], 'the text holds a key a stand-in would be')
    same(`{"__proto__":${JSON.stringify(LONG)},"b":1}`, [LONG], 'a known value under __proto__')
    same(`{"a":${JSON.stringify(LONG)}`, [LONG], 'not JSON (unclosed)')
    same(`${'['.repeat(600)}${JSON.stringify(LONG)}${']'.repeat(600)}`, [LONG], 'nested too deep')
    same(JSON.stringify([LONG, LONG.slice(0, 20), LONG + LONG]), [LONG, LONG.slice(0, 20)], 'known strings that overlap one another')
  })

  test('any JSON value with any known strings from it or around it: the same as parseBoundedJson (property)', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"', '\\', '\u0000', '\u0001', ',"a":', '\n', LONG))
    const texts = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''))
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(texts, { maxLength: 3 }), fc.nat(), (value, strings, cut) => {
        // The known strings as values in the JSON, and the JSON cut or not (text that is not JSON must stay not JSON).
        const whole = JSON.stringify({ value, strings, again: strings })
        const text = cut % 3 === 0 ? whole.slice(0, cut % (whole.length + 1)) : whole
        const known = [...strings, ...(typeof value === 'string' ? [value] : [])]
        same(text, known, text.slice(0, 80))
      }),
      { numRuns: 1000 },
    )
  })

  test('parseBoundedJsonAround: any text cut around known strings at any places (values, keys, inside strings, across tokens, one twice) reads as parseBoundedJson of the joined text, parsing only the stretches', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"', '\\', '\\u0000\\u0001', ',"a":', '{', '}', '[', ']', LONG))
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.array(piece, { maxLength: 3 }).map((pieces) => pieces.join('')), { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 4 }), fc.nat(), (value, strings, places, cut) => {
        const known = strings.map(knownJsonString)
        const whole = JSON.stringify({ value, strings, again: [strings[0]] })
        const text = cut % 4 === 0 ? whole.slice(0, cut % (whole.length + 1)) : whole
        // Each known string's written form where the text has it (its first occurrences from a place), or cut in at a place.
        const around: string[] = []
        const inOrder: KnownJsonString[] = []
        let from = 0
        for (const [index, place] of places.entries()) {
          const string = known[index % known.length]!
          const found = text.indexOf(string.written, from)
          const at = found !== -1 && place % 2 === 0 ? found : from + (place % (text.length - from + 1))
          around.push(text.slice(from, at))
          inOrder.push(string)
          from = found === at ? at + string.written.length : at
        }
        around.push(text.slice(from))
        const given = { around, known: inOrder }
        const expected = parseBoundedJson(joinedJson(given))
        const actual = parseBoundedJsonAround(given)
        assertEqual(actual === undefined ? 'not JSON' : JSON.stringify(actual.value), expected === undefined ? 'not JSON' : JSON.stringify(expected.value), joinedJson(given).slice(0, 80))
      }),
      { numRuns: 1000 },
    )
    // Found where the text has them, the parser reads only the stretches.
    const text = JSON.stringify({ type: 'response.completed', response: { output: [{ content: [{ text: LONG }] }] }, again: LONG })
    const [before, middle, after] = text.split(JSON.stringify(LONG))
    const { value, read } = parsedLengths(() => parseBoundedJsonAround({ around: [before!, middle!, after!], known: [knownJsonString(LONG), knownJsonString(LONG)] })?.value)
    assertEqual(value, JSON.parse(text), 'the value')
    assertEqual(read, [before!.length + middle!.length + after!.length + 2 * 15], 'one parse, of the stretches and two stand-ins')
  })

  test('stringifyKnowing: the text JSON.stringify writes, with each known string (values only, nested, repeated) spliced in as written', () => {
    const value = { type: 'response.completed', text: LONG, [LONG]: 'a key is written as it is', response: { output: [{ content: [{ text: LONG }, { text: OTHER }] }] }, list: [OTHER, 1, null] }
    assertEqual(stringifyKnowing(value, [knownJsonString(LONG), knownJsonString(OTHER)]), JSON.stringify(value))
    assertEqual(stringifyKnowing(value, []), JSON.stringify(value), 'nothing known')
    assertEqual(stringifyKnowing({ a: 'none of them' }, [knownJsonString(LONG)]), JSON.stringify({ a: 'none of them' }), 'none in the value')
    // Spliced, not escaped: a known string given another spelling is written so.
    assertEqual(stringifyKnowing({ a: 'A', b: ['A'] }, [{ value: 'A', written: '"\\u0041"' }]), '{"a":"\\u0041","b":["\\u0041"]}')
    // A string of the value holding the stand-ins' characters: written as JSON.stringify writes it, whatever else is known.
    for (const own of ['\u0000\u00010', '\u0000\u0001', 'x\u0000\u00011y', '\\u0000\u0001']) {
      for (const holding of [{ a: LONG, b: own, c: [LONG] }, { b: own, a: LONG }]) {
        assertEqual(stringifyKnowing(holding, [knownJsonString(LONG)]), JSON.stringify(holding), JSON.stringify(holding).slice(0, 40))
      }
    }
  })

  test('stringifyKnowing: any JSON value with any known strings in it, as JSON.stringify writes it (property)', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"', '\\', '\u0000', '\u0001', '\u0000\u00010', ',"a":', '\n', '\u2028', LONG))
    const texts = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''))
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(texts, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 6 }), (value, strings, places) => {
        // The strings as values, keys and array entries around the value, some twice; some known, some not.
        const object = { value, strings, [strings[0]!]: strings[places.length % strings.length], again: places.map((place) => strings[place % strings.length]) }
        const known = strings.filter((_string, index) => index % 2 === 0 || places.includes(index)).map(knownJsonString)
        assertEqual(stringifyKnowing(object, known), JSON.stringify(object), JSON.stringify(object).slice(0, 80))
      }),
      { numRuns: 1000 },
    )
  })
})
