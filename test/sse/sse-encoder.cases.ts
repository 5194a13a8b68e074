/**
 * encodeSseMessage: exact output for each field and line ending, the
 * TypeErrors for values that cannot be written, and (fast-check) encode →
 * decode round trips of arbitrary message sequences, whole and under random
 * splits, as strings and as UTF-8 bytes. Data line endings come back as LF
 * (the wire has no way to tell CR, LF and CRLF apart).
 */
import fc from 'fast-check'
import { createSseDecoder, encodeSseMessage } from '../../src/sse/index.ts'
import { jsonDataEvent, singleLineFrame } from '../../src/sse/sse-encoder.ts'
import { type SseComment, type SseEvent, sseEventWith, type SseMessage } from '../../src/sse/types.ts'
import { assertEqual, assertThrows } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import { chunksAt, decodeChunks, decodedForm, utf8 } from './support.ts'

const RUNS = Number(globalThis.process?.env?.SSE_PROPERTY_RUNS ?? 300)

/** Characters that matter to SSE framing, plus multi-unit and multi-byte ones. */
const TRICKY_UNITS = [
  '\n', '\r', '\r\n', '\n\r', '\r\r', '\n\n', ' ', '  ', '\t', ':', ': ', '\0', '\uFEFF',
  'data:', 'data: x', 'event: e', 'id: 1', 'retry: 5', 'x', 'A', '0',
  'é', '…', '你好', '絵', '🙂', '👍🏽', '\u{10FFFF}',
]

const unit = fc.oneof(
  { arbitrary: fc.constantFrom(...TRICKY_UNITS), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 },
)

/** Any text, line breaks included (no lone surrogates, so it survives UTF-8). */
const anyText = fc.array(unit, { maxLength: 20 }).map((units) => units.join(''))
/** One line: no CR, LF or NUL. */
const oneLine = anyText.map((text) => text.replace(/[\r\n\0]/g, ''))

const eventArbitrary: fc.Arbitrary<SseEvent> = fc.record(
  {
    data: anyText,
    event: oneLine.filter((text) => text.length > 0),
    id: oneLine,
    retry: fc.nat(),
  },
  { requiredKeys: ['data'] },
)

const commentArbitrary: fc.Arbitrary<SseComment> = oneLine.map((comment) => ({ comment }))

const messageArbitrary: fc.Arbitrary<SseMessage> = fc.oneof(
  { arbitrary: eventArbitrary, weight: 4 },
  { arbitrary: commentArbitrary, weight: 1 },
)

const messagesArbitrary = fc.array(messageArbitrary, { maxLength: 8 })
const cutsArbitrary = fc.array(fc.nat(), { maxLength: 12 })

function encodeAll(messages: readonly SseMessage[]): string {
  return messages.map(encodeSseMessage).join('')
}

export const suite = defineSuite('sse/encoder', (test) => {
  test('data: a single line is one data: line and a blank line', () => {
    assertEqual(encodeSseMessage({ data: 'hello' }), 'data: hello\n\n')
  })

  test('data: LF, CR and CRLF each start a new data: line', () => {
    assertEqual(encodeSseMessage({ data: 'a\nb' }), 'data: a\ndata: b\n\n')
    assertEqual(encodeSseMessage({ data: 'a\rb' }), 'data: a\ndata: b\n\n')
    assertEqual(encodeSseMessage({ data: 'a\r\nb' }), 'data: a\ndata: b\n\n')
  })

  test('data: mixed, doubled and trailing line breaks keep their empty lines', () => {
    assertEqual(encodeSseMessage({ data: 'a\r\n\r\nb\n' }), 'data: a\ndata: \ndata: b\ndata: \n\n')
    assertEqual(encodeSseMessage({ data: '\n\r' }), 'data: \ndata: \ndata: \n\n')
    assertEqual(encodeSseMessage({ data: '\r\r\n' }), 'data: \ndata: \ndata: \n\n')
  })

  test('data: empty data is one empty data: line (an event with data "")', () => {
    assertEqual(encodeSseMessage({ data: '' }), 'data: \n\n')
    assertEqual(decodeChunks([encodeSseMessage({ data: '' })]), [{ data: '' }])
  })

  test('data: a value that starts with a space keeps it (the single space after the colon is always written)', () => {
    assertEqual(encodeSseMessage({ data: ' x' }), 'data:  x\n\n')
    assertEqual(decodeChunks([encodeSseMessage({ data: ' x\n  y' })]), [{ data: ' x\n  y' }])
  })

  test('fields: event, id and retry come before the data, each on its own line', () => {
    assertEqual(
      encodeSseMessage({ data: 'x', event: 'delta', id: '42', retry: 3000 }),
      'event: delta\nid: 42\nretry: 3000\ndata: x\n\n',
    )
    assertEqual(encodeSseMessage({ data: 'x', id: '' }), 'id: \ndata: x\n\n')
    assertEqual(encodeSseMessage({ data: 'x', retry: 0 }), 'retry: 0\ndata: x\n\n')
  })

  test('fields: event + id + retry + multi-line data decode back to the same message', () => {
    const message = { data: 'line 1\nline 2', event: 'message_delta', id: 'evt-7', retry: 2500 }
    assertEqual(decodeChunks([encodeSseMessage(message)]), [message])
  })

  test('comments: one line is ": text" and a blank line', () => {
    assertEqual(encodeSseMessage({ comment: 'keep-alive' }), ': keep-alive\n\n')
    assertEqual(encodeSseMessage({ comment: '' }), ': \n\n')
    assertEqual(decodeChunks([encodeSseMessage({ comment: 'keep-alive' })]), [{ comment: 'keep-alive' }])
  })

  test('comments: a multi-line comment has every line prefixed (LF, CR and CRLF), and stays a comment', () => {
    const encoded = encodeSseMessage({ comment: 'a\nb\r\nc\rd' })
    assertEqual(encoded, ': a\n: b\n: c\n: d\n\n')
    assertEqual(decodeChunks([encoded]), [{ comment: 'a' }, { comment: 'b' }, { comment: 'c' }, { comment: 'd' }])
    assertEqual(decodeChunks([encodeSseMessage({ comment: 'data: injected\n\n' })]), [
      { comment: 'data: injected' },
      { comment: '' },
      { comment: '' },
    ])
  })

  test('errors: CR or LF in event is a TypeError', () => {
    for (const event of ['a\nb', 'a\rb', 'a\r\nb', '\n', 'x\r']) {
      assertThrows(() => encodeSseMessage({ data: 'x', event }), TypeError, /"event".*line break/)
    }
  })

  test('errors: CR, LF or NUL in id is a TypeError', () => {
    for (const id of ['1\n2', '1\r2', '1\r\n', '\n']) {
      assertThrows(() => encodeSseMessage({ data: 'x', id }), TypeError, /"id".*line break/)
    }
    for (const id of ['\0', '1\0', 'a\0b']) {
      assertThrows(() => encodeSseMessage({ data: 'x', id }), TypeError, /"id".*NUL/)
    }
  })

  test('errors: retry that is not a non-negative integer is a TypeError', () => {
    for (const retry of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assertThrows(() => encodeSseMessage({ data: 'x', retry }), TypeError, /"retry"/)
    }
  })

  test('errors: NUL in event, data and comments is allowed (the spec only refuses it in id)', () => {
    assertEqual(decodeChunks([encodeSseMessage({ data: 'a\0b', event: 'e\0' })]), [{ data: 'a\0b', event: 'e\0' }])
    assertEqual(decodeChunks([encodeSseMessage({ comment: '\0' })]), [{ comment: '\0' }])
  })

  test('property round trip: decode(encode(messages)) gives the messages back, data line endings as LF', () => {
    fc.assert(
      fc.property(messagesArbitrary, (messages) => {
        assertEqual(decodeChunks([encodeAll(messages)]), messages.map(decodedForm))
      }),
      { numRuns: RUNS },
    )
  })

  test('property round trip under random splits of the text', () => {
    fc.assert(
      fc.property(messagesArbitrary, cutsArbitrary, (messages, cuts) => {
        assertEqual(decodeChunks(chunksAt(encodeAll(messages), cuts)), messages.map(decodedForm))
      }),
      { numRuns: RUNS },
    )
  })

  test('property round trip as UTF-8 bytes under random splits (inside multi-byte characters too)', () => {
    fc.assert(
      fc.property(messagesArbitrary, cutsArbitrary, (messages, cuts) => {
        assertEqual(decodeChunks(chunksAt(utf8(encodeAll(messages)), cuts)), messages.map(decodedForm))
      }),
      { numRuns: RUNS },
    )
  })

  test('property round trip one message at a time: each feed returns exactly its own message', () => {
    fc.assert(
      fc.property(messagesArbitrary, (messages) => {
        const decoder = createSseDecoder()
        for (const message of messages) {
          const decoded = decoder.feed(encodeSseMessage(message))
          const expected = 'comment' in message ? [message] : [decodedForm(message)]
          assertEqual(decoded, expected)
        }
        assertEqual(decoder.end(), [])
      }),
      { numRuns: RUNS },
    )
  })

  test('sseEventWith: the data, and each of event, id and retry only when the fields have it', () => {
    assertEqual(sseEventWith('x', {}), { data: 'x' })
    assertEqual(sseEventWith('x', { event: 'e', id: undefined, retry: 3 }), { data: 'x', event: 'e', retry: 3 })
    assertEqual(Object.keys(sseEventWith('x', { event: undefined, id: '7' })), ['data', 'id'], 'no key for a field it does not have')
  })

  test('jsonDataEvent: the data is JSON.stringify of the value, with the fields, and is written as encodeSseMessage writes the same message', () => {
    // Long (past the length from which it is not searched) and short, with escaped line breaks, quotes and a U+2028 inside.
    for (const text of ['short\nline', `long ${'a\r\nb "q" \u2028 '.repeat(2000)}`]) {
      const value = { type: 'response.output_text.done', text, nested: { list: [1, 'two\n'] } }
      const message = jsonDataEvent(value, { event: 'response.output_text.done', id: 'i1' })
      assertEqual(message, { data: JSON.stringify(value), event: 'response.output_text.done', id: 'i1' })
      const written = encodeSseMessage(message)
      assertEqual(written, encodeSseMessage({ ...message }), 'the same text as a plain message with the same fields')
      assertEqual(written.split('\n').length, 5, 'event, id, one data line, a blank line')
      assertEqual(decodeChunks([written]), [message], 'decodes back to the message')
    }
  })

  test('jsonDataEvent: data set on its event afterwards is searched for line breaks as any other', () => {
    const message = jsonDataEvent({ text: 'x'.repeat(5000) }, { event: 'e' })
    message.data = `${'y'.repeat(5000)}\nsecond line`
    assertEqual(encodeSseMessage(message), `event: e\ndata: ${'y'.repeat(5000)}\ndata: second line\n\n`)
  })

  test('singleLineFrame: before + data + after is exactly what encodeSseMessage writes, and decodes to the message', () => {
    const lineFree = anyText.map((text) => text.replace(/[\r\n]/g, ''))
    fc.assert(
      fc.property(fc.option(lineFree.filter((name) => name.length > 0), { nil: undefined }), lineFree, (event, data) => {
        const frame = singleLineFrame(event)
        const message: SseEvent = event === undefined ? { data } : { event, data }
        const framed = frame.before + data + frame.after
        assertEqual(framed, encodeSseMessage(message))
        assertEqual(decodeChunks([framed]), [decodedForm(message)])
      }),
      { numRuns: RUNS },
    )
  })

  test('singleLineFrame: an event name with a line break is refused, as encodeSseMessage refuses it', () => {
    assertThrows(() => singleLineFrame('a\nb'), TypeError, /line break/)
  })
})
