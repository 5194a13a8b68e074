/**
 * encodesBackAsRead and mayNotEncodeBack: a text read from UTF-8 bytes
 * encodes back to them; a text read from bytes that were not UTF-8 holds
 * U+FFFD and does not; a U+FFFD sent as its own bytes is refused all the
 * same (the rule is conservative). Checked against the decoder itself (its
 * text, encoded again, compared byte by byte). `bytesReadAs` gives bytes the
 * decoder reads as the text exactly, or none.
 */
import { createSseDecoderCore } from '../../src/sse/sse-decoder.ts'
import fc from 'fast-check'
import { bytesReadAs, encodesBackAsRead, mayNotEncodeBack } from '../../src/sse/utf8-round-trip.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

const utf8 = new TextEncoder()

/** Is `text` whole characters (no lone surrogate)? `encodeURIComponent` refuses a lone one. */
function wellFormed(text: string): boolean {
  try {
    encodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/** The decoder's text for `bytes`, and whether encoding it again gives `bytes`. */
function readBack(bytes: Uint8Array): { text: string; same: boolean } {
  const text = createSseDecoderCore().decode(bytes)
  const again = utf8.encode(text)
  return { text, same: again.length === bytes.length && again.every((byte, at) => byte === bytes[at]) }
}

export const suite = defineSuite('sse/utf8-round-trip', (test) => {
  test('UTF-8 bytes (ASCII, accents, CJK, an emoji) read back to themselves, and the rule says so', () => {
    for (const text of ['data: plain\n\n', 'data: caf\u00e9\n\n', 'data: \u4f60\u597d\n\n', 'data: \u{1F600}\n\n']) {
      const read = readBack(utf8.encode(text))
      assertEqual(read.same, true, `${JSON.stringify(text)} encodes back`)
      assertEqual(encodesBackAsRead(read.text), true, `the rule agrees for ${JSON.stringify(text)}`)
    }
  })

  test('bytes that were not UTF-8 are read as U+FFFD, do not encode back, and the rule says so', () => {
    for (const bad of [[0xff], [0xc3], [0xe4, 0xbd], [0x80]]) {
      const bytes = new Uint8Array([...utf8.encode('data: a'), ...bad, ...utf8.encode('b\n\n')])
      const read = readBack(bytes)
      assertEqual(read.text.includes('\uFFFD'), true, `[${bad.join(',')}] is read as U+FFFD`)
      assertEqual(read.same, false, `[${bad.join(',')}] does not encode back`)
      assertEqual(encodesBackAsRead(read.text), false, `the rule agrees for [${bad.join(',')}]`)
      assertEqual([...read.text].some((character) => mayNotEncodeBack(character.charCodeAt(0))), true, `a character of it is refused for [${bad.join(',')}]`)
    }
  })

  test('a U+FFFD sent as its own three bytes encodes back, but the rule cannot tell it from a replaced one and refuses it: such a read takes the slower path', () => {
    const read = readBack(utf8.encode('data: a\uFFFDb\n\n'))
    assertEqual(read.same, true, 'EF BF BD comes back as EF BF BD')
    assertEqual(encodesBackAsRead(read.text), false, 'refused all the same')
    assertEqual(mayNotEncodeBack(0xfffd), true, 'the character is refused')
    assertEqual(mayNotEncodeBack('a'.charCodeAt(0)) || mayNotEncodeBack(0xe9) || mayNotEncodeBack(0x4f60), false, 'other characters are not')
  })

  test('bytesReadAs: bytes the decoder reads as exactly the text, for any text of whole characters; none for a text with a lone surrogate or a U+FFFD (property)', () => {
    const decode = (bytes: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const bytes = bytesReadAs(text)
        if (text.includes('\uFFFD')) assertEqual(bytes, undefined, 'a U+FFFD')
        else assertEqual(bytes === undefined ? undefined : decode(bytes), text, 'read back as the text')
      }),
      { numRuns: 500 },
    )
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const bytes = bytesReadAs(text)
        // Any text: either no bytes, or bytes read back exactly (a lone surrogate would read back as U+FFFD).
        if (bytes !== undefined) assertEqual(decode(bytes), text, 'read back as the text')
        else assertEqual(text.includes('\uFFFD') || !wellFormed(text), true, 'refused only for a U+FFFD or a lone surrogate')
      }),
      { numRuns: 1000 },
    )
    for (const lone of ['a\uD800b', 'a\uDC00', '\uD83D', 'x'.repeat(5000) + '\uDBFF' + '\uFF5C'.repeat(3)]) assertEqual(bytesReadAs(lone), undefined, `lone surrogate in ${JSON.stringify(lone.slice(-8))}`)
    for (const whole of ['\u{1F600}', '\uFF5C\uFF5C', '\uEFBF', '\uFFFE']) assertEqual(decode(bytesReadAs(whole)!), whole, `${JSON.stringify(whole)} read back`)
  })
})
