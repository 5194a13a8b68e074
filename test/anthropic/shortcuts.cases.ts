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
import { tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { message, textBlock, toolUseIds } from './support.ts'

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
        const core = createDialectRepair(createAnthropicDecoder(), createAnthropicEncoder(), anthropicPartOptions({ generateId: toolUseIds() }), { onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) }, shapes ? ALL_SHORTCUTS : NO_SHORTCUTS)
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
})
