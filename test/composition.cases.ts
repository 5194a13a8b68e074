/**
 * The streams compose with any standard `ReadableStream` / `TransformStream`
 * chain, as `@std/streams`'s do (JSR, where it lives, cannot be reached from
 * here): platform streams and a user's own stage (a line splitter shaped like
 * `@std/streams`'s `TextLineStream`) around the package's stages, with
 * `pipeThrough`, `pipeTo` and `tee`.
 */
// From the package's root entry, as most users import it.
import { ChatCompletionsRepairStream, DsmlSanitizerStream } from '../src/index.ts'
import type { SanitizerEvent } from '../src/dsml/types.ts'
import { assert, assertEqual } from './support/assert.ts'
import { block, invoke, param } from './support/dsml-builders.ts'
import { defineSuite } from './support/harness.ts'

/** A user's stage: text → its lines (LF kept), like `TextLineStream` with the line ends kept. */
class LineStream extends TransformStream<string, string> {
  constructor() {
    let held = ''
    super({
      transform(chunk, controller) {
        const lines = (held + chunk).split('\n')
        held = lines.pop()!
        for (const line of lines) controller.enqueue(`${line}\n`)
      },
      flush(controller) {
        if (held !== '') controller.enqueue(held)
      },
    })
  }
}

/** The platform's `TextDecoderStream` (its writable side is typed for any BufferSource: narrowed here). */
const textDecoder = (): TransformStream<Uint8Array, string> => new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>

function bytesOf(pieces: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece))
      controller.close()
    },
  })
}

const LEAK = `Checking.\n${block([invoke('bash', [param('command', 'ls')])])}\nDone.`

export const suite = defineSuite('composition', (test) => {
  test('bytes → TextDecoderStream → a user line stage → DsmlSanitizerStream → pipeTo a WritableStream: the clean text and the call', async () => {
    const events: SanitizerEvent[] = []
    await bytesOf([LEAK.slice(0, 13), LEAK.slice(13)])
      .pipeThrough(textDecoder())
      .pipeThrough(new LineStream())
      .pipeThrough(new DsmlSanitizerStream())
      .pipeTo(new WritableStream({ write: (event) => void events.push(event) }))
    const text = events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('')
    assertEqual(text, 'Checking.\n\nDone.')
    assertEqual(events.flatMap((event) => (event.type === 'tool-call' ? [event.call.name] : [])), ['bash'])
  })

  test('an SSE body teed: one branch repaired (ChatCompletionsRepairStream → TextDecoderStream), the other as it came', async () => {
    const chunk = (content: string): string => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
    const body = bytesOf([chunk(LEAK.slice(0, 20)), chunk(LEAK.slice(20)), 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n', 'data: [DONE]\n\n'])
    const [raw, repaired] = body.tee()
    const read = async (stream: ReadableStream<string>): Promise<string> => {
      let out = ''
      await stream.pipeTo(new WritableStream({ write: (piece) => void (out += piece) }))
      return out
    }
    const [rawText, repairedText] = await Promise.all([read(raw.pipeThrough(textDecoder())), read(repaired.pipeThrough(new ChatCompletionsRepairStream()).pipeThrough(textDecoder()))])
    assert(rawText.includes('\\uff5c') || rawText.includes('\uFF5C'), 'the raw branch keeps the markup')
    assert(!repairedText.includes('\uFF5C'), 'the repaired branch has none')
    assert(repairedText.includes('"finish_reason":"tool_calls"'), 'and the call as tool_calls')
  })
})
