/**
 * part-sanitizer.ts: the engine on the neutral part stream — two channels,
 * each interrupted by the other or by a native call (`flush`), ended by a
 * finish, an error or the end of the stream. TEST-MATRIX `stream-transition`.
 */
import type { Part } from '../../src/parts.ts'
import { createDsmlPartSanitizer } from '../../src/dsml/part-sanitizer.ts'
import { containsDsmlSentinel } from '../../src/dsml/sentinel.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, FW_BAR, invoke, param, WORD } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

function run(parts: readonly Part[]): Part[][] {
  const sanitizer = createDsmlPartSanitizer()
  return [...parts.map((part) => sanitizer.feed(part)), sanitizer.end()]
}

const textOf = (outputs: readonly Part[][]): string =>
  outputs.flat().map((part) => (part.type === 'text' ? part.text : '')).join('')

const typesOf = (parts: readonly Part[]): string[] => parts.map((part) => part.type)

export const suite = defineSuite('dsml/part-sanitizer', (test) => {
  test('stream-transition: a reasoning part resolves the held text first (a markerless candidate is released before it)', () => {
    const outputs = run([
      { type: 'text', text: 'Hello <parameter name="x">' },
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: ' world' },
    ])
    assertEqual(outputs[1]!, [{ type: 'text', text: '<parameter name="x">' }, { type: 'reasoning', text: 'thinking' }], 'released, then the reasoning')
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
})
