/**
 * The Anthropic Messages repair's fused shortcut (text-delta shapes), checked
 * against the core with the shortcut off: the same bytes and diagnostics on
 * every capture, and the shortcut really taken. These reach modules the
 * package does not export (the dialect core and its part options), so they
 * run on the sources only; test/anthropic/dialect.cases.ts holds the public
 * behaviour, which also runs against the built package.
 */
import { createAnthropicDecoder, createAnthropicEncoder } from '../../src/anthropic/index.ts'
import { anthropicPartOptions } from '../../src/anthropic/repair.ts'
import { ALL_SHORTCUTS, createDialectRepair, NO_SHORTCUTS } from '../../src/dialect-kit/dialect-repair.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { captures } from '../support/captures.ts'
import { block, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { fold, message, textBlock, thinkingBlock, toolUseIds } from './support.ts'

function perEvent(sse: string): string[] {
  return sse.split(/(?<=\n\n)/)
}

export const suite = defineSuite('anthropic/shortcuts', (test) => {
  test('text-delta shapes (the fused shortcut): the core with and without them gives the same bytes and diagnostics, every capture, one event per read', () => {
    let shortcutTaken = 0
    for (const capture of captures) {
      const reads = perEvent(message(textBlock(0, tokenChunks(capture.input))))
      const run = (shapes: boolean): { output: string; diagnostics: unknown[] } => {
        const diagnostics: unknown[] = []
        const core = createDialectRepair(createAnthropicDecoder(), createAnthropicEncoder(), anthropicPartOptions({ generateId: toolUseIds(), onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) }), {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS)
        let output = ''
        for (const read of reads) {
          const out = core.feed(read)
          output += out ?? core.text()
        }
        return { output: output + core.end(), diagnostics }
      }
      const withShapes = run(true)
      assertEqual(withShapes, run(false), capture.id)
      shortcutTaken += reads.length
    }
    assert(shortcutTaken > 0, 'reads were made')
    // The shortcut is taken: a decoder that would throw on a second parse is never asked for the shaped events.
    const decoder = createAnthropicDecoder()
    let fed = 0
    const counting = { feed: (message: Parameters<typeof decoder.feed>[0]) => (fed++, decoder.feed(message)), textSpan: decoder.textSpan.bind(decoder) }
    const core = createDialectRepair(counting, createAnthropicEncoder(), anthropicPartOptions({}), {})
    for (const read of perEvent(message(textBlock(0, ['a', 'b', 'c', 'd', 'e'])))) core.feed(read)
    assert(fed < 10, `deltas after the first plain one are not decoded (${fed} of 10 events decoded)`)
  })

  test('shaped reads: text deltas of the shape whose text is not plain are read without parsing, and written as parsed ones are', () => {
    const leak = block([invoke('bash', [param('command', 'ls')])])
    const streams = [
      // A shape, then deltas the pipeline holds and changes: markup, and prose with a `<` in it.
      message(textBlock(0, ['Sure.', ' Let me', ...tokenChunks(`${leak} then a < b and `), 'done.'])),
      // A thinking block first (always written), then the text block: its deltas' shape names index 1.
      message(`${thinkingBlock(0, ['Think', 'ing.'])}${textBlock(1, ['Plain', ' text', ' after', ...tokenChunks(` a ${leak}`), ' end.'])}`),
    ]
    for (const sse of streams) {
      const run = (shapes: boolean): { output: string; decoded: number } => {
        const decoder = createAnthropicDecoder()
        let decoded = 0
        const counting = { feed: (read: Parameters<typeof decoder.feed>[0]) => (decoded++, decoder.feed(read)), textSpan: decoder.textSpan.bind(decoder), shapedParts: decoder.shapedParts.bind(decoder) }
        const core = createDialectRepair(counting, createAnthropicEncoder(), anthropicPartOptions({ generateId: toolUseIds() }), {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS)
        let output = ''
        for (const read of perEvent(sse)) output += core.feed(read) ?? core.text()
        return { output: output + core.end(), decoded }
      }
      const shaped = run(true)
      const parsed = run(false)
      assertEqual(shaped.output, parsed.output, 'the same bytes')
      assert(shaped.decoded < parsed.decoded - 5, `deltas are read without parsing (${shaped.decoded} of ${parsed.decoded} events decoded)`)
      assert(fold(shaped.output).content.some((entry) => entry.type === 'tool_use'), 'the call is recovered')
    }
  })

  test('shaped reads: one the encoder writes back as it came goes out as it came; one with bytes that were not UTF-8 is written again', () => {
    const utf8 = new TextEncoder()
    const reads = perEvent(message(textBlock(0, ['Plain', ' text', ' a < b', ' bad #', ' end'])))
    // The "#" is one byte that is not UTF-8: read as U+FFFD, which is written back as its own three bytes.
    const bytes = reads.map((read) => {
      const encoded = utf8.encode(read)
      if (read.includes(' bad #')) encoded[encoded.indexOf(0x23)] = 0xff
      return encoded
    })
    const run = (shortcuts: typeof ALL_SHORTCUTS): Array<string | undefined> => {
      const core = createDialectRepair(createAnthropicDecoder(), createAnthropicEncoder(), anthropicPartOptions({}), {}, shortcuts)
      return [...bytes.map((read) => core.feed(read)), core.end()]
    }
    const shaped = run(ALL_SHORTCUTS)
    const index = (piece: string): number => reads.findIndex((read) => read.includes(piece))
    assertEqual(shaped[index(' a < b')], undefined, 'a text that is not plain, read without parsing and written back unchanged: out as it came')
    assertEqual(shaped[index(' bad ')]?.includes('bad \uFFFD'), true, 'a U+FFFD read from bytes is written again, not forwarded as the bytes it came as')
    // All the bytes that go out, as one sequence: a read forwarded as it came is its own bytes, 0xFF included.
    const bytesOut = (outputs: Array<string | undefined>): string =>
      outputs.flatMap((out, at) => Array.from(out === undefined ? (bytes[at] ?? new Uint8Array()) : utf8.encode(out))).join(',')
    assertEqual(bytesOut(shaped), bytesOut(run(NO_SHORTCUTS)), 'the same bytes as without shortcuts')
  })

  test('a call streamed as it forms ends the text block: a later delta of the shape, plain or passed as it is, goes to the block that follows it', () => {
    // The text after a streamed call opens the text block again at the next number; forwarded as it came, a delta
    // would write to the block the call ended.
    for (const after of [' more', '\nmore', ' more\n', '\n\nmore']) {
      const reads = perEvent(message(textBlock(0, ['Lead', ' in', block([invoke('bash', [param('command', 'ls')])]), 'hello', after, ' end'])))
      const run = (shapes: boolean): string => {
        const core = createDialectRepair(createAnthropicDecoder(), createAnthropicEncoder(), anthropicPartOptions({ streamToolCalls: true, generateId: toolUseIds() }), {}, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS)
        let output = ''
        for (const read of reads) output += core.feed(read) ?? core.text()
        return output + core.end()
      }
      const withShapes = run(true)
      assertEqual(fold(withShapes).faults, [], `${JSON.stringify(after)}: every delta to an open block`)
      assertEqual(withShapes, run(false), `${JSON.stringify(after)}: the same bytes as without shortcuts`)
    }
  })
})
