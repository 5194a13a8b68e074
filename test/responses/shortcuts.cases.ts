/**
 * The OpenAI Responses repair's fused shortcut (text-delta shapes, sequence
 * numbers a second hole), checked against the core with the shortcut off: the
 * same bytes and diagnostics on every capture, the shortcut really taken, and
 * no shape where a delta nests its own key. These reach modules the package
 * does not export (the dialect core and its part options), so they run on the
 * sources only; test/responses/dialect.cases.ts holds the public behaviour,
 * which also runs against the built package.
 */
import { createResponsesDecoder, createResponsesEncoder } from '../../src/responses/index.ts'
import { responsesPartOptions } from '../../src/responses/repair.ts'
import { ALL_SHORTCUTS, createDialectRepair, NO_SHORTCUTS } from '../../src/dialect-kit/dialect-repair.ts'
import type { DialectDecoder } from '../../src/dialect-kit/dialect-hooks.ts'
import type { JsonAroundKnown } from '../../src/json-known-strings.ts'
import fc from 'fast-check'
import { assert, assertEqual } from '../support/assert.ts'
import { propertyRuns } from '../support/runs.ts'
import { captures } from '../support/captures.ts'
import { block, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { callIds, foldResponses, responsesEvents } from './support.ts'

type Event = Record<string, unknown> & { type: string }

/** Event objects as SSE, numbered in order. */
function frame(events: readonly Event[]): string {
  return events.map((event, sequence) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`).join('')
}

/** A Responses decoder, every hook passed on, that tells `onFeed` what each message it is fed came with: the stretches around known texts, or nothing. */
function watchedDecoder(onFeed: (data: JsonAroundKnown | undefined) => void): DialectDecoder {
  const decoder = createResponsesDecoder()
  return {
    feed: (message, data) => {
      onFeed(data)
      return decoder.feed(message, data)
    },
    textSpan: decoder.textSpan.bind(decoder),
    counterSpan: decoder.counterSpan.bind(decoder),
    shapedParts: decoder.shapedParts.bind(decoder),
    repeatedIn: decoder.repeatedIn.bind(decoder),
  }
}

export const suite = defineSuite('responses/shortcuts', (test) => {
  test('text-delta shapes (the fused shortcut, sequence numbers a second hole): the core with and without them gives the same bytes and diagnostics, every capture, one event per read, calls whole and streamed', () => {
    for (const capture of captures) {
      const reads = responsesEvents('t', 'm', tokenChunks(capture.input), 5, 1)
      const run = (shapes: boolean, streamToolCalls: boolean): { output: string; diagnostics: unknown[] } => {
        const diagnostics: unknown[] = []
        const options = responsesPartOptions({ generateId: callIds(), streamToolCalls, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) })
        const core = createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), options, {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS)
        let output = ''
        for (const read of reads) output += core.feed(read) ?? core.text()
        return { output: output + core.end(), diagnostics }
      }
      for (const streamToolCalls of [false, true]) assertEqual(run(true, streamToolCalls), run(false, streamToolCalls), `${capture.id}, streamToolCalls ${streamToolCalls}`)
    }
    const decoder = createResponsesDecoder()
    let fed = 0
    const counting = { feed: (message: Parameters<typeof decoder.feed>[0]) => (fed++, decoder.feed(message)), textSpan: decoder.textSpan.bind(decoder), counterSpan: decoder.counterSpan.bind(decoder) }
    const core = createDialectRepair(counting, createResponsesEncoder(), responsesPartOptions({}), {})
    const reads = responsesEvents('t', 'm', ['a', 'b', 'c', 'd', 'e'], 1, 1)
    let output = ''
    for (const read of reads) output += core.feed(read) ?? core.text()
    assertEqual(output + core.end(), reads.join(''), 'plain: the same bytes')
    assert(fed < reads.length - 3, `deltas after the first plain one are not decoded (${fed} of ${reads.length} events decoded)`)
  })

  test('text-delta shapes cut at the text the decoder read: a delta event that nests its own key again ("meta":{"delta":…}) is no shape, so the clean text its .done repeats is the deltas\' (with and without shapes, the same bytes)', () => {
    const item = { item_id: 'm', output_index: 0, content_index: 0 }
    const events: Event[] = [
      { type: 'response.output_text.delta', ...item, delta: 'hi', meta: { delta: 'hi' } },
      { type: 'response.output_text.delta', ...item, delta: 'hi', meta: { delta: 'yo' } },
      { type: 'response.output_text.done', ...item, text: 'hihi' },
    ]
    const run = (shapes: boolean): string => {
      const core = createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), responsesPartOptions({}), {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS)
      let output = ''
      for (const read of frame(events).split(/(?<=\n\n)/)) output += core.feed(read) ?? core.text()
      return output + core.end()
    }
    assertEqual(run(true), run(false))
    assertEqual(run(true), frame(events), 'nothing to change: the stream as it came')
  })

  test('shaped reads (the number a second hole): output text deltas of the shape whose text is not plain are read without parsing; untouched ones go out as they came, changed ones are written from their parts, still unparsed (the same bytes)', () => {
    const leak = block([invoke('bash', [param('command', 'ls')])])
    const pieces = ['Sure.', ' Here', ' is\n', 'a line\n', 'and `code`\n', ...tokenChunks(` then ${leak} and `), 'done.']
    const run = (shapes: boolean): { output: string; decoded: number; deltasParsed: number } => {
      const decoder = createResponsesDecoder()
      let decoded = 0
      let deltasParsed = 0
      const counting = {
        feed: (read: Parameters<typeof decoder.feed>[0]) => (decoded++, decoder.feed(read)),
        textSpan: decoder.textSpan.bind(decoder),
        counterSpan: decoder.counterSpan.bind(decoder),
        shapedParts: decoder.shapedParts.bind(decoder),
      }
      const core = createDialectRepair(counting, createResponsesEncoder(), responsesPartOptions({ generateId: callIds() }), {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS)
      let output = ''
      const parse = JSON.parse
      // Every parse of a delta event, by the decoder or by the encoder asking a read for its event (`ShapedOrigin.chunk`).
      JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
        if (text.startsWith('{"type":"response.output_text.delta"')) deltasParsed++
        return parse(text, reviver)
      }
      try {
        for (const read of responsesEvents('t', 'm', pieces, 5, 1)) output += core.feed(read) ?? core.text()
        output += core.end()
      } finally {
        JSON.parse = parse
      }
      return { output, decoded, deltasParsed }
    }
    const shaped = run(true)
    const parsed = run(false)
    assertEqual(shaped.output, parsed.output, 'the same bytes')
    assert(shaped.decoded < parsed.decoded - 8, `deltas read without parsing (${shaped.decoded} of ${parsed.decoded} events decoded)`)
    assert(parsed.deltasParsed > 20, `the leak's deltas are parsed without shapes (${parsed.deltasParsed})`)
    // With shapes: the first delta, read whole, and the shape's template (its text empty, its number 0), once for the decoder and once for the encoder.
    assertEqual(shaped.deltasParsed, 3, `with shapes, no delta is parsed after the shape is made, changed or not (${shaped.deltasParsed} of ${parsed.deltasParsed})`)
  })

  test('closing events of a long text: after its .done, the events that repeat the text are parsed without it, and the bytes are those of each event parsed whole (a leak in the text or not)', () => {
    const line = 'A long answer: "quoted", a back\\slash, caf\u00e9 \u2014 and more text to repeat.\n'
    // Without `event:` lines the decoder cannot tell a repeating event before parsing it, so it parses each whole.
    const unnamed = (sse: string): string => sse.replace(/^event: .*\n/gm, '')
    for (const leak of ['', block([invoke('bash', [param('command', 'ls')])])]) {
      const pieces = [...Array.from({ length: 80 }, () => line), ...tokenChunks(leak), 'done.']
      const run = (named: boolean): { output: string; longest: number } => {
        const core = createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), responsesPartOptions({ generateId: callIds() }), {}, ALL_SHORTCUTS)
        let output = ''
        let longest = 0
        const parse = JSON.parse
        // The longest text the parser is given for an event that repeats the text after its .done.
        JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
          if (/^\{"type":"response\.(content_part\.done|output_item\.done|completed)"/.test(text)) longest = Math.max(longest, text.length)
          return parse(text, reviver)
        }
        try {
          for (const read of responsesEvents('t', 'm', pieces, 5, 1)) output += core.feed(named ? read : unnamed(read)) ?? core.text()
          output += core.end()
        } finally {
          JSON.parse = parse
        }
        return { output, longest }
      }
      const known = run(true)
      const whole = run(false)
      const text = pieces.join('').length
      assert(known.longest > 0 && known.longest < text / 4, `the repeating events are parsed without the text (${known.longest} characters at most, the text ${text})`)
      assert(whole.longest > text, `without event names each is parsed whole (${whole.longest})`)
      assertEqual(unnamed(known.output), unnamed(whole.output), 'the same bytes, event names aside')
      const folded = foldResponses(known.output)
      assertEqual(folded.faults, [], 'a well-formed stream')
      assertEqual(folded.allText.includes('DSML'), false, 'no marker in any event')
    }
  })

  test('closing events read as bytes (repeated texts): each event after a long .done that repeats its text, one per read, is decoded around the text\'s bytes, never decoding or parsing the text again; the bytes are the core\'s without shortcuts, and as read from strings (a leak or not; reads cut otherwise decode whole)', () => {
    const line = 'A long answer: "quoted", a back\\slash, caf\u00e9 \u2014 \u{1F600} and more text to repeat.\n'
    const encoder = new TextEncoder()
    for (const leak of ['', block([invoke('bash', [param('command', 'ls')])])]) {
      const pieces = [...Array.from({ length: 80 }, () => line), ...tokenChunks(leak), 'done.']
      const events = responsesEvents('t', 'm', pieces, 5, 1)
      const text = pieces.join('')
      const closing = events.slice(-4).join('')
      // One event per read; the closing events cut in the middle of each; all four in one read.
      const cuts: Array<[string, string[]]> = [
        ['one event per read', events],
        ['closing events cut in two', [...events.slice(0, -4), ...events.slice(-4).flatMap((event) => [event.slice(0, event.length >> 1), event.slice(event.length >> 1)])]],
        ['closing events in one read', [...events.slice(0, -4), closing]],
      ]
      const run = (reads: readonly string[], asBytes: boolean, shortcuts: typeof ALL_SHORTCUTS): { output: string; around: number; longestDecode: number; longestParse: number } => {
        let around = 0
        const decoder = watchedDecoder((data) => (around += data === undefined ? 0 : 1))
        const core = createDialectRepair(decoder, createResponsesEncoder(), responsesPartOptions({ generateId: callIds() }), {}, shortcuts)
        let output = ''
        let longestDecode = 0
        let longestParse = 0
        const decode = TextDecoder.prototype.decode
        const parse = JSON.parse
        TextDecoder.prototype.decode = function (input?: AllowSharedBufferSource, options?: TextDecodeOptions) {
          longestDecode = Math.max(longestDecode, input === undefined ? 0 : input.byteLength)
          return decode.call(this, input, options)
        }
        JSON.parse = (source: string, reviver?: Parameters<typeof parse>[1]) => {
          if (/^\{"type":"response\.(content_part\.done|output_item\.done|completed)"/.test(source)) longestParse = Math.max(longestParse, source.length)
          return parse(source, reviver)
        }
        try {
          for (const read of reads) output += core.feed(asBytes ? encoder.encode(read) : read) ?? core.text()
          output += core.end()
        } finally {
          TextDecoder.prototype.decode = decode
          JSON.parse = parse
        }
        return { output, around, longestDecode, longestParse }
      }
      const expected = run(events, false, NO_SHORTCUTS).output
      for (const [name, reads] of cuts) {
        const bytes = run(reads, true, ALL_SHORTCUTS)
        assertEqual(bytes.output, expected, `${name}: the bytes without shortcuts`)
        assertEqual(run(reads, false, ALL_SHORTCUTS).output, expected, `${name}: the bytes read from strings`)
        assertEqual(run(reads, true, { ...ALL_SHORTCUTS, repeatedTexts: false }).output, expected, `${name}: the bytes without repeated texts`)
        if (name === 'one event per read') {
          assertEqual(bytes.around, 3, 'the three events after the .done read around the text')
          // The longest read decoded is the .done's (its text is not known before it); none after it is decoded whole.
          const doneBytes = encoder.encode(events.at(-4)!).length
          assertEqual(bytes.longestDecode, doneBytes, `the longest read decoded is the .done (${bytes.longestDecode} bytes)`)
          assert(bytes.longestParse > 0 && bytes.longestParse < text.length / 4, `the repeating events are parsed without the text (${bytes.longestParse} characters at most)`)
        } else {
          assertEqual(bytes.around, 0, `${name}: no read is one event that repeats the text: decoded whole`)
        }
      }
      const folded = foldResponses(expected)
      assertEqual(folded.faults, [], 'a well-formed stream')
    }
  })

  test('repeated texts, two in one event: a reasoning summary and an answer, both long, both repeated by response.completed (the answer with a leak), read as bytes: the same bytes as without shortcuts, both texts found', () => {
    const summary = `Thinking about it: ${'step "one", then caf\u00e9 \u2014 two. '.repeat(160)}`
    const answer = `${'The answer, line by line.\n'.repeat(200)}${block([invoke('bash', [param('command', 'ls')])])} done.`
    const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: summary }] }
    const message = { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: answer, annotations: [] }] }
    const events: Event[] = [
      { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
      ...summary.match(/[\s\S]{1,40}/g)!.map((delta) => ({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta })),
      { type: 'response.reasoning_summary_text.done', item_id: 'rs_1', output_index: 0, summary_index: 0, text: summary },
      { type: 'response.reasoning_summary_part.done', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: summary } },
      { type: 'response.output_item.done', output_index: 0, item: reasoning },
      { type: 'response.output_item.added', output_index: 1, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
      { type: 'response.content_part.added', item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
      ...tokenChunks(answer).map((delta) => ({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta, logprobs: [] })),
      { type: 'response.output_text.done', item_id: 'msg_1', output_index: 1, content_index: 0, text: answer, logprobs: [] },
      { type: 'response.content_part.done', item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: answer, annotations: [] } },
      { type: 'response.output_item.done', output_index: 1, item: message },
      { type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [reasoning, message] } },
    ]
    const reads = frame(events).split(/(?<=\n\n)/)
    const encoder = new TextEncoder()
    const run = (shortcuts: typeof ALL_SHORTCUTS): { output: string; found: number[] } => {
      const found: number[] = []
      const decoder = watchedDecoder((data) => data !== undefined && found.push(data.known.length))
      const core = createDialectRepair(decoder, createResponsesEncoder(), responsesPartOptions({ generateId: callIds() }), {}, shortcuts)
      let output = ''
      for (const read of reads) output += core.feed(encoder.encode(read)) ?? core.text()
      return { output: output + core.end(), found }
    }
    const shortcut = run(ALL_SHORTCUTS)
    assertEqual(shortcut.output, run(NO_SHORTCUTS).output, 'the same bytes')
    // The summary's part.done and item.done (one text each), the answer's two and response.completed (both texts).
    assertEqual(shortcut.found, [1, 1, 1, 1, 2], 'the texts found in each event that repeats them')
    const folded = foldResponses(shortcut.output)
    assertEqual(folded.faults, [], 'a well-formed stream')
    assertEqual(folded.allText.includes('DSML'), false, 'no marker in any event')
  })

  test('property: repeated texts are exact — any long text (a leak in it or not), closing events that repeat it, change it, carry it elsewhere, come twice, lose a field or are not JSON, read as bytes: the same bytes and diagnostics as the core without shortcuts', () => {
    const leak = block([invoke('bash', [param('command', 'ls')])])
    const piece = fc.constantFrom('plain words, ', 'caf\u00e9 \u2014 \u6f22\u5b57 ', '\u{1F600}', 'q"uote\\ ', 'line\n', 'tab\t', leak.slice(0, 9), leak.slice(9), ' <b>')
    const item = { item_id: 'm', output_index: 0, content_index: 0 }
    fc.assert(
      fc.property(fc.array(piece, { minLength: 300, maxLength: 400 }), fc.array(fc.nat(9), { minLength: 4, maxLength: 4 }), (pieces, changes) => {
        const text = pieces.join('')
        const part = { type: 'output_text', text, annotations: [] }
        const message = { id: 'm', type: 'message', status: 'completed', role: 'assistant', content: [part] }
        /** Each closing event as it comes, or changed: another text, the text under another key too, twice, without its text, not JSON. */
        const closing = (event: Event, change: number): string[] => {
          const [written] = frame([event]).split('\n\n')
          const named = written!.replace(/"sequence_number":\d+/, '"sequence_number":SEQ')
          switch (change) {
            case 1:
              return [named.replaceAll(JSON.stringify(text), JSON.stringify(`${text}!`))]
            case 2:
              return [named.replace('{"type"', `{"echo":${JSON.stringify(text)},"type"`)]
            case 3:
              return [named, named]
            case 4:
              return [named.replaceAll(JSON.stringify(text), '""')]
            case 5:
              return [named.replace('{"type"', '{"type":')]
            default:
              return [named]
          }
        }
        const opening: Event[] = [
          { type: 'response.created', response: { id: 'r', status: 'in_progress', output: [] } },
          { type: 'response.content_part.added', ...item, part: { type: 'output_text', text: '', annotations: [] } },
          ...pieces.map((delta) => ({ type: 'response.output_text.delta', ...item, delta, logprobs: [] })),
        ]
        const ending: Event[] = [
          { type: 'response.output_text.done', ...item, text, logprobs: [] },
          { type: 'response.content_part.done', ...item, part },
          { type: 'response.output_item.done', output_index: 0, item: message },
          { type: 'response.completed', response: { id: 'r', status: 'completed', output: [message] } },
        ]
        const events = [...frame(opening).split(/(?<=\n\n)/), ...ending.flatMap((event, index) => closing(event, changes[index]!).map((written) => `${written}\n\n`))]
        let sequence = opening.length
        const reads = events.map((event) => new TextEncoder().encode(event.replace('SEQ', String(sequence++))))
        const run = (shortcuts: typeof ALL_SHORTCUTS): { output: string; diagnostics: unknown[] } => {
          const diagnostics: unknown[] = []
          const core = createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), responsesPartOptions({ generateId: callIds(), onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) }), {}, shortcuts)
          let output = ''
          for (const read of reads) output += core.feed(read) ?? core.text()
          return { output: output + core.end(), diagnostics }
        }
        assertEqual(run(ALL_SHORTCUTS), run(NO_SHORTCUTS))
      }),
      { numRuns: propertyRuns(40) },
    )
  })
})
