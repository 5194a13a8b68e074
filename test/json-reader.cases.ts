/**
 * `createJsonReader` (src/json-reader.ts), JSON read in pieces: whatever the
 * cuts (whole, at random points, at every offset, one character at a time),
 * its answer is JSON.parse's for the joined text — the same value (-0, key
 * order, duplicate keys and an own `__proto__` included), or undefined exactly
 * when JSON.parse throws; deeper than MAX_JSON_DEPTH is not JSON, as for
 * `parseBoundedJson`; a long string read with `LongTexts` is kept as its
 * pieces; once the text is not JSON, later pieces are not read.
 */
import fc from 'fast-check'
import { createJsonReader, type JsonReaderOptions } from '../src/json-reader.ts'
import { MAX_JSON_DEPTH, parseBoundedJson } from '../src/json-text.ts'
import { LONG_TEXT_CHARS, LongTexts } from '../src/long-texts.ts'
import { assert, assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

type Read = { value: unknown } | undefined

/** `text` fed in the pieces that `cuts` (offsets, any order, repeats allowed) make. */
function readCut(text: string, cuts: readonly number[], options?: JsonReaderOptions): Read {
  const reader = createJsonReader(options)
  let from = 0
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.feed(text.slice(from, cut))
    from = cut
  }
  reader.feed(text.slice(from))
  return reader.end()
}

function readByCharacter(text: string): Read {
  const reader = createJsonReader()
  for (const character of text.split('')) reader.feed(character)
  return reader.end()
}

/** `text` fed in pieces of `size` characters. */
function readInPiecesOf(text: string, size: number, options?: JsonReaderOptions): Read {
  const reader = createJsonReader(options)
  for (let start = 0; start < text.length; start += size) reader.feed(text.slice(start, start + size))
  return reader.end()
}

/** What JSON.parse answers for `text`: `{ value }`, or undefined when it throws. */
function jsonParseOf(text: string): Read {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

/** `read` is JSON.parse's answer for `text`: deep-equal (leaves by `Object.is`, so -0 counts) and keys in the same order. */
function assertAsJsonParse(read: Read, text: string, message: string): void {
  const expected = jsonParseOf(text)
  assertEqual(read, expected, message)
  if (expected !== undefined) assertEqual(JSON.stringify(read?.value), JSON.stringify(expected.value), `${message}: key order`)
}

/** Fed at every single cut (and one character at a time): JSON.parse's answer each time. */
function assertAtEveryCut(text: string): void {
  for (let cut = 0; cut <= text.length; cut++) assertAsJsonParse(readCut(text, [cut]), text, `${JSON.stringify(text)} cut at ${cut}`)
  assertAsJsonParse(readByCharacter(text), text, `${JSON.stringify(text)} one character at a time`)
}

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
const objects = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1)

/** Texts of valid JSON: any value, written with each kind of indent. */
const jsonTexts = fc
  .tuple(fc.oneof(fc.jsonValue(), fc.jsonValue({ stringUnit: 'binary' }), fc.jsonValue({ stringUnit: 'grapheme' })), fc.constantFrom(0, 1, 2, 4, '\t', ' \r\n'))
  .map(([value, space]) => JSON.stringify(value, null, space as string | number))
const anyJsonText = fc.oneof(jsonTexts, fc.json(), fc.json({ stringUnit: 'binary' }))

/** Cut points for a text: offsets anywhere in it (as fractions, so any length fits). */
const cutFractions = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 })
const cutsOf = (text: string, fractions: readonly number[]): number[] => fractions.map((fraction) => Math.floor(fraction * text.length))

/** Characters JSON is made of, and a few it is not. */
const jsonish = fc.constantFrom(...'{}[]":,0123456789-+.eEtruefalsn \t\n\\u/bx'.split(''), '\u0000', '\u00e9', '\ud83d', '\ufeff')

export const suite = defineSuite('json-reader', (test) => {
  test('property: any JSON text (any indent, unicode and lone surrogates in strings) reads as JSON.parse reads it: whole, cut at random points, one character at a time', () => {
    fc.assert(
      fc.property(anyJsonText, cutFractions, (text, fractions) => {
        assertAsJsonParse(readCut(text, []), text, 'whole')
        assertAsJsonParse(readCut(text, cutsOf(text, fractions)), text, `cut at ${cutsOf(text, fractions).join(',')}`)
        assertAsJsonParse(readByCharacter(text), text, 'one character at a time')
      }),
      { numRuns: 300 },
    )
  })

  test('every cut: each escape (either hex case), surrogate pairs raw and escaped, lone surrogates, numbers, nesting, literals cut in the middle', () => {
    const texts = [
      String.raw`{"escapes":"\" \\ \/ \b \f \n \r \t \u00e9 \u00E9 \uABCD \uabcd \u0000 end"}`,
      '["😀", "\\ud83d\\ude00", "\\uD83D\\uDE00", "a😀b"]',
      '["\\ud800", "\\udfff x", "\ud800 raw", "raw \udc00"]',
      '[0, -0, 1.5, -1.5e10, 2E-3, 1e+2, 1E-2, 123456789012345678901234567890, 0.1e1, -0.0, 1e400, 5e-324]',
      ' {"a" : [1, {"b": [[], {}, [[]]]}, "c"], "d": {"e": null}, "": ""}\r\n',
      '[true,false,null,{"t":true,"f":false,"n":null}]',
      'true',
      'false',
      'null',
      '  -0  ',
      '"top string"',
      '\t42\n',
      String.raw`{"k\u0065y":1,"\"":2,"a\nb":3}`,
    ]
    for (const text of texts) {
      assert(jsonParseOf(text) !== undefined, `${JSON.stringify(text)} is JSON`)
      assertAtEveryCut(text)
    }
    assert(Object.is((readCut('-0', [1])?.value as number), -0), '-0 cut after the sign is -0')
    assertEqual(readCut('"\\ud83d\\ude00"', [8])?.value, '\u{1F600}', 'two escapes make one pair')
  })

  test('property: any text, and JSON with one character changed, removed or inserted: undefined exactly when JSON.parse throws, its value otherwise', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: jsonish, maxLength: 30 })), cutFractions, (text, fractions) => {
        assertAsJsonParse(readCut(text, []), text, 'whole')
        assertAsJsonParse(readCut(text, cutsOf(text, fractions)), text, 'cut')
      }),
      { numRuns: 1000 },
    )
    const mutated = fc.tuple(anyJsonText, fc.nat(), fc.constantFrom('change', 'remove', 'insert'), jsonish).map(([text, at, edit, character]) => {
      const index = text.length === 0 ? 0 : at % text.length
      if (edit === 'remove') return text.slice(0, index) + text.slice(index + 1)
      return text.slice(0, index) + character + text.slice(edit === 'change' ? index + 1 : index)
    })
    fc.assert(
      fc.property(mutated, cutFractions, (text, fractions) => {
        assertAsJsonParse(readCut(text, []), text, 'whole')
        assertAsJsonParse(readCut(text, cutsOf(text, fractions)), text, 'cut')
      }),
      { numRuns: 1000 },
    )
  })

  test('not JSON, at every cut: trailing commas, bad numbers, cut literals, open strings, raw control characters, bad escapes, two values, nothing', () => {
    const texts = [
      '[1,]', '{"a":1,}', '01', '-01', '1.', '.5', '+1', '-', '1e', '1e+', '1.e5', '--1', '1-2', 'tru', 'nul', 'truex', 'True', 'NaN', 'Infinity',
      '"abc', '"a\nb"', '"tab\there"', '"\u001f"', '"\\x"', '"\\u12G4"', '"\\u12"', '"\\', '"\\U0041"', "'a'",
      '1 2', '{} {}', '[1 2]', '{"a" 1}', '{a:1}', '{"a":1]', '[1}', '{"a"}', '{,}', '[,1]', '}', ']', ':',
      '', ' ', ' \t\r\n ', '\ufeff1', '\u00a01', '[', '{"a":', '{"a":1',
    ]
    for (const text of texts) {
      assertEqual(jsonParseOf(text), undefined, `JSON.parse throws for ${JSON.stringify(text)}`)
      assertAtEveryCut(text)
    }
  })

  test('depth: MAX_JSON_DEPTH arrays, objects, or the two mixed parse; one deeper is not JSON (as parseBoundedJson); brackets inside strings do not count', () => {
    assertEqual(MAX_JSON_DEPTH, 512)
    const mixed = `[${objects(MAX_JSON_DEPTH - 1)}]`
    for (const [text, name] of [[arrays(MAX_JSON_DEPTH), 'arrays'], [objects(MAX_JSON_DEPTH), 'objects'], [mixed, 'mixed']] as const) {
      assertEqual(JSON.stringify(readCut(text, [])?.value), text, `${name} at the limit`)
      assertEqual(JSON.stringify(readByCharacter(text)?.value), text, `${name} at the limit, one character at a time`)
      assert(parseBoundedJson(text) !== undefined, `${name} at the limit: parseBoundedJson agrees`)
    }
    for (const [text, name] of [[arrays(MAX_JSON_DEPTH + 1), 'arrays'], [objects(MAX_JSON_DEPTH + 1), 'objects'], [`[${mixed}]`, 'mixed']] as const) {
      assertEqual(readCut(text, []), undefined, `${name} one deeper`)
      assertEqual(readInPiecesOf(text, 7), undefined, `${name} one deeper, in pieces`)
      assertEqual(parseBoundedJson(text), undefined, `${name} one deeper: parseBoundedJson agrees`)
    }
    const inStrings = JSON.stringify({ text: '['.repeat(5000), quoted: `\\"${'{'.repeat(5000)}`, slash: `\\\\${'['.repeat(5000)}` })
    assertAsJsonParse(readInPiecesOf(inStrings, 97), inStrings, 'brackets in strings')
    const siblings = `[${Array.from({ length: 5000 }, () => '[]').join(',')}]`
    assertEqual((readInPiecesOf(siblings, 13)?.value as unknown[]).length, 5000, '5,000 siblings, depth 2')
  })

  test('__proto__ is an own data property, as JSON.parse makes it, never the prototype; a duplicate key keeps its first place and takes its last value', () => {
    for (const text of ['{"__proto__":{"a":1},"b":2}', '[{"__proto__":[]}]', '{"__proto__":1,"a":2,"__proto__":3}', '{"\\u005f_proto__":null}']) {
      const read = readByCharacter(text)
      assertAsJsonParse(read, text, text)
      const outer = read!.value as object
      const object = (Array.isArray(outer) ? outer[0] : outer) as Record<string, unknown>
      const parsed = JSON.parse(text) as object
      const expected = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>
      assertEqual(Object.getPrototypeOf(object), Object.prototype, `${text}: the prototype`)
      assertEqual(Object.getOwnPropertyNames(object), Object.getOwnPropertyNames(expected), `${text}: own keys`)
      assertEqual(Object.getOwnPropertyDescriptor(object, '__proto__'), Object.getOwnPropertyDescriptor(expected, '__proto__'), `${text}: the descriptor`)
    }
    const proto = readCut('{"__proto__":{"a":1},"b":2}', [])!.value as Record<string, unknown>
    assertEqual(Object.keys(proto), ['__proto__', 'b'])
    assertEqual(proto['a'], undefined, 'nothing inherited from the value under __proto__')
    const duplicate = readCut('{"a":1,"b":2,"a":3}', [9])!.value as Record<string, unknown>
    assertEqual([Object.keys(duplicate), duplicate['a'], duplicate['b']], [['a', 'b'], 3, 2])
  })

  test('long strings with LongTexts: a 300 KiB value (raw runs and escapes) in 10 KiB pieces is kept as its pieces, which join to it; without LongTexts the same value; a short one is one piece', () => {
    const unit = `plain text with "quotes", a \\ backslash,\nlines,\ttabs, é, \u2028, 😀 and \u0001; `
    const long = unit.repeat(Math.ceil((300 * 1024) / unit.length))
    const short = 'short "one"\n'
    const text = JSON.stringify({ messages: [{ role: 'user', content: long }, { role: 'assistant', content: short }] })
    const longTexts = new LongTexts()
    const read = readInPiecesOf(text, 10 * 1024, { longTexts })
    assertAsJsonParse(read, text, 'with LongTexts')
    const [first, second] = (read!.value as { messages: { content: string }[] }).messages
    assertEqual(first!.content === long, true, 'the long value')
    const pieces = longTexts.piecesOf(first!.content)
    assert(pieces.length > 1, `the long value is kept as its pieces (${pieces.length})`)
    assertEqual(pieces.join('') === long, true, 'its pieces join to it')
    assert(short.length < LONG_TEXT_CHARS, 'the short value is short')
    assertEqual(longTexts.piecesOf(second!.content), [short], 'a short value is one piece')
    assertAsJsonParse(readInPiecesOf(text, 10 * 1024), text, 'without LongTexts')
    const topLevel = JSON.stringify(long)
    assertEqual(readInPiecesOf(topLevel, 4096, { longTexts: new LongTexts() })?.value === long, true, 'a long top-level string')
  })

  test('once not JSON, later pieces are not read and end() is undefined', () => {
    const reader = createJsonReader()
    reader.feed('[1,]')
    const untouchable = {
      length: 1_000_000,
      charCodeAt: () => {
        throw new Error('a piece fed after the failure was read')
      },
      slice: () => {
        throw new Error('a piece fed after the failure was read')
      },
    } as unknown as string
    reader.feed(untouchable)
    reader.feed('')
    assertEqual(reader.end(), undefined)
    const later = createJsonReader()
    later.feed('{"a":"b\\x')
    later.feed('"}')
    assertEqual(later.end(), undefined, 'a valid ending fed after a bad escape')
    const twoValues = createJsonReader()
    twoValues.feed('1 ')
    twoValues.feed('2')
    twoValues.feed(untouchable)
    assertEqual(twoValues.end(), undefined, 'a second value')
  })
})
