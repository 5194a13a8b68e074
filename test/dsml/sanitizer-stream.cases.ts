/**
 * DsmlSanitizerStream: the engine behind a TransformStream. Uses only
 * constructors and getReader(), which every runtime we support has.
 */
import { DsmlSanitizerStream } from '../../src/dsml/index.ts'
import type { SanitizerEvent } from '../../src/dsml/types.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { callsOf, normalizeEvents, reassemble, runChunks, textOf } from '../support/chunking.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

function streamOf(chunks: readonly string[]): ReadableStream<string> {
  return new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
}

async function collect(stream: ReadableStream<SanitizerEvent>): Promise<SanitizerEvent[]> {
  const reader = stream.getReader()
  const events: SanitizerEvent[] = []
  while (true) {
    const { done, value } = await reader.read()
    if (done) return events
    events.push(value)
  }
}

const LEAK = `Listing files.\n\n${block([invoke('bash', [param('command', 'ls -la')])])}\nDone.`

export const suite = defineSuite('dsml/sanitizer-stream', (test) => {
  test('stream-v2-recovered: strings in, the same events as the core out', async () => {
    let counter = 0
    const chunks = LEAK.match(/[\s\S]{1,3}/g) ?? []
    const events = await collect(streamOf(chunks).pipeThrough(new DsmlSanitizerStream({ generateId: () => `call_${++counter}` })))
    assertEqual(normalizeEvents(events), normalizeEvents(runChunks([LEAK])))
    assertEqual(callsOf(events), [{ name: 'bash', arguments: { command: 'ls -la' } }])
    assertEqual(textOf(events), 'Listing files.\n\n\nDone.')
    assertEqual(reassemble(events), LEAK)
  })

  test('stream-unclosed-fallback: flush resolves what is held (a trailing "<" is not lost)', async () => {
    const events = await collect(streamOf(['if a ', '<']).pipeThrough(new DsmlSanitizerStream()))
    assertEqual(textOf(events), 'if a <')
  })

  test('stream-text-passthrough: plain text chunks come out as they go in, before the stream ends', async () => {
    const stream = new DsmlSanitizerStream()
    const writer = stream.writable.getWriter()
    const reader = stream.readable.getReader()
    void writer.write('hello ')
    const first = await reader.read()
    assertEqual(first.value, { type: 'text', text: 'hello ' })
    assertEqual(stream.sanitizer.heldChars, 0)
    void writer.close()
    const rest = await reader.read()
    assert(rest.done, 'stream ends with nothing held')
  })

  test('reject-native-present: noteNativeToolCall through the stream\'s sanitizer', async () => {
    const stream = new DsmlSanitizerStream()
    stream.sanitizer.noteNativeToolCall({ name: 'bash', arguments: '{"command":"ls -la"}' })
    const events = await collect(streamOf([LEAK]).pipeThrough(stream))
    assertEqual(callsOf(events), [])
    assert(events.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'duplicate-call'), 'duplicate-call reported')
  })

  test('options: bad options throw a TypeError when the stream is built', () => {
    assertThrows(() => new DsmlSanitizerStream({ mode: 'nope' as never }), TypeError, /mode/)
  })
})
