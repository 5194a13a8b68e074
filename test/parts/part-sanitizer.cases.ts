/**
 * part-sanitizer.ts: the engine on the neutral part stream — two channels,
 * each interrupted by the other or by a native call (`flush`), ended by a
 * finish, an error or the end of the stream. TEST-MATRIX `stream-transition`.
 */
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import { createDsmlPartSanitizer } from '../../src/parts/index.ts'
import type { Part } from '../../src/parts/part.ts'
import { assert, assertEqual } from '../support/assert.ts'
import fc from 'fast-check'
import { block, FW_BAR, invoke, param, WORD } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { propertyRuns } from '../support/runs.ts'

function run(parts: readonly Part[]): Part[][] {
  const sanitizer = createDsmlPartSanitizer()
  return [...parts.map((part) => sanitizer.feed(part)), sanitizer.end()]
}

const textOf = (outputs: readonly Part[][]): string =>
  outputs.flat().map((part) => (part.type === 'text' ? part.text : '')).join('')

const bashBlock = (): string => block([invoke('bash', [param('command', 'ls')])])

const typesOf = (parts: readonly Part[]): string[] => parts.map((part) => part.type)

export const suite = defineSuite('parts/part-sanitizer', (test) => {
  test('stream-transition (channels independent): a reasoning part leaves the held text held; the text decides it', () => {
    const outputs = run([
      { type: 'text', text: 'Hello <parameter name="x">' },
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: ' world' },
    ])
    assertEqual(outputs[1]!, [{ type: 'reasoning', text: 'thinking' }], 'the reasoning goes out; the candidate stays held')
    assertEqual(textOf(outputs), 'Hello <parameter name="x"> world')
  })

  test('stream-transition: a tag start whose marker is undecided waits for the channel\'s next text: no marker joined across the switch', () => {
    const outputs = run([
      { type: 'text', text: `Sure <${FW_BAR}` },
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: `${WORD}${FW_BAR}tool_calls>\n` },
    ])
    assertEqual(outputs[1]!, [{ type: 'reasoning', text: 'hmm' }], 'the tag start stays held')
    assert(!containsDsmlSentinel(textOf(outputs)), `a marker was joined: ${JSON.stringify(textOf(outputs))}`)
    assertEqual(textOf(outputs), 'Sure \n')
    const prose = run([{ type: 'text', text: 'a <' }, { type: 'reasoning', text: 'r' }, { type: 'text', text: 'b' }])
    assertEqual(textOf(prose), 'a <b', 'a plain "<" comes out with the text that decides it')
  })

  test('stream-transition: a native call interrupts like a reasoning part; a finish ends both channels first', () => {
    const native: Part = { type: 'native-tool-call', index: 0, id: 'call_1', name: 'bash', arguments: '{}' } as Part
    const outputs = run([{ type: 'text', text: 'a <' }, native, { type: 'text', text: 'b <' }, { type: 'finish', reason: 'stop' }])
    assertEqual(typesOf(outputs[1]!), ['native-tool-call'], 'the "<" waits past the native call')
    assertEqual(outputs[3]!, [{ type: 'text', text: '<' }, { type: 'finish', reason: 'stop' }], 'and goes out before the finish')
    assertEqual(textOf(outputs), 'a <b <')
  })

  test('stream-transition: text after a finish starts afresh, native calls still noted', () => {
    const sanitizer = createDsmlPartSanitizer()
    sanitizer.noteNativeToolCall({ name: 'bash', arguments: { command: 'ls' } })
    const first = [...sanitizer.feed({ type: 'text', text: 'x <' }), ...sanitizer.feed({ type: 'finish', reason: 'stop' })]
    assertEqual(first, [{ type: 'text', text: 'x ' }, { type: 'text', text: '<' }, { type: 'finish', reason: 'stop' }])
    const after = [...sanitizer.feed({ type: 'text', text: block([invoke('bash', [param('command', 'ls')])]) }), ...sanitizer.end()]
    assertEqual(after.filter((part) => part.type === 'tool-call').length, 0, 'the duplicate of the native call is not made')
    assert(after.some((part) => part.type === 'diagnostic' && part.diagnostic.kind === 'duplicate-call'), 'duplicate-call reported')
  })
  test('flush() interrupts both channels like a native call; endChannel() ends one channel only, and its next text starts afresh', () => {
    const sanitizer = createDsmlPartSanitizer()
    const leak = bashBlock()
    assertEqual(sanitizer.feed({ type: 'text', text: `a ${leak.slice(0, 12)}` }).filter((part) => part.type === 'text').map((part) => (part as { text: string }).text).join(''), 'a ', 'held')
    assertEqual(sanitizer.feed({ type: 'reasoning', text: 'r <' }).map((part) => part.type), ['reasoning'], 'reasoning: "r " out, "<" undecided')
    const flushed = sanitizer.flush()
    assert(flushed.every((part) => part.type !== 'reasoning'), 'an undecided tag start waits for the channel\'s next text')
    assert(sanitizer.heldChars === 1, `only the "<" is held after flush (held ${sanitizer.heldChars})`)
    const ended = sanitizer.endChannel('reasoning')
    assertEqual(ended.map((part) => (part.type === 'reasoning' ? part.text : part.type)), ['<'], 'endChannel resolves everything the channel holds')
    assertEqual(sanitizer.endChannel('text'), [], 'nothing held: nothing to say')
    assertEqual(sanitizer.heldChars, 0, 'both empty')
  })

  test('recoverFromReasoning: false strips markup from reasoning (never a call); the answer still recovers', () => {
    const leak = bashBlock()
    const sanitizer = createDsmlPartSanitizer({ recoverFromReasoning: false, knownTools: ['bash'] })
    const out = [...sanitizer.feed({ type: 'reasoning', text: `r ${leak}` }), ...sanitizer.feed({ type: 'text', text: `t ${leak}` }), ...sanitizer.end()]
    assertEqual(out.filter((part) => part.type === 'tool-call').map((part) => (part as { channel?: string }).channel ?? 'text'), ['text'], 'one call, from the answer')
    assert(out.some((part) => part.type === 'diagnostic' && part.channel === 'reasoning' && part.diagnostic.kind === 'dropped-markup'), 'the reasoning markup reported removed')
    let threw = false
    try {
      createDsmlPartSanitizer({ recoverFromReasoning: 'no' as unknown as boolean })
    } catch (error) {
      threw = error instanceof TypeError && /recoverFromReasoning/.test(error.message)
    }
    assert(threw, 'a non-boolean is a TypeError naming the option')
  })

  test('channels independent (the interleaving defect): content "‹", reasoning "x", content "DSML‹‹DSML‹" leaks no marker', () => {
    const outputs = run([
      { type: 'text', text: FW_BAR },
      { type: 'reasoning', text: 'x' },
      { type: 'text', text: `${WORD}${FW_BAR}${FW_BAR}${WORD}${FW_BAR}` },
    ])
    assert(!containsDsmlSentinel(textOf(outputs)), `no marker in the text: ${JSON.stringify(textOf(outputs))}`)
    assertEqual(outputs.flat().filter((part) => part.type === 'reasoning').map((part) => (part as { text: string }).text).join(''), 'x')
  })

  test('property (channels independent): parts interleaved anywhere in a leak change nothing: same calls, no marker, every character kept per channel', () => {
    const leaks = [bashBlock(), `Let me look.\n${bashBlock()}\nDone.`, block([invoke('read', [param('path', 'a.md')]), invoke('bash', [param('command', 'ls')])])]
    const others: Part[] = [
      { type: 'usage', usage: { total_tokens: 1 } },
      { type: 'comment', comment: 'keep-alive' },
      { type: 'chunk-end' },
      { type: 'text', text: '' },
      { type: 'reasoning', text: '' },
    ]
    fc.assert(
      fc.property(
        fc.constantFrom(...leaks),
        fc.constantFrom<'text' | 'reasoning'>('text', 'reasoning'),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: others.length }), fc.string({ maxLength: 6 })), { maxLength: 6 }),
        (leak, channel, inserts) => {
          const other = channel === 'text' ? 'reasoning' : 'text'
          const cuts = [...new Set(inserts.map(([at]) => at % (leak.length + 1)))].sort((a, b) => a - b)
          const parts: Part[] = []
          let previous = 0
          cuts.forEach((cut, index) => {
            parts.push({ type: channel, text: leak.slice(previous, cut) })
            const [, which, words] = inserts[index]!
            // Either a part of the other channel with some text, or a part that is no text at all.
            parts.push(which === others.length ? { type: other, text: words } : others[which]!)
            previous = cut
          })
          parts.push({ type: channel, text: leak.slice(previous) }, { type: 'finish', reason: 'stop' })
          const plain = run([{ type: channel, text: leak }, { type: 'finish', reason: 'stop' }]).flat()
          const mixed = run(parts).flat()
          const calls = (out: Part[]): unknown[] => out.flatMap((part) => (part.type === 'tool-call' ? [[part.call.name, part.call.arguments, part.channel ?? 'text']] : []))
          assertEqual(calls(mixed), calls(plain), 'the same calls')
          for (const side of ['text', 'reasoning'] as const) {
            const shown = mixed.map((part) => (part.type === side ? part.text : '')).join('')
            assert(!containsDsmlSentinel(shown), `no marker in ${side}: ${JSON.stringify(shown)}`)
            const removed = mixed
              .map((part) => (part.type === 'tool-call' && (part.channel ?? 'text') === side ? part.source : part.type === 'diagnostic' && (part.channel ?? 'text') === side ? part.diagnostic.text : ''))
              .join('')
            const given = parts.map((part) => (part.type === side ? part.text : '')).join('')
            assertEqual(shown.length + removed.length, given.length, `${side}: every character shown or accounted for`)
          }
        },
      ),
      { numRuns: propertyRuns(300) },
    )
  })
})
