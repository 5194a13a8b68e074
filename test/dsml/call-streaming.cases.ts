/**
 * Tool calls that stream as they form (src/dsml/call-streaming.ts,
 * `streamToolCalls`; issue "beyond recovery", part 1): a call is announced at
 * its name, string values stream as they arrive, the pieces joined are the
 * JSON text of the call made with the option off — for every capture, whole,
 * split anywhere and one code point at a time — and a streamed call is never
 * taken back: cut off or rejected at the end, it still ends, with a diagnostic.
 */
import { createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import { StringValuePieces, typeValue } from '../../src/dsml/arguments.ts'
import type { SanitizerEvent, ToolCall } from '../../src/dsml/types.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { captures, declaredOptions } from '../support/captures.ts'
import { codePoints, piecesOf } from '../support/chunking.ts'
import { block, close, invoke, open, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const ON = { streamToolCalls: true }

/** Events of `chunks` fed one by one, then the end. */
function run(chunks: readonly string[], options: object = ON): SanitizerEvent[] {
  const sanitizer = createDsmlSanitizer(options)
  const events: SanitizerEvent[] = []
  for (const chunk of chunks) events.push(...sanitizer.feed(chunk))
  events.push(...sanitizer.end())
  return events
}

interface Streamed {
  name: string
  joined: string
  deltas: number
  call: ToolCall | undefined
}

/** Each streamed call: its name, its pieces joined, how many, and the call that ended it. */
function streamedCalls(events: readonly SanitizerEvent[]): Streamed[] {
  const calls = new Map<string, Streamed>()
  for (const event of events) {
    if (event.type === 'tool-call-start') calls.set(event.id, { name: event.name, joined: '', deltas: 0, call: undefined })
    else if (event.type === 'tool-call-delta') {
      const call = calls.get(event.id)!
      call.joined += event.delta
      call.deltas++
    } else if (event.type === 'tool-call' && event.streamed) calls.get(event.call.id)!.call = event.call
  }
  return [...calls.values()]
}

const textOf = (events: readonly SanitizerEvent[]): string => events.map((event) => (event.type === 'text' ? event.text : '')).join('')

export const suite = defineSuite('dsml/call-streaming', (test) => {
  test('every capture: the same calls and text as with the option off; each streamed call\'s pieces joined are its arguments\' JSON text; whole and in token pieces', () => {
    let streamedCount = 0
    for (const capture of captures) {
      const options = declaredOptions(capture)
      const off = sanitizeText(capture.input, options)
      for (const chunks of [[capture.input], piecesOf(capture.input, 3)]) {
        const events = run(chunks, { ...options, ...ON })
        const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []))
        assertEqual(calls.map((call) => [call.name, call.arguments]), off.calls.map((call) => [call.name, call.arguments]), `${capture.id}: the calls`)
        assertEqual(textOf(events), off.text, `${capture.id}: the text`)
        for (const streamed of streamedCalls(events)) {
          assert(streamed.call !== undefined, `${capture.id}: a streamed call ends`)
          assertEqual(streamed.joined, JSON.stringify(streamed.call!.arguments), `${capture.id}: joined pieces`)
          streamedCount++
        }
      }
    }
    assert(streamedCount >= 10, `calls were streamed (${streamedCount})`)
  })

  test('a 20,000-character value fed 50 characters at a time: at least 100 pieces, the first before the parameter closes, the joined text that of the option off', () => {
    const value = 'x'.repeat(2) + 'line "quoted" \\ 中文 &amp; tab\t\n'.repeat(700).slice(0, 19996) + 'yy'
    const leak = `Writing.\n${open('tool_calls')}\n${invoke('write_file', [param('path', 'a.txt'), param('content', value)])}\n${close('tool_calls')}`
    const chunks = piecesOf(leak, 50)
    const closerAt = leak.indexOf(close('parameter'), leak.indexOf(value))
    const sanitizer = createDsmlSanitizer(ON)
    const events: SanitizerEvent[] = []
    let firstDeltaAt = -1
    let fed = 0
    for (const chunk of chunks) {
      for (const event of sanitizer.feed(chunk)) {
        if (event.type === 'tool-call-delta' && firstDeltaAt === -1) firstDeltaAt = fed
        events.push(event)
      }
      fed += chunk.length
    }
    events.push(...sanitizer.end())
    const [streamed] = streamedCalls(events)
    assert(streamed !== undefined && streamed.deltas >= 100, `${streamed?.deltas} pieces`)
    assert(firstDeltaAt !== -1 && firstDeltaAt < closerAt, `the first piece by input offset ${firstDeltaAt}, the closer at ${closerAt}`)
    assertEqual(streamed!.joined, JSON.stringify(sanitizeText(leak).calls[0]!.arguments))
  })

  test('the call is announced as soon as its invoke goes on past the opener (a text ending right after an opener announces nothing)', () => {
    const leak = `${open('tool_calls')}\n${open('invoke', { name: 'bash' })}\n${param('command', 'ls')}\n${close('invoke')}\n${close('tool_calls')}`
    const invokeEnd = leak.indexOf('>', leak.indexOf('name="bash"')) + 1
    const parameterEnd = leak.indexOf('>', leak.indexOf('name="command"')) + 1
    const sanitizer = createDsmlSanitizer(ON)
    const delta = (event: SanitizerEvent): string => (event.type === 'tool-call-delta' ? event.delta : event.type)
    assertEqual(sanitizer.feed(leak.slice(0, invokeEnd)), [])
    assertEqual(sanitizer.feed('\n').map(delta), ['tool-call-start', '{'])
    assertEqual(sanitizer.feed(leak.slice(invokeEnd + 1, parameterEnd)).map(delta), ['"command":"'])
    const bare = run([`${open('tool_calls')}\n${open('invoke', { name: 'bash' })}`])
    assertEqual(bare.filter((event) => event.type === 'tool-call-start' || event.type === 'tool-call').length, 0)
  })

  test('joined pieces are the same at every split and one code point at a time', () => {
    const leak = `A ${block([invoke('edit', [param('path', 'src/a&amp;b.ts'), param('count', '3', { string: 'false' }), param('text', '\nfirst &lt;line&gt;\r\nsecond 😀\n')])])} B`
    const whole = streamedCalls(run([leak]))
    assertEqual(whole.length, 1)
    for (let at = 1; at < leak.length; at++) assertEqual(streamedCalls(run([leak.slice(0, at), leak.slice(at)])).map((call) => call.joined), [whole[0]!.joined], `split at ${at}`)
    assertEqual(streamedCalls(run(codePoints(leak))).map((call) => call.joined), [whole[0]!.joined])
    assertEqual(whole[0]!.joined, JSON.stringify({ path: 'src/a&b.ts', count: 3, text: 'first <line>\r\nsecond 😀' }))
  })

  test('cut off by the end of the text: the call still ends, its pieces stay cut (as a native call\'s at a length limit), with a diagnostic', () => {
    const leak = `Go.\n${open('tool_calls')}\n${open('invoke', { name: 'write_file' })}\n${param('path', 'a.txt')}\n${open('parameter', { name: 'content', string: 'true' })}first line\nsecond li`
    const events = run([leak])
    const [streamed] = streamedCalls(events)
    assertEqual(streamed!.call, { id: streamed!.call!.id, name: 'write_file', arguments: { path: 'a.txt' } })
    assert(streamed!.joined.startsWith('{"path":"a.txt","content":"first line'), streamed!.joined.slice(0, 60))
    assert(events.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'dropped-markup' && event.diagnostic.text === ''), 'a diagnostic says it was cut off')
    assertEqual(textOf(events), 'Go.\n')
  })

  test('a missing required argument found at the end gives a diagnostic, not a removal; an undeclared tool is never announced', () => {
    const tools = [{ name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }]
    const missing = run([block([invoke('read', [param('file', 'a.txt')])])], { ...ON, tools })
    assertEqual(streamedCalls(missing).map((call) => call.call?.arguments), [{ file: 'a.txt' }])
    assert(missing.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'schema-mismatch'), 'schema-mismatch reported')
    const undeclared = run([block([invoke('rm_rf', [param('path', '/')])])], { ...ON, knownTools: ['read'] })
    assertEqual([streamedCalls(undeclared).length, undeclared.filter((event) => event.type === 'tool-call').length], [0, 0])
  })

  test('a parameter read twice: the call ends as streamed, and says its arguments differ (stream-mismatch)', () => {
    const events = run([block([invoke('edit', [param('path', 'a'), param('path', 'b')])])])
    const [streamed] = streamedCalls(events)
    assertEqual(streamed!.call?.arguments, { path: 'b' })
    assert(events.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'stream-mismatch'), 'stream-mismatch reported')
  })

  test('StringValuePieces: what it gives is always a prefix of the value read whole (entities, hugging line breaks, surrogates); CDATA is not streamed', () => {
    for (const raw of ['\nplain\n', '\r\nx&amp;y&lt;\r\n', 'a&am', '&quot;q&quot;', 'tail &', '😀😀', '\n\n', 'x\r', '  <![CDATA[<a>]]>']) {
      const whole = typeValue(raw, 'true').value as string
      for (let size = 1; size <= 3; size++) {
        const pieces = new StringValuePieces()
        let given = ''
        for (const piece of piecesOf(raw, size)) {
          given += pieces.push(piece)
          assert(whole.startsWith(given), `${JSON.stringify(raw)} by ${size}: ${JSON.stringify(given)} is not a prefix of ${JSON.stringify(whole)}`)
        }
        if (raw.includes('CDATA')) assertEqual([pieces.streams, given], [false, ''])
      }
    }
  })
})
