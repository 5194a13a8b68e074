/**
 * `findRepeated` (src/dialect-kit/repeated-bytes.ts): where known texts'
 * bytes occur in a read. Every span found is an occurrence (in order, none
 * overlapping an earlier one); with distinct bytes every occurrence is found,
 * at any offset, up to the read's ends; a text that differs from the read in
 * one byte anywhere is not found; and the whole compares per text and read
 * are capped, so a read made to look like a text many times costs a bounded
 * number of them.
 */
import fc from 'fast-check'
import { knownJsonString } from '../../src/json-known-strings.ts'
import { findRepeated, type RepeatedText } from '../../src/dialect-kit/repeated-bytes.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

/** A text of these bytes (its JSON string stands for it: only the bytes are searched). */
function textOf(bytes: Uint8Array): RepeatedText {
  return { known: knownJsonString(String(bytes.length)), bytes }
}

/** Do `bytes` occur in `read` at `start`? */
function occursAt(read: Uint8Array, start: number, bytes: Uint8Array): boolean {
  return start + bytes.length <= read.length && bytes.every((byte, index) => read[start + index] === byte)
}

const bytesOf = (values: readonly number[]): Uint8Array => Uint8Array.from(values)

export const suite = defineSuite('dialect-kit/repeated-bytes', (test) => {
  test('property: every span found is an occurrence of its text, in order, none overlapping (reads and texts of two byte values, where false candidates abound)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 200 }), fc.array(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 2, maxLength: 12 }), { minLength: 1, maxLength: 3 }), (read, texts) => {
        const given = texts.map((values) => textOf(bytesOf(values)))
        const found = findRepeated(bytesOf(read), given)
        let last = 0
        for (const at of found) {
          assert(at.start >= last, `in order, not overlapping (${at.start} after ${last})`)
          const text = given.find((candidate) => candidate.known === at.known)!
          assertEqual([at.end - at.start, at.text], [text.bytes.length, text.known.written], 'the span and the text it is read as')
          assert(occursAt(bytesOf(read), at.start, text.bytes), `an occurrence at ${at.start}`)
          last = at.end
        }
      }),
      { numRuns: 1000 },
    )
  })

  test('property: texts put in a read of other bytes are each found where they were put, at any offset, the read\'s start and end included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0x20, max: 0x7e }), { minLength: 2, maxLength: 60 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 5, maxLength: 5 }),
        (texts, gaps) => {
          // The texts in order, each between gaps of bytes (0x80 and up) no text holds.
          const read: number[] = []
          const where: number[] = []
          texts.forEach((values, index) => {
            for (let count = 0; count < gaps[index]!; count++) read.push(0x80 + count)
            where.push(read.length)
            read.push(...values)
          })
          for (let count = 0; count < gaps[4]!; count++) read.push(0xc0 + count)
          const given = texts.map((values) => textOf(bytesOf(values)))
          const found = findRepeated(bytesOf(read), given)
          // A text may also occur inside another one put there (the same bytes): each put one is found, or lies inside one found.
          for (const [index, start] of where.entries()) {
            const end = start + texts[index]!.length
            assert(found.some((at) => at.start <= start && end <= at.end), `text ${index} at ${start} is found`)
          }
        },
      ),
      { numRuns: 1000 },
    )
  })

  test('one byte off anywhere (the first, the middle, the last, any other): not found; the same bytes again: found', () => {
    const text = new TextEncoder().encode(`"${'a long answer, \u00e9\u2014\u{1F600} '.repeat(300)}"`)
    for (const at of [0, 1, 2, text.length >> 1, text.length - 2, text.length - 1, 777, 4000]) {
      const read = new Uint8Array(text.length + 20)
      read.set(text, 10)
      read[10 + at] = read[10 + at]! ^ 0x01
      assertEqual(findRepeated(read, [textOf(text)]), [], `byte ${at} off`)
      read[10 + at] = read[10 + at]! ^ 0x01
      assertEqual(findRepeated(read, [textOf(text)]).map((found) => found.start), [10], `byte ${at} as it is`)
    }
  })

  test('the whole compares are capped at four per text and read: a read that looks like the text at the bytes checked first four times before the text itself gives it up (with three such places, it is found)', () => {
    // The text: a 1, zeros, a 2 in the middle, zeros, a 3 (an odd length, so the middle is one byte).
    const text = new Uint8Array(101)
    text[0] = 1
    text[1] = 0
    text[50] = 2
    text[99] = 0
    text[100] = 3
    const lookalike = text.slice()
    lookalike[25] = 9
    const readOf = (lookalikes: number): Uint8Array => {
      const read = new Uint8Array((lookalikes + 1) * 101)
      for (let index = 0; index < lookalikes; index++) read.set(lookalike, index * 101)
      read.set(text, lookalikes * 101)
      return read
    }
    assertEqual(findRepeated(readOf(3), [textOf(text)]).map((found) => found.start), [303], 'found at the fourth whole compare, after three lookalikes')
    assertEqual(findRepeated(readOf(4), [textOf(text)]), [], 'given up after four whole compares')
  })

  test('overlapping occurrences of two texts: the earlier kept; a read shorter than a text, or an empty text list: nothing', () => {
    const read = new TextEncoder().encode('xxABCDEFyy')
    const first = textOf(new TextEncoder().encode('ABCD'))
    const second = textOf(new TextEncoder().encode('CDEF'))
    assertEqual(findRepeated(read, [second, first]).map((found) => [found.start, found.end]), [[2, 6]])
    assertEqual(findRepeated(read.subarray(0, 3), [first]), [])
    assertEqual(findRepeated(read, []), [])
  })
})
