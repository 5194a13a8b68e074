/**
 * DsmlPartSanitizerStream: the part sanitizer behind a TransformStream (parts
 * in, parts out; strings have DsmlSanitizerStream).
 */
import { DsmlPartSanitizerStream } from '../../src/parts/index.ts'
import type { Part } from '../../src/parts/part.ts'
import { assertEqual } from '../support/assert.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { collect, streamOf } from '../support/streams.ts'

export const suite = defineSuite('parts/part-sanitizer-stream', (test) => {
  test('parts in, parts out: content cleaned, the call recovered, other parts passed through', async () => {
    const leak = block([invoke('bash', [param('command', 'ls')])])
    const input: Part[] = [
      { type: 'text', text: `Sure. ${leak.slice(0, 12)}` },
      { type: 'reasoning', text: 'thinking' },
      { type: 'usage', usage: { total_tokens: 3 } },
      { type: 'text', text: leak.slice(12) },
    ]
    const out = await collect(streamOf(input).pipeThrough(new DsmlPartSanitizerStream({ generateId: () => 'call_1' })))
    assertEqual(out.map((part) => part.type).filter((type) => type !== 'diagnostic'), ['text', 'reasoning', 'usage', 'tool-call'])
    assertEqual(out.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''), 'Sure. ')
  })

  test('what the end resolves is closed with a chunk end; a stream that resolved nothing at its end adds none', async () => {
    const held = await collect(streamOf<Part>([{ type: 'text', text: 'a <' }]).pipeThrough(new DsmlPartSanitizerStream()))
    assertEqual(held, [{ type: 'text', text: 'a ' }, { type: 'text', text: '<' }, { type: 'chunk-end' }])
    const plain = await collect(streamOf<Part>([{ type: 'text', text: 'plain' }]).pipeThrough(new DsmlPartSanitizerStream()))
    assertEqual(plain, [{ type: 'text', text: 'plain' }])
  })
})
