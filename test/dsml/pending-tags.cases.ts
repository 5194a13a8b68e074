/**
 * pending-tags.ts through the engine: partial tags cut short by the start of
 * another tag go with it when it is markup, however many; a chain past its
 * cap is removed and reported, never released, whole or split alike.
 * Markers are built at run time.
 */
import { containsDsmlSentinel, sanitizeText } from '../../src/dsml/index.ts'
import { SHORT_TEXT } from '../../src/dsml/markup-starts.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, normalizeEvents, reassemble, runChunks, textOf } from '../support/chunking.ts'
import { block, FW_BAR, invoke, param } from '../support/dsml-builders.ts'
import { kindsOf } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'

const bashBlock = (): string => block([invoke('bash', [param('command', 'ls')])])

export const suite = defineSuite('dsml/pending-tags', (test) => {
  test('stream-surrounding (junction): partial tags cut short by markup go with it, however many', () => {
    for (const count of [1, 2, 30, 31, 32, 33, 40]) {
      const input = `<${FW_BAR}DS${'<'.repeat(count)}${bashBlock()}ML${FW_BAR}tool_calls>`
      const result = sanitizeText(input)
      assert(!containsDsmlSentinel(result.text), `${count} partial tags: a marker was joined in the output ${JSON.stringify(result.text)}`)
      assertEqual(result.calls.length, 1, `${count}: the call`)
      assertEqual(reassemble(runChunks([input])), input, `${count}: conservation`)
    }
  })

  test('stream-surrounding (junction): a pending chain past its cap is removed and reported, never released', () => {
    const maxHoldChars = 256 // 32 characters of pending partial tags
    const input = `<${FW_BAR}DS${'<'.repeat(40)}${bashBlock()}ML${FW_BAR}tool_calls>`
    const events = runChunks([input], { maxHoldChars })
    assert(!containsDsmlSentinel(textOf(events)), `a marker was joined: ${JSON.stringify(textOf(events))}`)
    assert(kindsOf(events.flatMap((event) => (event.type === 'diagnostic' ? [event.diagnostic] : []))).includes('hold-limit'), 'hold-limit reported')
    assertEqual(reassemble(events), input, 'conservation')
    assertChunkInvariant(input, { maxHoldChars }, assertEqual)
  })

  test('stream-text-passthrough (hold cap): a chain of partial tags past its cap is removed whole or split alike', () => {
    // Read whole, the fast path must not pass a chain that streaming would have to cut at the cap.
    for (const [input, maxHoldChars] of [
      [`${'<'.repeat(40)}${'x'.repeat(30)}`, 256],
      [`${'x'.repeat(60)}${'< '.repeat(20)}y`, 256],
      [`${'x'.repeat(100)}${'<i'.repeat(40)}y and more prose after it`, 256],
      [`${'x'.repeat(100)}${'<'.repeat(5000)}y`, undefined],
    ] as const) {
      const options = maxHoldChars === undefined ? {} : { maxHoldChars }
      const whole = runChunks([input], options)
      assert(
        whole.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'hold-limit'),
        `${JSON.stringify(input.slice(0, 70))}: the chain passes the cap and is reported`,
      )
      assertEqual(reassemble(whole), input, 'conservation')
      for (const size of [1, 7, 64, 65, SHORT_TEXT, SHORT_TEXT + 1]) {
        const chunks: string[] = []
        for (let index = 0; index < input.length; index += size) chunks.push(input.slice(index, index + size))
        assertEqual(normalizeEvents(runChunks(chunks, options)), normalizeEvents(whole), `fed ${size} at a time`)
      }
    }
  })
})
