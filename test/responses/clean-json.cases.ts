/**
 * `CleanJson` (src/responses/clean-json.ts): a long clean text's JSON string
 * is written once for the closing events that repeat it, again only when the
 * text changed, and not at all for a short text; and a Responses stream whose
 * long text the repair changed writes each closing event as `JSON.stringify`
 * writes it, the clean text escaped once for the four of them.
 */
import { CleanJson } from '../../src/responses/clean-json.ts'
import { KNOWN_TEXT_FROM } from '../../src/responses/repeated-texts.ts'
import { TextBuilder } from '../../src/text-builder.ts'
import { createResponsesDecoder, createResponsesEncoder } from '../../src/responses/index.ts'
import { responsesPartOptions } from '../../src/responses/repair.ts'
import { createDialectRepair } from '../../src/dialect-kit/dialect-repair.ts'
import { assertEqual } from '../support/assert.ts'
import { block, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { callIds, responsesEvents } from './support.ts'

function builderOf(text: string): TextBuilder {
  const builder = new TextBuilder()
  for (let at = 0; at < text.length; at += 100) builder.append(text.slice(at, at + 100))
  return builder
}

export const suite = defineSuite('responses/clean-json', (test) => {
  test('a long text\'s JSON string is written once, again only once the text changed; a short text has none', () => {
    const long = builderOf(`"quoted" \\ caf\u00e9 \u2014 line\n`.repeat(Math.ceil(KNOWN_TEXT_FROM / 20)))
    const short = builderOf('a short text')
    const json = new CleanJson()
    const [first] = json.of([short, long])
    assertEqual(json.of([short, long]).length, 1, 'the short text left out')
    assertEqual(first, { value: long.toString(), written: JSON.stringify(long.toString()) })
    assertEqual(json.of([long])[0] === first, true, 'asked again: the same, not written again')
    long.append(' and more')
    const [changed] = json.of([long])
    assertEqual(changed, { value: long.toString(), written: JSON.stringify(long.toString()) }, 'written again for the changed text')
  })

  test('closing events rewritten with a long clean text: each exactly as JSON.stringify writes what it holds, the clean text escaped once for all four', () => {
    const line = 'A long answer: "quoted", a back\\slash, caf\u00e9 \u2014 and more text to repeat.\n'
    const pieces = [...Array.from({ length: 80 }, () => line), ...tokenChunks(block([invoke('bash', [param('command', 'ls')])])), 'done.']
    const core = createDialectRepair(createResponsesDecoder(), createResponsesEncoder(), responsesPartOptions({ generateId: callIds(), knownTools: ['bash'] }), {})
    const stringify = JSON.stringify
    const clean = Array.from({ length: 80 }, () => line).join('') + 'done.'
    let escaped = 0
    // How many times JSON.stringify escapes the clean text (as a value of its own, or inside an event, stand-ins or not).
    JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
      const text = (stringify as (...args: unknown[]) => string)(value, ...rest)
      if (typeof text === 'string' && text.includes(stringify(clean))) escaped++
      return text
    }) as typeof JSON.stringify
    let output = ''
    try {
      for (const read of responsesEvents('t', 'm', pieces, 5, 1)) output += core.feed(read) ?? core.text()
      output += core.end()
    } finally {
      JSON.stringify = stringify
    }
    const closing = output.split('\n\n').filter((event) => /^event: response\.(output_text\.done|content_part\.done|output_item\.done|completed)\n/.test(event))
    for (const event of closing) {
      const data = event.slice(event.indexOf('\ndata: ') + 7)
      assertEqual(data, JSON.stringify(JSON.parse(data)), `${event.slice(7, event.indexOf('\n'))}: as JSON.stringify writes it`)
    }
    // The recovered call's item has an `output_item.done` of its own; the message's four carry the clean text.
    assertEqual(closing.filter((event) => event.includes(JSON.stringify(clean))).length, 4, 'four closing events holding the clean text')
    assertEqual(escaped, 1, 'the clean text escaped once')
  })
})
