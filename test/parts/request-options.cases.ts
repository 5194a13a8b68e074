/**
 * What a request declares (src/parts/request-options.ts): the one merge of a
 * tool list into `tools` and `knownTools`, and the same declared tools read
 * alike through every entry point — the three dialects' request readers and
 * the AI SDK's call options.
 */
import { anthropicRequestOptions } from '../../src/anthropic/request.ts'
import { requestRepairOptions } from '../../src/chat-completions/request-tools.ts'
import { engineOptions, resolveMiddlewareOptions } from '../../src/ai-sdk/options.ts'
import { declaredNames, declaredToolOptions } from '../../src/parts/request-options.ts'
import { responsesRequestOptions } from '../../src/responses/request.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

const SCHEMA = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }

/** The names and schemas options declare, in a form to compare. */
function declared(options: Pick<DsmlSanitizerOptions, 'tools' | 'knownTools'>): unknown {
  return { names: declaredNames(options), schemas: [...(options.tools ?? [])].map((tool) => [tool.name, tool.parameters ?? null]) }
}

export const suite = defineSuite('parts/request-options', (test) => {
  test('declaredToolOptions: tools with schemas, names, nothing readable, no list', () => {
    assertEqual(declaredToolOptions([{ tool: { name: 'bash', parameters: SCHEMA } }, { name: 'web_search' }, undefined], true), { tools: [{ name: 'bash', parameters: SCHEMA }], knownTools: ['web_search'] }, 'both')
    assertEqual(declaredToolOptions([{ tool: { name: 'bash' } }], true), { tools: [{ name: 'bash' }] }, 'a tool without a schema')
    assertEqual(declaredToolOptions([{ name: 'web_search' }], true), { knownTools: ['web_search'] }, 'names only')
    assertEqual(declaredToolOptions([undefined], true), { knownTools: [] }, 'a list with nothing readable allows no tool')
    assertEqual(declaredToolOptions([], false), {}, 'no list gates nothing')
  })

  test('the same declared tools, read alike through every entry point (a function with its schema, and a server or provider tool by name)', () => {
    const expected = { names: ['bash', 'web_search'], schemas: [['bash', SCHEMA]] }
    const chat = requestRepairOptions({ tools: [{ type: 'function', function: { name: 'bash', parameters: SCHEMA } }, { type: 'web_search', web_search: { name: 'web_search' } }] })
    assertEqual(declared(chat), expected, 'Chat Completions')
    const anthropic = anthropicRequestOptions({ tools: [{ name: 'bash', input_schema: SCHEMA }, { type: 'web_search_20250305', name: 'web_search' }] })
    assertEqual(declared(anthropic), expected, 'Anthropic Messages')
    const responses = responsesRequestOptions({ tools: [{ type: 'function', name: 'bash', parameters: SCHEMA }, { type: 'web_search', name: 'web_search' }] })
    assertEqual(declared(responses), expected, 'Responses')
    const aiSdk = engineOptions(resolveMiddlewareOptions(), { tools: [{ type: 'function', name: 'bash', inputSchema: SCHEMA as never }, { type: 'provider', id: 'openai.web_search', name: 'web_search', args: {} }] })
    assertEqual(declared({ tools: aiSdk.tools, knownTools: aiSdk.knownTools === undefined ? undefined : [...aiSdk.knownTools] }), expected, 'AI SDK')
  })

  test('every entry point: an empty tool list allows no tool; no list gates nothing', () => {
    for (const [name, empty, none] of [
      ['Chat Completions', requestRepairOptions({ tools: [] }), requestRepairOptions({})],
      ['Anthropic Messages', anthropicRequestOptions({ tools: [] }), anthropicRequestOptions({})],
      ['Responses', responsesRequestOptions({ tools: [] }), responsesRequestOptions({})],
    ] as const) {
      assertEqual(declaredNames(empty), undefined, `${name}: an empty list declares nothing to gate with`)
      assertEqual(declaredNames(none), undefined, `${name}: no list`)
    }
    assertEqual(declaredNames(requestRepairOptions({ tools: [{ type: 'function' }] })), [], 'a list with nothing readable allows no tool')
  })
})
