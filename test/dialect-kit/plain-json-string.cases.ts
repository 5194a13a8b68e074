/**
 * plain-json-string.ts: `stringSpanAfter`, where a text a codec decoded sits
 * in its event: the span of the string after the one occurrence of a key,
 * when that string spells the text — however it is escaped (the simple
 * escapes, `\u` in either case, a backslash run before a quote) — and
 * nothing when it does not, or when the key is not there once. And
 * `stringBodyValue`, the value of a string body the fused shortcuts read
 * without parsing: `JSON.parse`'s, for any body.
 */
import fc from 'fast-check'
import { stringBodyValue, stringSpanAfter } from '../../src/dialect-kit/plain-json-string.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

/** `text` as a JSON string body, every character but plain ASCII letters and spaces written as `\uXXXX` (upper or lower hex). */
function escapedEverywhere(text: string, upper: boolean): string {
  let body = ''
  for (const character of text) {
    for (let index = 0; index < character.length; index++) {
      const code = character.charCodeAt(index)
      const hex = code.toString(16).padStart(4, '0')
      body += /[A-Za-z ]/.test(character) ? character : `\\u${upper ? hex.toUpperCase() : hex}`
    }
  }
  return body
}

/** What `JSON.parse` reads a body as, the body between quotes: its string, or undefined when it is no string body. */
function parsedAsJson(body: string): string | undefined {
  try {
    const value: unknown = JSON.parse(`"${body}"`)
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

export const suite = defineSuite('dialect-kit/plain-json-string', (test) => {
  test('stringSpanAfter: the span of a text written as JSON.stringify writes it, or escaped everywhere; nothing for another text (property)', () => {
    const texts = fc.string({ maxLength: 40, unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\t', '\u00e9', '\u2014', '\u0001', '/', '\ud83d', '\ude00') })
    fc.assert(
      fc.property(texts, texts, fc.boolean(), (text, other, upper) => {
        for (const body of [JSON.stringify(text).slice(1, -1), escapedEverywhere(text, upper)]) {
          const data = `{"type":"x","text":"${body}","after":1}`
          const start = data.indexOf('"text":"') + 8
          assertEqual(stringSpanAfter(data, '"text":"', text), [start, start + body.length], `${JSON.stringify(text)} as ${body}`)
          if (other !== text) assertEqual(stringSpanAfter(data, '"text":"', other), undefined, `${JSON.stringify(other)} is not ${body}`)
        }
      }),
      { numRuns: 500 },
    )
  })

  test('stringSpanAfter: a key that occurs twice, or not at all, or a string that never closes: nothing', () => {
    assertEqual(stringSpanAfter('{"text":"a","b":{"text":"a"}}', '"text":"', 'a'), undefined, 'twice')
    assertEqual(stringSpanAfter('{"delta":"a"}', '"text":"', 'a'), undefined, 'absent')
    assertEqual(stringSpanAfter('{"text":"a\\"', '"text":"', 'a"'), undefined, 'the only quote after it escaped')
    assertEqual(stringSpanAfter('{"text":"a\\\\"}', '"text":"', 'a\\'), [9, 12], 'an escaped backslash before the closing quote')
    assertEqual(stringSpanAfter('{"text":"a\\x"}', '"text":"', 'ax'), undefined, 'an escape JSON does not have')
    assertEqual(stringSpanAfter('{"text":"a\\u00g9"}', '"text":"', 'a\u00e9'), undefined, 'a \\u escape with a digit that is not hex')
  })

  test('stringBodyValue: what JSON.parse reads the body as, for any body, within any text (property)', () => {
    // Raw quotes and control characters, every escape letter JSON has and some it has not, `\u` with and without four hex digits, lone surrogates.
    const bodies = fc.string({ maxLength: 30, unit: fc.constantFrom('a', ' ', '"', '\\', '\n', '\\', '\\', 'n', 't', 'u', 'x', '0', '0', 'e', '9', '/', '\u0001', '\t', '\u00e9', '\ud83d', '\ufffd') })
    fc.assert(
      fc.property(bodies, fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), (body, before, after) => {
        const data = before + body + after
        assertEqual(stringBodyValue(data, before.length, before.length + body.length), parsedAsJson(body), JSON.stringify(body))
      }),
      { numRuns: 2000 },
    )
  })

  test('stringBodyValue: each kind of body', () => {
    assertEqual(stringBodyValue('xab y', 1, 4), 'ab ', 'no escape: the body itself')
    assertEqual(stringBodyValue('a\\nb\\tc\\"d\\\\e\\/f', 0, 16), 'a\nb\tc"d\\e/f', 'simple escapes, decoded in the same pass')
    assertEqual(stringBodyValue('\\n\\n', 0, 4), '\n\n', 'nothing but escapes')
    assertEqual(stringBodyValue('a\\u00e9\\n', 0, 9), 'a\u00e9\n', 'a \\u escape: read by JSON.parse')
    assertEqual(stringBodyValue('a\\', 0, 2), undefined, 'a backslash that ends the body takes its closing quote')
    assertEqual(stringBodyValue('a\\q', 0, 3), undefined, 'an escape JSON does not have')
    assertEqual(stringBodyValue('a\\nb"c', 0, 6), undefined, 'a raw quote after an escape')
    assertEqual(stringBodyValue('a\nb', 0, 3), undefined, 'a raw control character')
  })
})
