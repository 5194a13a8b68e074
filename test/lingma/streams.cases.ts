/**
 * The Lingma decoder and the converter as streams: a DSML leak in Lingma
 * content becomes a Chat Completions tool call (split at every byte offset,
 * the fullwidth bars cut mid-character), framing variants (`data:` forms,
 * CRLF, lines with no blank line between), `event: error`, a line past the
 * cap, the decoder's parts and origins, and the streams giving the cores'
 * bytes.
 */
import { createLingmaDecoder, LingmaDecoderStream, LingmaToChatCompletionsStream } from '../../src/lingma/index.ts'
import type { Part } from '../../src/parts/part.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import { assertEverySplitGivesTheSame, assertNoMarkup, convert, frame, readClientView, testOptions } from './support.ts'

const BAR = '\uff5c'
const open = (name: string) => `<${BAR}DSML${BAR}${name}`
const close = (name: string) => `</${BAR}DSML${BAR}${name}>`
const LEAK = `Listing.\n\n${open('tool_calls')}>\n${open('invoke')} name="bash">\n${open('parameter')} name="command" string="true">ls -la${close('parameter')}\n${close('invoke')}\n${close('tool_calls')}`

function envelopeFrame(content: string): string {
  const body = JSON.stringify({ choices: [{ delta: { content } }] })
  return `data:${JSON.stringify({ headers: {}, body, statusCodeValue: 200, statusCode: 'OK' })}\n\n`
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = []
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return out
    out.push(value)
  }
}

function streamOf(pieces: readonly string[]): ReadableStream<string> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece)
      controller.close()
    },
  })
}

export const suite = defineSuite('lingma/streams', (test) => {
  test('a DSML leak in enveloped Lingma content becomes one tool call, at every byte offset', () => {
    const body = `${envelopeFrame(LEAK.slice(0, 40))}${envelopeFrame(LEAK.slice(40))}data: {"body":"[DONE]"}\n\n`
    const view = readClientView(assertEverySplitGivesTheSame(body))
    assertNoMarkup(view)
    assertEqual(view.text, 'Listing.\n\n')
    assertEqual(view.calls.map((call) => [call.name, JSON.parse(call.arguments)]), [['bash', { command: 'ls -la' }]])
    assertEqual(view.finishReasons, ['tool_calls'])
    assert(view.done, 'done')
  })

  test('a DSML leak inside <thought> is removed from the reasoning too', () => {
    const view = readClientView(convert(`${frame({ content: `<thought>${LEAK}</thought>Answer` })}data: [DONE]\n\n`, testOptions()))
    assertEqual([view.reasoning, view.text], ['Listing.\n\n', 'Answer'])
    assertEqual(view.calls.map((call) => call.name), ['bash'])
  })

  test('framing: CRLF, CR, data lines with no blank line between, data:/data: , bare payloads, comments', () => {
    const body = [
      ': keep-alive',
      'data:{"choices":[{"delta":{"content":"a"}}]}',
      'data: {"choices":[{"delta":{"content":"b"}}]}',
      '{"choices":[{"delta":{"content":"c"}}]}',
      'id: 7',
      'data: {"body":{"choices":[{"delta":{"content":"d"}}]}}',
      'data: [DONE]',
    ]
    for (const separator of ['\r\n', '\r', '\n']) {
      const sse = assertEverySplitGivesTheSame(body.join(separator))
      assert(sse.startsWith(': keep-alive\n\n'), 'the comment is forwarded')
      const view = readClientView(sse)
      assertEqual([view.text, view.done], ['abcd', true], JSON.stringify(separator))
    }
  })

  test('content in a finish or timing frame is text like any chunk\'s; a frame nested too deep to write back is unreadable, never a throw', () => {
    for (const tail of [`event:finish\n${frame({ content: 'tail' })}`, `data: ${JSON.stringify({ choices: [{ delta: { content: 'tail' } }], firstTokenDuration: 1 })}\n\n`]) {
      const view = readClientView(assertEverySplitGivesTheSame(frame({ content: 'a' }) + tail + 'data: [DONE]\n\n'))
      assertEqual([view.text, view.finishReasons], ['atail', ['stop']], JSON.stringify(tail))
    }
    const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
    for (const body of [
      `data: {"choices":[{"delta":{"content":"x","extra":${deep(5000)}}}]}\n\n`,
      `data: {"error":{"message":"m","code":${deep(5000)}}}\n\n`,
      // The details of an error, a JSON text inside a string, nested too deep to read (it used to overflow the stack).
      `data: {"error":{"message":"m","details":"{\\"code\\":${deep(100_000)}}"}}\n\n`,
    ]) {
      const view = readClientView(convert(`${frame({ content: 'ok ' })}${body}data: [DONE]\n\n`))
      assertEqual(view.text, 'ok ', 'the readable frames are read; the deep one is not')
    }
  })

  test('a read that completes frames and then passes the line cap: the frames first, then the error, however the body is split', () => {
    const body = `${frame({ content: 'hello' })}data: ${'x'.repeat(200)}`
    for (const reads of [[body], [body.slice(0, frame({ content: 'hello' }).length), body.slice(frame({ content: 'hello' }).length)]]) {
      const decoder = createLingmaDecoder({ maxLineChars: 100 })
      const parts = reads.flatMap((read) => decoder.feed(read))
      const texts = parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text)
      assertEqual(texts, ['hello'], `${reads.length} read(s): the frame before the long line is kept`)
      assert(parts.some((part) => part.type === 'error'), 'then the error')
    }
  })

  test('event: error makes the next frame an error whatever it says', () => {
    const view = readClientView(convert('event: error\ndata: {"message":"quota gone","type":"rate_limit_error"}\n\n', testOptions()))
    assertEqual(view.errors, [{ message: 'quota gone', type: 'rate_limit_error', param: null, code: null, status: 429 }])
  })

  test('frames after [DONE] or an error are ignored; an unreadable frame is reported, not forwarded', () => {
    const diagnostics: string[] = []
    const sse = convert('data: not json\n\ndata: {"time":"1"}\n\ndata: [DONE]\n\ndata: {"choices":[{"delta":{"content":"late"}}]}\n\n', testOptions({ onDiagnostic: (d) => diagnostics.push(d.kind) }))
    assertEqual(sse.split('\n\n').filter((event) => event !== ''), ['data: {"id":"chatcmpl-test-id","object":"chat.completion.chunk","created":1,"model":"auto","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":"stop"}]}', 'data: [DONE]'])
    assertEqual(diagnostics, ['malformed-chunk', 'malformed-chunk'])
  })

  test('a line past maxLineChars ends the stream with an error', () => {
    const view = readClientView(convert(`data: ${'x'.repeat(300)}`, testOptions({ maxLineChars: 100 })))
    assertEqual(view.errors.map((error) => [error.code, error.status]), [['line_too_long', 502]])
  })

  test('decoder parts: groups closed by chunk-end whose origin is the chat chunk they stand for', () => {
    const decoder = createLingmaDecoder({ id: 'c', created: 2, model: 'm' })
    const parts = decoder.feed(`${frame({ content: 'Hi<thought>r</thought>' }, { finish_reason: 'stop' })}data: [DONE]\n\n`)
    parts.push(...decoder.end())
    assertEqual(parts.map((part) => part.type), ['text', 'chunk-end', 'reasoning', 'finish', 'chunk-end', 'done', 'chunk-end'])
    const ends = parts.filter((part): part is Extract<Part, { type: 'chunk-end' }> => part.type === 'chunk-end')
    assertEqual(JSON.parse(ends[0]!.origin!.data), { id: 'c', object: 'chat.completion.chunk', created: 2, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })
    assertEqual(ends[1]!.origin!.parts.map((part) => part.type), ['reasoning', 'finish'])
    assertEqual(ends[2]!.origin!.data, '[DONE]')
  })

  test('LingmaToChatCompletionsStream gives the core bytes; LingmaDecoderStream the decoder parts', async () => {
    const pieces = [envelopeFrame(LEAK), 'data: [DONE]\n\n']
    const bytes = await collect(streamOf(pieces).pipeThrough(new LingmaToChatCompletionsStream(testOptions())))
    const text = bytes.map((chunk) => new TextDecoder().decode(chunk)).join('')
    assertEqual(text, convert(pieces.join(''), testOptions()))
    const parts = await collect(streamOf(pieces).pipeThrough(new LingmaDecoderStream({ id: 'c', created: 1 })))
    assertEqual(parts.filter((part) => part.type === 'done').length, 1)
    const cut = await collect(streamOf([envelopeFrame('x')]).pipeThrough(new LingmaDecoderStream()))
    assertEqual(cut.filter((part) => part.type === 'error').length, 1, 'a cut stream ends with an error part')
  })

  test('residual leaks are counted through the converter option', () => {
    // With mode "off" nothing is removed, so the post-condition sees the markup.
    let leaks = 0
    convert(`${frame({ content: LEAK })}data: [DONE]\n\n`, testOptions({ mode: 'off', onResidualLeak: () => leaks++ }))
    assert(leaks >= 1, 'the leak is reported')
  })
})
