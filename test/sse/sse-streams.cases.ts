/**
 * SseDecoderStream and SseEncoderStream: the decoder and encoder behind
 * TransformStreams. Uses only constructors, pipeThrough and getReader(),
 * which every runtime we support has.
 */
import { encodeSseMessage, SseDecoderStream, SseEncoderStream, StreamLimitError } from '../../src/sse/index.ts'
import type { SseMessage } from '../../src/sse/types.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import { collect, collectUntilError, decodedForm, rechunkBytes, streamOf, units, utf8 } from './support.ts'

const TEXT = 'data: 你好🙂\nid: 1\n\n: keep-alive\n\nevent: delta\ndata: é…\r\n\r\ndata: tail without blank line'
const EXPECTED: SseMessage[] = [{ data: '你好🙂', id: '1' }, { comment: 'keep-alive' }, { event: 'delta', data: 'é…' }]

const MESSAGES: SseMessage[] = [
  { comment: 'keep-alive' },
  { data: '{"choices":[{"delta":{"content":"你好"}}]}' },
  { data: 'multi\nline\r\ndata\rhere 🙂', event: 'delta', id: 'evt-1', retry: 1000 },
  { data: '' },
  { comment: 'two\nlines' },
  { data: ' leading space', id: '' },
  { data: '[DONE]' },
]

/** What decoding MESSAGES gives: data line endings as LF, a multi-line comment as one comment per line. */
const MESSAGES_DECODED: SseMessage[] = MESSAGES.flatMap((message) =>
  'comment' in message ? message.comment.split('\n').map((comment) => ({ comment })) : [decodedForm(message)],
)

export const suite = defineSuite('sse/streams', (test) => {
  test('decoder stream: UTF-8 bytes split at every byte offset (inside CJK and emoji) decode whole', async () => {
    const bytes = utf8(TEXT)
    for (let offset = 1; offset < bytes.length; offset++) {
      const messages = await collect(streamOf([bytes.slice(0, offset), bytes.slice(offset)]).pipeThrough(new SseDecoderStream()))
      assertEqual(messages, EXPECTED, `split at byte offset ${offset}`)
    }
  })

  test('decoder stream: bytes one at a time', async () => {
    assertEqual(await collect(streamOf(units(utf8(TEXT))).pipeThrough(new SseDecoderStream())), EXPECTED)
  })

  test('decoder stream: strings in, whole and one UTF-16 unit at a time', async () => {
    assertEqual(await collect(streamOf([TEXT]).pipeThrough(new SseDecoderStream())), EXPECTED)
    assertEqual(await collect(streamOf(units(TEXT)).pipeThrough(new SseDecoderStream())), EXPECTED)
  })

  test('decoder stream: options reach the decoder (comments: false)', async () => {
    const messages = await collect(streamOf([TEXT]).pipeThrough(new SseDecoderStream({ comments: false })))
    assertEqual(messages, EXPECTED.filter((message) => !('comment' in message)))
  })

  test('decoder stream: an event is readable before the input ends', async () => {
    const stream = new SseDecoderStream()
    const writer = stream.writable.getWriter()
    const reader = stream.readable.getReader()
    void writer.write(utf8('data: first\n\n'))
    assertEqual(await reader.read(), { done: false, value: { data: 'first' } })
    void writer.write('data: unfinished')
    void writer.close()
    // The end, read as done with no value (workerd's reader leaves the `value` key out).
    const end = await reader.read()
    assertEqual([end.done, end.value], [true, undefined])
  })

  test('decoder stream: a bad option is a TypeError when the stream is built', () => {
    assertThrows(() => new SseDecoderStream({ maxBufferSize: 0 }), TypeError, /maxBufferSize/)
  })

  test('decoder stream: a chunk that is neither string nor bytes errors the stream with a TypeError', async () => {
    const { values, error } = await collectUntilError(
      streamOf<unknown>(['data: ok\n\n', 42]).pipeThrough(new SseDecoderStream() as unknown as TransformStream<unknown, SseMessage>),
    )
    assertEqual(values, [{ data: 'ok' }])
    assert(error instanceof TypeError, `expected a TypeError, got ${String(error)}`)
  })

  test('decoder stream: past maxBufferSize the readable side rejects with the StreamLimitError', async () => {
    const chunks = ['data: ok\n\n', `data: ${'x'.repeat(20)}`, 'x'.repeat(20), '\n\ndata: never\n\n']
    const { values, error } = await collectUntilError(streamOf(chunks).pipeThrough(new SseDecoderStream({ maxBufferSize: 32 })))
    assertEqual(values, [{ data: 'ok' }], 'messages before the failure are delivered')
    assert(error instanceof StreamLimitError, `expected a StreamLimitError, got ${String(error)}`)
    assertEqual(error.type, 'sse-buffer-limit')
    assertEqual(error.limit, 32)
    assert(error.message.includes('maxBufferSize (32 characters)'), error.message)
  })

  test('decoder stream: past maxBufferSize the writer rejects too, with the same error', async () => {
    const stream = new SseDecoderStream({ maxBufferSize: 8 })
    const writer = stream.writable.getWriter()
    const reader = stream.readable.getReader()
    const read = reader.read().then(
      () => undefined,
      (error: unknown) => error,
    )
    const written = writer.write(utf8(`data: ${'y'.repeat(10)}`)).then(
      () => undefined,
      (error: unknown) => error,
    )
    const [readError, writeError] = await Promise.all([read, written])
    assert(readError instanceof StreamLimitError, `read: expected a StreamLimitError, got ${String(readError)}`)
    assert(writeError === readError, 'write rejects with the same error')
    const closed = await writer.closed.then(
      () => undefined,
      (error: unknown) => error,
    )
    assert(closed === readError, 'writer.closed rejects with it too')
  })

  test('encoder stream: messages in, the UTF-8 bytes of encodeSseMessage out, one array per message', async () => {
    const messages: SseMessage[] = [{ data: 'a\nb', event: 'e' }, { comment: 'c' }, { data: 'é \u{1F600}' }]
    const chunks = await collect(streamOf(messages).pipeThrough(new SseEncoderStream()))
    assert(chunks.every((chunk) => chunk instanceof Uint8Array), 'every chunk is a Uint8Array')
    assertEqual(
      chunks.map((chunk) => new TextDecoder().decode(chunk)),
      messages.map((message) => encodeSseMessage(message)),
    )
    assertEqual(new TextDecoder().decode(chunks[2]), 'data: é \u{1F600}\n\n')
  })

  test('encoder stream: a message it cannot write errors the stream with a TypeError', async () => {
    const { values, error } = await collectUntilError(streamOf<SseMessage>([{ data: 'ok' }, { data: 'x', id: 'a\nb' }]).pipeThrough(new SseEncoderStream()))
    assertEqual(values.map((chunk) => new TextDecoder().decode(chunk)), ['data: ok\n\n'])
    assert(error instanceof TypeError, `expected a TypeError, got ${String(error)}`)
  })

  test('round trip: SseEncoderStream → SseDecoderStream (one byte array per message)', async () => {
    const decoded = await collect(streamOf(MESSAGES).pipeThrough(new SseEncoderStream()).pipeThrough(new SseDecoderStream()))
    assertEqual(decoded, MESSAGES_DECODED)
  })

  test('round trip: SseEncoderStream → 1–3 byte reads → SseDecoderStream', async () => {
    const decoded = await collect(
      streamOf(MESSAGES)
        .pipeThrough(new SseEncoderStream())
        .pipeThrough(rechunkBytes())
        .pipeThrough(new SseDecoderStream()),
    )
    assertEqual(decoded, MESSAGES_DECODED)
  })
})
