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
import { assert, assertEqual } from '../support/assert.ts'
import { captures } from '../support/captures.ts'
import { block, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { callIds, foldResponses, responsesEvents } from './support.ts'

type Event = Record<string, unknown> & { type: string }

/** Event objects as SSE, numbered in order. */
function frame(events: readonly Event[]): string {
  return events.map((event, sequence) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`).join('')
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
})
