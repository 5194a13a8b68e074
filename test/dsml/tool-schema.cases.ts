/**
 * Declared tools with JSON Schemas (DESIGN.md §5.1): coercions where the type
 * is unambiguous, the `arguments` / `input` wrapper, a missing required
 * argument, zero-argument calls with and without a schema, unknown tools.
 * First the schema module alone, then through the engine.
 */
import { sanitizeText } from '../../src/dsml/index.ts'
import { coerceValue, conformArguments, NO_PARAMETERS } from '../../src/dsml/tool-schema.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf } from '../support/chunking.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const FETCH = {
  name: 'web_fetch',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string' },
      max_length: { type: 'integer' },
      raw: { type: 'boolean' },
      headers: { anyOf: [{ type: 'object' }, { type: 'null' }] },
      tags: { type: 'array', items: { type: 'integer' } },
      mode: { type: 'string', enum: ['fast', 'full'] },
      either: { type: ['string', 'number'] },
    },
    required: ['url'],
  },
}

const kinds = (result: ReturnType<typeof sanitizeText>): string[] => result.diagnostics.map((diagnostic) => diagnostic.kind)

export const suite = defineSuite('dsml/tool-schema', (test) => {
  test('schema: "true" → true, "6000" → 6000, a JSON object string → the object (anyOf [object, null] too), null → "null" for a string', () => {
    const properties = FETCH.parameters.properties
    assertEqual(coerceValue('true', properties.raw), true)
    assertEqual(coerceValue('false', properties.raw), false)
    assertEqual(coerceValue('6000', properties.max_length), 6000)
    assertEqual(coerceValue(' 42 ', { type: 'number' }), 42)
    assertEqual(coerceValue('{"a": 1}', properties.headers), { a: 1 })
    assertEqual(coerceValue('null', properties.headers), null)
    assertEqual(coerceValue(null, properties.url), 'null')
    assertEqual(coerceValue(['1', '2'], properties.tags), [1, 2], 'array items')
    assertEqual(coerceValue('[1, 2]', properties.tags), [1, 2], 'a JSON array string for an array')
  })

  test('schema: ambiguous or impossible coercions keep the value as given', () => {
    const properties = FETCH.parameters.properties
    assertEqual(coerceValue('6000', properties.either), '6000', 'string allowed: kept')
    assertEqual(coerceValue('6.5', properties.max_length), '6.5', 'not an integer')
    assertEqual(coerceValue('lots', properties.max_length), 'lots')
    assertEqual(coerceValue('yes', properties.raw), 'yes')
    assertEqual(coerceValue('{broken', properties.headers), '{broken')
    assertEqual(coerceValue('slow', properties.mode), 'slow', 'enum: the tool answers')
    assertEqual(coerceValue('x', {}), 'x', 'no type: anything goes')
    assertEqual(coerceValue(null, { type: ['string', 'null'] }), null)
    for (const text of ['0x10', '0b11', '+5', '.5', '5.', 'Infinity', '12345678901234567890']) {
      assertEqual(coerceValue(text, properties.max_length), text, `${text}: not a JSON integer without loss`)
    }
    assertEqual(coerceValue('1e3', properties.max_length), 1000)
    assertEqual(coerceValue(' -7 ', { type: 'number' }), -7)
    // Issue 21: a number a double cannot hold keeps its literal text (never a silent change of value).
    assertEqual(coerceValue('12345678901234567890', { type: 'number' }), '12345678901234567890', 'digits would be lost: kept')
    assertEqual(coerceValue('1e999', { type: 'number' }), '1e999', 'infinite: kept')
    assertEqual(coerceValue('1e-999', { type: 'number' }), '1e-999', 'would read zero: kept')
  })

  test('schema: a lone arguments / input wrapper is unwrapped unless the schema names it; required arguments', () => {
    assertEqual(conformArguments({ arguments: '{"url": "u", "max_length": "5"}' }, FETCH.parameters), { arguments: { url: 'u', max_length: 5 }, missing: undefined })
    assertEqual(conformArguments({ input: { url: 'u' } }, FETCH.parameters), { arguments: { url: 'u' }, missing: undefined })
    const named = { type: 'object', properties: { input: { type: 'string' } } }
    assertEqual(conformArguments({ input: '{"url": "u"}' }, named).arguments, { input: '{"url": "u"}' }, 'a property of that name: kept')
    assertEqual(conformArguments({ max_length: '5' }, FETCH.parameters).missing, 'url')
    assertEqual(conformArguments({ arguments: 'not json' }, FETCH.parameters).missing, 'url', 'not unwrappable: the wrapper stays')
    // Issue 21: unwrapped only when the wrapped keys match the schema better than the wrapper (as vLLM does).
    assertEqual(conformArguments({ arguments: { cmd: 'ls' } }, FETCH.parameters).arguments, { arguments: { cmd: 'ls' } }, 'no wrapped key is a property: the wrapper stays')
    assertEqual(conformArguments({ input: '{"url": "u", "other": 1}' }, FETCH.parameters).arguments, { input: '{"url": "u", "other": 1}' }, 'a wrapped key the schema does not name: the wrapper stays')
    assertEqual(conformArguments({ arguments: { url: 'u' } }, FETCH.parameters).arguments, { url: 'u' }, 'a subset of the properties: unwrapped')
    assertEqual(conformArguments({ arguments: {} }, FETCH.parameters).arguments, { arguments: {} }, 'nothing wrapped: the wrapper stays')
    assertEqual(conformArguments({ arguments: '{"url": [1e999]}' }, FETCH.parameters).arguments, { arguments: '{"url": [1e999]}' }, 'a non-finite number inside: the wrapper and its text stay (vLLM test_string_wrapper_does_not_reintroduce_nonfinite_json)')
    assertEqual(conformArguments({ arguments: { url: 'u' } }, NO_PARAMETERS).arguments, { arguments: { url: 'u' } }, 'a tool without properties: the wrapper stays')
    assertEqual(conformArguments({ extra: '1' }, NO_PARAMETERS), { arguments: { extra: '1' }, missing: undefined }, 'extra arguments are the tool’s to answer')
  })

  test('engine: a call is fitted to its declared schema, whole and split', () => {
    const input = block([invoke('web_fetch', [param('url', 'https://x.test'), param('max_length', '6000'), param('raw', 'true')])])
    const events = assertChunkInvariant(input, { tools: [FETCH] }, assertEqual)
    assertEqual(callsOf(events), [{ name: 'web_fetch', arguments: { url: 'https://x.test', max_length: 6000, raw: true } }])
    const wrapped = sanitizeText(block([invoke('web_fetch', [param('arguments', '{"url": "u"}')])]), { tools: [FETCH] })
    assertEqual(wrapped.calls.map((call) => call.arguments), [{ url: 'u' }], 'unwrapped')
  })

  test('engine: a call missing a required argument is not made: markup removed, schema-mismatch names tool and argument', () => {
    const result = sanitizeText(`Hi ${block([invoke('web_fetch', [param('max_length', '10')])])}`, { tools: [FETCH] })
    assertEqual([result.calls.length, result.text], [0, 'Hi '])
    const mismatch = result.diagnostics.find((diagnostic) => diagnostic.kind === 'schema-mismatch')
    assert(mismatch !== undefined && mismatch.tool === 'web_fetch' && mismatch.message.includes('"url"'), JSON.stringify(result.diagnostics))
  })

  test('engine: zero-argument invokes are calls only when the declared schema requires nothing', () => {
    const empty = block([invoke('skills_list', [])])
    const listed = sanitizeText(empty, { tools: [{ name: 'skills_list', parameters: { type: 'object', properties: {} } }] })
    assertEqual(listed.calls.map((call) => [call.name, call.arguments]), [['skills_list', {}]], 'schema requires nothing')
    assertEqual(sanitizeText(empty, { tools: [{ name: 'skills_list' }] }).calls.length, 1, 'no parameters: takes none')
    const required = sanitizeText(empty, { tools: [{ name: 'skills_list', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }] })
    assertEqual([required.calls.length, required.text], [0, ''], 'a required argument: no call, markup removed')
    const unknownSchema = sanitizeText(empty, { knownTools: ['skills_list'] })
    assertEqual([unknownSchema.calls.length, unknownSchema.text], [0, ''], 'names only (no schema): reject-empty-args stands')
    assertEqual(sanitizeText(empty).calls.length, 0, 'nothing declared: reject-empty-args')
  })

  test('engine: a call to a tool not declared is removed (unknown-tool); tools and knownTools add up', () => {
    const input = block([invoke('bash', [param('command', 'ls')])])
    const result = sanitizeText(input, { tools: [FETCH] })
    assertEqual([result.calls.length, result.text], [0, ''])
    assert(kinds(result).includes('unknown-tool'), JSON.stringify(kinds(result)))
    assertEqual(sanitizeText(input, { tools: [FETCH], knownTools: ['bash'] }).calls.length, 1)
  })

  test('options: tools must be { name, parameters? } with an object schema', () => {
    for (const tools of [[{}], [{ name: 'x', parameters: 'string' }], [null]] as const) {
      let message = ''
      try {
        sanitizeText('', { tools: tools as never })
      } catch (error) {
        message = (error as Error).message
      }
      assert(message.startsWith('Cannot use option "tools"'), `${JSON.stringify(tools)}: ${message}`)
    }
  })
})
