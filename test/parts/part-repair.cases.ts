/**
 * part-repair.ts: the one part pipeline (part sanitizer, then synthesizer)
 * every entry point runs. The interleaving property of the one-pipeline
 * issue: content, reasoning, native tool-call, usage, comment and chunk-end
 * parts inserted at random offsets of random leaks give no marker in either
 * channel, conservation per channel, and — without a native call — the same
 * emitted calls as the leak alone; with a native call anywhere, none
 * (native calls win), every recovered call reported withheld.
 */
import fc from 'fast-check'
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import type { Channel, Part } from '../../src/parts/part.ts'
import { createPartRepair, type PartRepairOptions, type RecoveredCallPart } from '../../src/parts/part-repair.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, eos, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { propertyRuns } from '../support/runs.ts'

interface Ran {
  out: Part[]
  recovered: RecoveredCallPart[]
}

function run(parts: readonly Part[], options: PartRepairOptions = {}): Ran {
  const out: Part[] = []
  const recovered: RecoveredCallPart[] = []
  const repair = createPartRepair(options, { emit: (part) => out.push(part), recovered: (part) => recovered.push(part) })
  for (const part of parts) repair.feed(part)
  repair.end()
  return { out, recovered }
}

const emitted = (out: readonly Part[]): unknown[] =>
  out.flatMap((part) => (part.type === 'synthesized-tool-call' ? [[part.call.name, part.call.arguments, part.channel]] : []))

const LEAKS = [
  block([invoke('bash', [param('command', 'ls')])]),
  `Let me look.\n${block([invoke('read', [param('path', 'a.md')])])}\nDone.${eos()}`,
  block([invoke('read', [param('path', 'a.md')]), invoke('bash', [param('command', 'ls')])]),
]

const NATIVE: Part = { type: 'native-tool-call', index: 0, id: 'call_native', name: 'edit', arguments: '{"path":"b"}' }

export const suite = defineSuite('parts/part-repair', (test) => {
  test('a leak through the pipeline: clean text, the call emitted before the finish, stop → tool_calls, recovered-call named', () => {
    const { out, recovered } = run([{ type: 'text', text: `Hi ${LEAKS[0]!}` }, { type: 'finish', reason: 'stop' }], { generateId: () => 'call_1' })
    assertEqual(out.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text).join(''), 'Hi ', 'clean text')
    assertEqual(out.map((part) => part.type).slice(-3), ['synthesized-tool-call', 'diagnostic', 'finish'], 'call, its diagnostic, the finish')
    assertEqual((out.at(-1) as { reason: string }).reason, 'tool_calls', 'finish rewritten')
    assertEqual(recovered.map((part) => part.call.name), ['bash'], 'the sink saw the recovered call')
  })

  test('end without a finish: held text resolved and closed by a chunk-end, the call withheld (fail closed)', () => {
    const { out } = run([{ type: 'text', text: `a ${LEAKS[0]!.slice(0, 20)}` }])
    const types = out.map((part) => part.type)
    assert(types.includes('chunk-end'), `a chunk-end closes what the end resolved: ${types.join(', ')}`)
    assertEqual(emitted(out), [], 'nothing emitted')
  })

  test('property (interleaving): other parts anywhere in a leak — a native call too — leak no marker, keep every character per channel, and settle as the leak alone would (or as native calls win)', () => {
    const others: Part[] = [
      { type: 'usage', usage: { total_tokens: 1 } },
      { type: 'comment', comment: 'keep-alive' },
      { type: 'chunk-end' },
      { type: 'text', text: '' },
      { type: 'reasoning', text: '' },
      NATIVE,
    ]
    fc.assert(
      fc.property(
        fc.constantFrom(...LEAKS),
        fc.constantFrom<Channel>('text', 'reasoning'),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: others.length }), fc.string({ maxLength: 6 })), { maxLength: 6 }),
        (leak, channel, inserts) => {
          const other: Channel = channel === 'text' ? 'reasoning' : 'text'
          const cuts = [...new Set(inserts.map(([at]) => at % (leak.length + 1)))].sort((a, b) => a - b)
          const parts: Part[] = []
          let previous = 0
          cuts.forEach((cut, index) => {
            parts.push({ type: channel, text: leak.slice(previous, cut) })
            const [, which, words] = inserts[index]!
            parts.push(which === others.length ? { type: other, text: words } : others[which]!)
            previous = cut
          })
          parts.push({ type: channel, text: leak.slice(previous) }, { type: 'finish', reason: 'stop' })
          const mixed = run(parts)
          const alone = run([{ type: channel, text: leak }, { type: 'finish', reason: 'stop' }])
          if (parts.includes(NATIVE)) {
            assertEqual(emitted(mixed.out), [], 'a native call: no recovered call is emitted')
            const withheld = mixed.out.filter((part) => part.type === 'diagnostic' && part.diagnostic.toolCallId !== undefined)
            assertEqual(withheld.length, mixed.recovered.length, 'each recovered call reported withheld')
            assert(withheld.every((part) => part.type === 'diagnostic' && part.diagnostic.kind === 'suppressed-call'), 'suppressed-call')
          } else {
            assertEqual(emitted(mixed.out), emitted(alone.out), 'the same calls as the leak alone')
          }
          for (const side of ['text', 'reasoning'] as const) {
            const shown = mixed.out.map((part) => (part.type === side ? part.text : '')).join('')
            assert(!containsDsmlSentinel(shown), `no marker in ${side}: ${JSON.stringify(shown)}`)
            // Removed: the markup of each recovered call, and the engine's diagnostics (the settlement's restate a call's markup).
            const sources = mixed.recovered.filter((part) => (part.channel ?? 'text') === side).map((part) => part.source).join('')
            const dropped = mixed.out
              .map((part) => (part.type === 'diagnostic' && (part.channel ?? 'text') === side && part.diagnostic.toolCallId === undefined ? part.diagnostic.text : ''))
              .join('')
            const given = parts.map((part) => (part.type === side ? part.text : '')).join('')
            assertEqual(shown.length + sources.length + dropped.length, given.length, `${side}: every character shown or accounted for`)
          }
        },
      ),
      { numRuns: propertyRuns(300) },
    )
  })
})
