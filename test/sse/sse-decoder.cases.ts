/**
 * createSseDecoder: WHATWG HTML §9.2.5–9.2.6 on eventsource-parser, plus what
 * this library adds (bytes decoded as UTF-8, comments kept, `retry` forwarded
 * on the next event, a typed error past `maxBufferSize`).
 *
 * The `wpt format-*` cases re-express web-platform-tests `eventsource/format-*`
 * (each test's input is the `message` it sends through resources/message.py,
 * which appends "\n\n\n", or "\n" with `newline=none`; the expected messages
 * are what its onmessage asserts). Every vector is fed whole, split at every
 * offset, one unit at a time, and as UTF-8 bytes split at every byte offset.
 * WPT's timing-based retry tests become "retry is forwarded on the event".
 */
import { createSseDecoder, DEFAULT_MAX_SSE_BUFFER, StreamLimitError } from '../../src/sse/index.ts'
import fc from 'fast-check'
import { type BytesReadAs, createSseDecoderCore, type SseDecoderCore, type SseDecoderOptions } from '../../src/sse/sse-decoder.ts'
import type { SseEvent, SseMessage } from '../../src/sse/types.ts'
import { assert, assertEqual, assertThrows, thrownBy } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import { assertDecodesAsBytes, assertDecodesAsText, decodeChunks, units, utf8 } from './support.ts'

interface Vector {
  /** `wpt <file>` or a plain name for this suite's own vectors. */
  name: string
  input: string
  expected: SseMessage[]
  options?: SseDecoderOptions
}

/** message.py's tail: "\n\n" unless newline=none, then "\n". */
const TAIL = '\n\n\n'
const TAIL_NONE = '\n'
const LONG = 'x'.repeat(2 * 1024)
/** EventSource ignores comments; the WPT vectors are compared with comments dropped. */
const NO_COMMENTS: SseDecoderOptions = { comments: false }

const WPT_VECTORS: Vector[] = [
  {
    name: 'wpt format-bom: one leading BOM is skipped, a BOM later on is part of the field name',
    input: `\uFEFFdata:1\n\n\uFEFFdata:2\n\ndata:3${TAIL}`,
    expected: [{ data: '1' }, { data: '3' }],
  },
  {
    name: 'wpt format-bom-2: of two leading BOMs only the first is skipped',
    input: `\uFEFF\uFEFFdata:1\n\ndata:2\n\ndata:3${TAIL}`,
    expected: [{ data: '2' }, { data: '3' }],
  },
  {
    name: 'BOM as the three bytes read as characters (a caller that decoded Latin-1): one leading one is skipped, split anywhere; a later one is part of the field name',
    input: `\xEF\xBB\xBFdata:1\n\n\xEF\xBB\xBFdata:2\n\ndata:3${TAIL}`,
    expected: [{ data: '1' }, { data: '3' }],
  },
  {
    name: 'BOM: the start of one that does not complete is ordinary text (here, part of a field name)',
    input: `\xEF\xBBdata:1\n\ndata:2${TAIL}`,
    expected: [{ data: '2' }],
  },
  {
    name: 'wpt format-comments: comments on every line ending, long comments, a commented-out field',
    input: `data:1\r:\0\n:\r\ndata:2\n:${LONG}\rdata:3\n:data:fail\r:${LONG}\ndata:4\n${TAIL_NONE}`,
    expected: [{ data: '1\n2\n3\n4' }],
    options: NO_COMMENTS,
  },
  {
    name: 'wpt format-data-before-final-empty-line: an event without its blank line is not dispatched',
    input: `retry:1000\ndata:test1\n\nid:test\ndata:test2${TAIL_NONE}`,
    expected: [{ data: 'test1', retry: 1000 }],
  },
  {
    name: 'wpt format-field-data: empty data, data without a colon, data:test',
    input: `data:\n\ndata\ndata\n\ndata:test${TAIL}`,
    expected: [{ data: '' }, { data: '\n' }, { data: 'test' }],
  },
  {
    name: 'wpt format-field-event: a custom event name, then a plain message',
    input: `event:test\ndata:x\n\ndata:x${TAIL}`,
    expected: [{ event: 'test', data: 'x' }, { data: 'x' }],
  },
  {
    name: 'wpt format-field-event-empty: "event: " leaves the default type',
    input: `event: \ndata:data${TAIL}`,
    expected: [{ data: 'data' }],
  },
  {
    name: 'wpt format-field-id-null (adapted): an id containing NUL is ignored',
    input: ['\0\0', 'x\0', '\0x', 'x\0x', ' \0'].map((id) => `id:${id}\ndata:hello\n\n`).join(''),
    expected: Array.from({ length: 5 }, () => ({ data: 'hello' })),
  },
  {
    name: 'wpt format-field-parsing: NUL, two spaces, case, bad names, CR and CRLF',
    input: `data:\0\ndata:  2\rData:1\ndata\0:2\ndata:1\r\0data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n${TAIL_NONE}`,
    expected: [{ data: '\0\n 2\n1\n3\n\n4' }],
  },
  {
    name: 'wpt format-field-retry: "retry:03000" is 3000 (decimal, not octal)',
    input: `retry:03000\ndata:x${TAIL}`,
    expected: [{ data: 'x', retry: 3000 }],
  },
  {
    name: 'wpt format-field-retry-bogus: "retry:1000x" is ignored, the earlier 3000 stands',
    input: `retry:3000\nretry:1000x\ndata:x${TAIL}`,
    expected: [{ data: 'x', retry: 3000 }],
  },
  {
    name: 'wpt format-field-retry-empty: "retry" without a value is ignored',
    input: `retry\ndata:test${TAIL}`,
    expected: [{ data: 'test' }],
  },
  {
    name: 'wpt format-field-unknown: unknown fields, a space-led line and comments are ignored',
    input: `data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test${TAIL}`,
    expected: [{ data: 'test\n\ntest' }],
    options: NO_COMMENTS,
  },
  {
    name: 'wpt format-leading-space: only one leading space is removed, a tab is kept',
    input: `data:\ttest\rdata: \ndata:test${TAIL}`,
    expected: [{ data: '\ttest\n\ntest' }],
  },
  {
    name: 'wpt format-newlines: CRLF, LF and CR in one event',
    input: `data:test\r\ndata\ndata:test\r\n\r${TAIL_NONE}`,
    expected: [{ data: 'test\n\ntest' }],
  },
  {
    name: 'wpt format-null-character: a NUL in data is kept',
    input: `data:\0\n\n${TAIL}`,
    expected: [{ data: '\0' }],
  },
  {
    name: 'wpt format-utf-8: always UTF-8 (a three-byte character)',
    input: `data:ok\u2026${TAIL}`,
    expected: [{ data: 'ok\u2026' }],
  },
]

const OWN_VECTORS: Vector[] = [
  {
    name: 'utf-8 multi-byte: CJK, emoji (astral, with a skin-tone modifier) in data, event, id and comments',
    input: 'data: 你好，世界\nid: 🆔-一\nevent: 絵文字\ndata: 🙂 ok 👍🏽\n\n: 注释 🚀\ndata: é…\n\n',
    expected: [{ data: '你好，世界\n🙂 ok 👍🏽', id: '🆔-一', event: '絵文字' }, { comment: '注释 🚀' }, { data: 'é…' }],
  },
  {
    name: 'BOM: a U+FEFF after the start of the stream is data (also at the start of a later read)',
    input: 'data: \uFEFFx\n\ndata:\uFEFF\n\n: \uFEFF\n',
    expected: [{ data: '\uFEFFx' }, { data: '\uFEFF' }, { comment: '\uFEFF' }],
  },
  {
    name: 'line endings: CR, LF, CRLF and mixed, ending lines and events',
    input: 'data: a\rdata: b\n\rdata: c\r\n\r\ndata: d\n\ndata: e\r\rdata: f\r\n\n',
    expected: [{ data: 'a\nb' }, { data: 'c' }, { data: 'd' }, { data: 'e' }, { data: 'f' }],
  },
  {
    name: 'line endings: a CRLF pair (whatever read it is split by) is one line end, not a blank line',
    input: 'data: 1\r\ndata: 2\r\nid: 3\r\n\r\ndata: 4\r\n\r\n',
    expected: [{ data: '1\n2', id: '3' }, { data: '4' }],
  },
  {
    name: 'comments kept: keep-alive heartbeats in order with the events around them',
    input: ': keep-alive\n\n:no-space\n:  two spaces\n:\ndata: 1\n: inside\n\n: keep-alive\r\n\r\n',
    expected: [
      { comment: 'keep-alive' },
      { comment: 'no-space' },
      { comment: ' two spaces' },
      { comment: '' },
      { comment: 'inside' },
      { data: '1' },
      { comment: 'keep-alive' },
    ],
  },
]

function vectorCases(test: (name: string, run: () => void | Promise<void>) => void, vectors: readonly Vector[]): void {
  for (const vector of vectors) {
    test(`${vector.name} (strings: whole, every split, one unit at a time)`, () => {
      assertDecodesAsText(vector.input, vector.expected, vector.options)
    })
    test(`${vector.name} (UTF-8 bytes: whole, every byte split, one byte at a time)`, () => {
      assertDecodesAsBytes(vector.input, vector.expected, vector.options)
    })
  }
}

/** Each feed's output, then end()'s. */
function perFeed(chunks: readonly (string | Uint8Array)[], options: SseDecoderOptions = {}): SseMessage[][] {
  const decoder = createSseDecoder(options)
  return [...chunks.map((chunk) => decoder.feed(chunk)), decoder.end()]
}

function assertLimitError(error: unknown, limit: number): asserts error is StreamLimitError {
  assert(error instanceof StreamLimitError, `expected a StreamLimitError, got ${String(error)}`)
  assert(error instanceof Error, 'StreamLimitError is an Error')
  assertEqual(error.name, 'StreamLimitError')
  assertEqual(error.type, 'sse-buffer-limit')
  assertEqual(error.limit, limit)
  assert(error.message.includes(`maxBufferSize (${limit} characters)`), `message names the cap: ${error.message}`)
}

const MIB = 1024 * 1024

export const suites = [
  defineSuite('sse/decoder wpt', (test) => {
    vectorCases(test, WPT_VECTORS)

    test('wpt format-comments: with comments kept, each comment comes out in order, before the event', () => {
      const input = WPT_VECTORS.find((vector) => vector.name.startsWith('wpt format-comments:'))?.input
      assert(input !== undefined, 'format-comments vector present')
      assertDecodesAsText(input, [
        { comment: '\0' },
        { comment: '' },
        { comment: LONG },
        { comment: 'data:fail' },
        { comment: LONG },
        { data: '1\n2\n3\n4' },
      ])
    })

    test('wpt format-field-unknown: with comments kept, the comment is the only addition', () => {
      const input = WPT_VECTORS.find((vector) => vector.name.startsWith('wpt format-field-unknown:'))?.input
      assert(input !== undefined, 'format-field-unknown vector present')
      assertEqual(decodeChunks([input]), [{ comment: 'thisisacommentyay' }, { data: 'test\n\ntest' }])
    })
  }),

  defineSuite('sse/decoder', (test) => {
    vectorCases(test, OWN_VECTORS)

    test('utf-8: bytes of every length (1 to 4) split at every byte offset and fed a byte at a time', () => {
      // é (2 bytes), 你 (3), 🙂 (4 bytes, a surrogate pair in UTF-16)
      const input = 'data: aé你🙂\n\n'
      assertEqual(utf8(input).length, 'data: a'.length + 2 + 3 + 4 + 2)
      assertDecodesAsBytes(input, [{ data: 'aé你🙂' }])
    })

    test('utf-8: an invalid sequence becomes U+FFFD, whatever the read boundaries', () => {
      const head = utf8('data: a')
      const bytes = new Uint8Array([...head, 0xe2, 0x80, ...utf8('\n\n')])
      const expected = [{ data: 'a\uFFFD' }]
      assertEqual(decodeChunks([bytes]), expected)
      for (let offset = 1; offset < bytes.length; offset++) {
        assertEqual(decodeChunks([bytes.subarray(0, offset), bytes.subarray(offset)]), expected, `split at ${offset}`)
      }
    })

    test('utf-8: a truncated character at the end of input is dropped with its unfinished event', () => {
      const bytes = utf8('data: ok\n\ndata: 🙂\n\n')
      assertEqual(decodeChunks([bytes.subarray(0, bytes.length - 4)]), [{ data: 'ok' }])
    })

    test('feed returns each event as soon as its blank line arrives (not one read later)', () => {
      assertEqual(perFeed(['data: a\n', '\n', 'data: b\n\ndata: c\n\n', 'data: d']), [
        [],
        [{ data: 'a' }],
        [{ data: 'b' }, { data: 'c' }],
        [],
        [],
      ])
    })

    test('line endings: a CRLF split across reads is one line end; a CR-ended event comes out at once', () => {
      assertEqual(perFeed(['data: a\r', '\n', '\r', '\n', 'data: b\r\n', '\r\n']), [
        [],
        [],
        [{ data: 'a' }],
        [],
        [],
        [{ data: 'b' }],
        [],
      ])
      assertEqual(perFeed(['data: a\r', '\r', 'data: b\r', '\r']), [[], [{ data: 'a' }], [], [{ data: 'b' }], []])
    })

    test('line endings: CR, LF and CRLF as bytes split between CR and LF', () => {
      const bytes = utf8('data: 1\r\n\r\ndata: 2\r\rdata: 3\n\n')
      const expected = [{ data: '1' }, { data: '2' }, { data: '3' }]
      const cr = bytes.indexOf(0x0d)
      assertEqual(decodeChunks([bytes.subarray(0, cr + 1), bytes.subarray(cr + 1)]), expected)
      assertEqual(decodeChunks([bytes.subarray(0, cr + 3), bytes.subarray(cr + 3)]), expected)
    })

    test('comments: ": keep-alive" is {comment: "keep-alive"}, returned by the feed that completes it', () => {
      assertEqual(perFeed([': keep-alive\n']), [[{ comment: 'keep-alive' }], []])
      assertEqual(perFeed([': keep', '-alive\n', '\n']), [[], [{ comment: 'keep-alive' }], [], []])
    })

    test('comments: false drops every comment and keeps the events', () => {
      const input = ': keep-alive\n\ndata: 1\n: inside\n\n:x\r\n'
      assertEqual(decodeChunks([input]), [{ comment: 'keep-alive' }, { comment: 'inside' }, { data: '1' }, { comment: 'x' }])
      assertEqual(decodeChunks([input], { comments: true }), decodeChunks([input]))
      assertDecodesAsText(input, [{ data: '1' }], { comments: false })
      assertDecodesAsBytes(input, [{ data: '1' }], { comments: false })
    })

    test('event and id fields: set on the event; absent keys when the block had none', () => {
      assertDecodesAsText('event: delta\nid: 7\ndata: x\n\ndata: y\n\n', [{ event: 'delta', id: '7', data: 'x' }, { data: 'y' }])
    })

    test('event and id fields: "id:" is the empty id, "event:" is the default type, the last value wins', () => {
      assertEqual(decodeChunks(['id:\nevent:\ndata: x\n\n']), [{ id: '', data: 'x' }])
      assertEqual(decodeChunks(['id: 1\nid: 2\nevent: a\nevent: b\ndata: x\n\n']), [{ id: '2', event: 'b', data: 'x' }])
    })

    test('event and id fields: an id with NUL is ignored and keeps the earlier id of the block', () => {
      assertEqual(decodeChunks(['id: 1\nid: a\0b\ndata: x\n\n']), [{ id: '1', data: 'x' }])
    })

    test('event and id fields: one leading space is removed, a second is kept; names are case-sensitive', () => {
      assertEqual(decodeChunks(['event:  spaced\nid:  7\ndata: x\n\n']), [{ event: ' spaced', id: ' 7', data: 'x' }])
      assertEqual(decodeChunks(['Event: x\nID: 1\nDATA: y\ndata: z\n\n']), [{ data: 'z' }])
    })

    test('event and id fields: a block without data dispatches nothing and leaks nothing into the next event', () => {
      assertEqual(decodeChunks(['event: ping\n\nid: 5\n\nevent: x\nid: 6\n\ndata: z\n\n']), [{ data: 'z' }])
    })

    test('retry: a "retry:" block is forwarded on the next event, once', () => {
      assertDecodesAsText('retry: 1500\n\ndata: x\n\ndata: y\n\n', [{ data: 'x', retry: 1500 }, { data: 'y' }])
    })

    test('retry: in the event\'s own block, after its data, or 0, it is on that event', () => {
      assertEqual(decodeChunks(['data: x\nretry: 5\n\n']), [{ data: 'x', retry: 5 }])
      assertEqual(decodeChunks(['retry: 0\ndata: x\n\n']), [{ data: 'x', retry: 0 }])
    })

    test('retry: the last valid value before the event wins; comments do not take it', () => {
      assertEqual(decodeChunks(['retry: 1\n\nretry: 2\n\n: ping\n\ndata: x\n\n']), [{ comment: 'ping' }, { data: 'x', retry: 2 }])
    })

    test('retry: values that are not all ASCII digits are ignored', () => {
      for (const value of ['15s', '-1', '1.5', '', ' 1', '1e3', '\u0661']) {
        assertEqual(decodeChunks([`retry: ${value}\ndata: x\n\n`]), [{ data: 'x' }], `retry: ${JSON.stringify(value)}`)
      }
    })

    test('end of input: an event without its final blank line is discarded (spec)', () => {
      assertEqual(perFeed(['data: a\n\ndata: b\n']), [[{ data: 'a' }], []])
      assertEqual(perFeed(['data: a\n\ndata: b']), [[{ data: 'a' }], []])
      assertEqual(perFeed(['data: a\n\nevent: e\nid: 1\ndata: b\r']), [[{ data: 'a' }], []])
      assertEqual(perFeed([utf8('data: a\n\ndata: b\n')]), [[{ data: 'a' }], []])
    })

    test('empty chunks (string and bytes) change nothing', () => {
      assertEqual(decodeChunks(['', 'data: a', new Uint8Array(0), '', '\n', new Uint8Array(0), '\n', '']), [{ data: 'a' }])
      assertEqual(decodeChunks(['', '\uFEFFdata: b\n\n']), [{ data: 'b' }])
    })

    test('BOM: after whole events read without the parser, a later read starting with U+FEFF is not a stream start', () => {
      // The first reads take the fast path; the parser is made for the third and must not strip its U+FEFF.
      const later = ['data: a\n\n', utf8('data: b\n\n'), '\uFEFFdata: c\n\ndata: d\n\n']
      assertEqual(decodeChunks(later), [{ data: 'a' }, { data: 'b' }, { data: 'd' }])
      assertEqual(perFeed(later), [[{ data: 'a' }], [{ data: 'b' }], [{ data: 'd' }], []])
      // And at the very start it is the one BOM the spec skips, whether or not a fast read could follow.
      assertEqual(decodeChunks(['\uFEFFdata: c\n\n', 'data: d\n\n']), [{ data: 'c' }, { data: 'd' }])
      assertEqual(decodeChunks([utf8('\uFEFFdata: c\n\n'), 'data: d\n\n']), [{ data: 'c' }, { data: 'd' }])
    })

    test('strings and bytes can alternate between reads (on character boundaries)', () => {
      assertEqual(decodeChunks(['data: ', utf8('é'), '\n', utf8('\n')]), [{ data: 'é' }])
    })

    test('maxBufferSize: an unfinished line held between reads past the cap throws StreamLimitError naming the cap', () => {
      const decoder = createSseDecoder({ maxBufferSize: 16 })
      assertEqual(decoder.feed('data: 0123456789'), [], 'exactly at the cap is fine')
      assertLimitError(thrownBy(() => decoder.feed('X')), 16)
    })

    test('maxBufferSize: after the first failure every feed and end() throw the same error', () => {
      const decoder = createSseDecoder({ maxBufferSize: 16 })
      assertEqual(decoder.feed('data: ok\n\n'), [{ data: 'ok' }])
      const first = thrownBy(() => decoder.feed(`data: ${'x'.repeat(20)}`))
      assertLimitError(first, 16)
      for (const chunk of ['\n\n', 'data: small\n\n', utf8('data: small\n\n'), '']) {
        const again = thrownBy(() => decoder.feed(chunk))
        assertLimitError(again, 16)
        assert(again === first, 'the same error instance is thrown again')
      }
      assert(thrownBy(() => decoder.end()) === first, 'end() throws it too')
    })

    test('maxBufferSize: a line exactly at the cap decodes; the cap counts characters, not bytes', () => {
      const text = `data: ${'你'.repeat(10)}`
      assertEqual(text.length, 16)
      const decoder = createSseDecoder({ maxBufferSize: 16 })
      assertEqual(decoder.feed(utf8(text)), [])
      assertEqual(decoder.feed(utf8('\n\n')), [{ data: '你'.repeat(10) }])
      assertEqual(decoder.end(), [])
    })

    test('maxBufferSize: an event made of many short data lines past the cap throws', () => {
      const decoder = createSseDecoder({ maxBufferSize: 16 })
      assertEqual(decoder.feed('data: 0123456789\n'), [])
      assertLimitError(thrownBy(() => decoder.feed('data: 0123456789\n')), 16)
    })

    test('maxBufferSize: an event line and a data line within the cap each, past it together, throw as the parser does (whole-event reads too)', () => {
      const input = 'event: abcdefgh\ndata: 0123456789\n\n'
      assertThrows(() => createSseDecoder({ maxBufferSize: 20 }).feed(input), StreamLimitError)
      assertEqual(createSseDecoder({ maxBufferSize: 40 }).feed(input), [{ event: 'abcdefgh', data: '0123456789' }], 'within the cap: one message')
    })

    test('withinCap (what a caller that skips the parser asks) agrees with the parser at the edge of the cap, with and without an event line', () => {
      for (const input of ['data: 0123456789\n\n', 'event: abcdefgh\ndata: 0123456789\n\n']) {
        for (let cap = 10; cap <= 40; cap++) {
          let parsed = true
          try {
            createSseDecoder({ maxBufferSize: cap }).feed(input)
          } catch {
            parsed = false
          }
          assertEqual(createSseDecoderCore({ maxBufferSize: cap }).withinCap(input), parsed, `${JSON.stringify(input)} at ${cap}`)
        }
      }
    })

    test('maxBufferSize: a comment or field line past the cap throws as well', () => {
      for (const line of [`: ${'c'.repeat(20)}`, `event: ${'e'.repeat(20)}`, `id: ${'i'.repeat(20)}`]) {
        const decoder = createSseDecoder({ maxBufferSize: 16 })
        assertLimitError(
          thrownBy(() => {
            for (const char of line) decoder.feed(char)
          }),
          16,
        )
      }
    })

    test('maxBufferSize: a long line fed one unit at a time throws, and nothing after it is decoded', () => {
      const decoder = createSseDecoder({ maxBufferSize: 64 })
      const out: SseMessage[] = []
      const error = thrownBy(() => {
        for (const char of `data: before\n\ndata: ${'y'.repeat(100)}\n\ndata: after\n\n`) out.push(...decoder.feed(char))
      })
      assertLimitError(error, 64)
      assertEqual(out, [{ data: 'before' }])
    })

    test('maxBufferSize: a 10 MB data line with the default cap (8 Mi characters) throws, in 64 KiB reads', () => {
      assertEqual(DEFAULT_MAX_SSE_BUFFER, 8 * MIB)
      const line = `data: ${'x'.repeat(10 * MIB)}\n\n`
      const decoder = createSseDecoder()
      let fed = 0
      const error = thrownBy(() => {
        for (; fed < line.length; fed += 64 * 1024) decoder.feed(line.slice(fed, fed + 64 * 1024))
      })
      assertLimitError(error, DEFAULT_MAX_SSE_BUFFER)
      assert(fed > DEFAULT_MAX_SSE_BUFFER - 64 * 1024 && fed <= DEFAULT_MAX_SSE_BUFFER, `failed as the cap was passed (at ${fed})`)
    })

    test('maxBufferSize: a 10 MB data line with the default cap throws, as bytes and as one read without its line end', () => {
      const body = `data: ${'x'.repeat(10 * MIB)}`
      assertLimitError(thrownBy(() => createSseDecoder().feed(body)), DEFAULT_MAX_SSE_BUFFER)
      const bytes = utf8(`${body}\n\n`)
      const decoder = createSseDecoder()
      const error = thrownBy(() => {
        for (let offset = 0; offset < bytes.length; offset += 64 * 1024) decoder.feed(bytes.subarray(offset, offset + 64 * 1024))
      })
      assertLimitError(error, DEFAULT_MAX_SSE_BUFFER)
    })

    test('maxBufferSize: a 1 MB data line under the default cap decodes whole, in 64 KiB reads', () => {
      const payload = 'z'.repeat(MIB)
      const line = `data: ${payload}\n\n`
      const chunks: string[] = []
      for (let offset = 0; offset < line.length; offset += 64 * 1024) chunks.push(line.slice(offset, offset + 64 * 1024))
      const messages = decodeChunks(chunks)
      assertEqual(messages.length, 1)
      const first = messages[0]
      assert(first !== undefined && 'data' in first && first.data === payload, 'the whole payload comes out')
    })

    for (const [name, cap, chunks] of [
      ['a data line (cap 16) in one read', 16, [`data: ${'x'.repeat(20)}\n\n`]],
      ['a comment line (cap 16) in one read', 16, [`: ${'x'.repeat(20)}\n`]],
      ['a data line (cap 16) whose end arrives with its line end', 16, ['data: 0123456789', 'ABCDEFGHIJ\n\n']],
      ['an event of two data lines (cap 16) in one read', 16, ['data: 0123456789\ndata: 0123456789\n\n']],
      ['a 10 MB data line (default cap) in one read', DEFAULT_MAX_SSE_BUFFER, [`data: ${'x'.repeat(10 * MIB)}\n\n`]],
    ] as const) {
      test(`maxBufferSize: ${name} throws, though nothing is left buffered between reads`, () => {
        const decoder = createSseDecoder({ maxBufferSize: cap })
        assertLimitError(
          thrownBy(() => {
            for (const chunk of chunks) decoder.feed(chunk)
          }),
          cap,
        )
      })
    }

    test('maxBufferSize: whether an input passes the cap does not depend on how it is split', () => {
      // Lines and events are counted in characters, line breaks not included; cap 16.
      const cases: Array<[input: string, passes: boolean]> = [
        [`data: ${'x'.repeat(10)}\n\n`, true],
        [`data: ${'x'.repeat(11)}\n\n`, false],
        [`data: ${'x'.repeat(10)}\r\n\r\n`, true],
        [`data: ${'x'.repeat(10)}\r\rdata: ${'y'.repeat(10)}\r\n\r\n`, true],
        ['data: a\ndata: b\n\n', true],
        ['data: abc\ndata: defgh\n\n', false],
        // Comment lines count as lines, not toward the event (heartbeats may come without blank lines).
        [`: ${'c'.repeat(14)}\n: ${'c'.repeat(14)}\n\n`, true],
        [`: ${'c'.repeat(15)}\n\n`, false],
        [`: ${'c'.repeat(14)}\n\n: ${'c'.repeat(14)}\n\n`, true],
      ]
      for (const [input, passes] of cases) {
        const chunkings: Array<[string, string[]]> = [['whole', [input]], ['one unit at a time', units(input)]]
        for (let offset = 1; offset < input.length; offset++) chunkings.push([`split at ${offset}`, [input.slice(0, offset), input.slice(offset)]])
        for (const [how, chunks] of chunkings) {
          let error: unknown
          try {
            decodeChunks(chunks, { maxBufferSize: 16 })
          } catch (caught) {
            error = caught
          }
          if (passes) assert(error === undefined, `${JSON.stringify(input)} (${how}) should pass, got ${String(error)}`)
          else assertLimitError(error, 16)
        }
      }
    })

    test('options: a maxBufferSize that is not a positive integer is a TypeError', () => {
      for (const maxBufferSize of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '16' as unknown as number]) {
        assertThrows(() => createSseDecoder({ maxBufferSize }), TypeError, /maxBufferSize/)
      }
      createSseDecoder({ maxBufferSize: 1 })
      createSseDecoder({})
      createSseDecoder()
    })

    test('chunks: anything but a string or a Uint8Array is a TypeError, and the decoder keeps working', () => {
      const decoder = createSseDecoder()
      assertEqual(decoder.feed('data: a\n'), [])
      for (const chunk of [42, null, undefined, {}, [100, 97], new ArrayBuffer(4), new DataView(new ArrayBuffer(4)), new Uint16Array(2)]) {
        assertThrows(() => decoder.feed(chunk as never), TypeError, /string or Uint8Array/)
      }
      assertEqual(decoder.feed('\n'), [{ data: 'a' }])
    })

    test('eventAround (a read of bytes decoded around texts the caller found in it): the message, verbatim, text() and the state after are what decode and parse give, for any event, texts and places (property)', () => {
      const character = fc.oneof(fc.constantFrom('a', ' ', '"', '\\', '{', '\u00e9', '\u2014', '\uff5c', '\u{1F600}'), fc.string({ unit: 'grapheme', maxLength: 3 }).filter((text) => !/[\r\n\uFFFD]/.test(text)))
      const text = fc.array(character, { maxLength: 12 }).map((pieces) => pieces.join(''))
      fc.assert(
        fc.property(fc.option(fc.constantFrom('response.completed', 'x'), { nil: undefined }), fc.array(text, { minLength: 2, maxLength: 5 }), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), text, (event, stretches, marked, next) => {
          // The data: stretches, every other one (from the second) a text found in the read as bytes; `marked` picks which of those are given.
          const data = stretches.join('')
          const read = utf8(`${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`)
          const spans: BytesReadAs[] = []
          let offset = utf8(`${event === undefined ? '' : `event: ${event}\n`}data: `).length
          for (const [index, stretch] of stretches.entries()) {
            const length = utf8(stretch).length
            // A span must start and end with an ASCII byte (as a JSON string does, with its quotes).
            const ascii = stretch.length > 0 && stretch.charCodeAt(0) < 0x80 && stretch.charCodeAt(stretch.length - 1) < 0x80
            if (index % 2 === 1 && marked[index % 4]! && ascii) spans.push({ start: offset, end: offset + length, text: stretch })
            offset += length
          }
          const around = createSseDecoderCore()
          const whole = createSseDecoderCore()
          // A read before it (a stream's first read is where its BOM check happens).
          assertEqual(around.feed(utf8('data: first\n\n')), whole.feed(utf8('data: first\n\n')))
          const taken = around.eventAround(read, spans)
          const expected = whole.feed(read)
          if (spans.length === 0) return assertEqual(taken, undefined, 'no span: not taken')
          assertEqual(taken?.message, expected[0], 'the message')
          assertEqual(expected.length, 1)
          let joined = taken!.around[0]!
          for (const [index, span] of spans.entries()) joined += span.text + taken!.around[index + 1]!
          assertEqual(joined, (expected[0] as SseEvent).data, 'the stretches around the texts are the data')
          assertEqual([around.verbatim(), around.text(), around.ready()], [whole.verbatim(), whole.text(), whole.ready()], 'verbatim, text(), ready()')
          // The state after: the next reads (a whole event, then one cut inside a character) give the same.
          const after = utf8(`data: ${next}\n\ndata: \u00e9${next}\n\n`)
          for (const chunk of [after.subarray(0, after.length - 5), after.subarray(after.length - 5)]) assertEqual(around.feed(chunk), whole.feed(chunk), 'the reads after')
          assertEqual(around.end(), whole.end(), 'end')
        }),
        { numRuns: 500 },
      )
    })

    test('eventAround refuses, changing nothing, what decode and parse must read: a partial line held, a character carried in, a BOM check not over, two events, a CR, a span outside the data, a U+FFFD, a line past the cap', () => {
      const text = `"${'long text '.repeat(3)}"`
      const event = (data: string, name = 'response.completed'): string => `event: ${name}\ndata: {"a":${data}}\n\n`
      const at = (read: Uint8Array, found: string): BytesReadAs[] => {
        const bytes = utf8(found)
        for (let start = 0; start + bytes.length <= read.length; start++) {
          if (bytes.every((byte, index) => read[start + index] === byte)) return [{ start, end: start + bytes.length, text: found }]
        }
        return []
      }
      const cases: Array<[string, (decoder: SseDecoderCore) => void, string, number?]> = [
        ['a partial line held', (decoder) => decoder.feed('data: x'), event(text)],
        ['a character carried in', (decoder) => decoder.feed(utf8('data: x\n\n\u00e9').subarray(0, 10)), event(text)],
        ['the BOM check not over', () => {}, event(text)],
        ['two events in the read', (decoder) => decoder.feed('data: x\n\n'), `${event(text)}data: y\n\n`],
        ['a CR', (decoder) => decoder.feed('data: x\n\n'), event(text).replace('\ndata', '\r\ndata')],
        ['a span in the event line', (decoder) => decoder.feed('data: x\n\n'), event('1', text)],
        ['a U+FFFD in the read', (decoder) => decoder.feed('data: x\n\n'), event(text).replace('"a"', '"\uFFFD"')],
        ['an event past the cap (its data line within it)', (decoder) => decoder.feed('data: x\n\n'), event(text), 60],
        ['no blank line at the end', (decoder) => decoder.feed('data: x\n\n'), event(text).slice(0, -1)],
      ]
      for (const [name, before, input, cap] of cases) {
        const decoder = createSseDecoderCore(cap === undefined ? {} : { maxBufferSize: cap })
        const whole = createSseDecoderCore(cap === undefined ? {} : { maxBufferSize: cap })
        before(decoder)
        before(whole)
        const read = utf8(input)
        const spans = at(read, text)
        assert(spans.length === 1, `${name}: the text is in the read`)
        assertEqual(decoder.eventAround(read, spans), undefined, `${name}: refused`)
        let expected: unknown
        let actual: unknown
        try {
          expected = whole.feed(read)
        } catch (error) {
          expected = String(error)
        }
        try {
          actual = decoder.feed(read)
        } catch (error) {
          actual = String(error)
        }
        assertEqual(actual, expected, `${name}: then read as it would have been`)
      }
      const decoder = createSseDecoderCore()
      decoder.feed('data: x\n\n')
      const read = utf8(event(text))
      assertEqual(decoder.eventAround(read, [{ ...at(read, text)[0]!, text: text.replace('long', 'l\uFFFDng') }]), undefined, 'a U+FFFD in a text')
      assertEqual(decoder.eventAround(read, []), undefined, 'no span')
      assertEqual(decoder.eventAround(read, at(read, text))?.message, { event: 'response.completed', data: `{"a":${text}}` }, 'the same read, taken')
    })
  }),
]
