/**
 * request-tools.ts: what a Chat Completions request declares (tools with their
 * schemas, tool_choice), and the `request` option that applies it for people
 * who pipe a response themselves (DESIGN.md §5.8).
 */
import { repairChatCompletion, repairChatCompletionsResponse } from '../../src/chat-completions/index.ts'
import type { ChatCompletionsRepairOptions } from '../../src/chat-completions/repair.ts'
import { requestRepairOptions, withRequestDefaults } from '../../src/chat-completions/request-tools.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, counterIds, fromUtf8, fusedBytes, readRepaired } from './support.ts'

const SCHEMA = { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] }
const REQUEST = { model: 'm', messages: [], tools: [{ type: 'function', function: { name: 'read', parameters: SCHEMA } }] }
const leak = block([invoke('read', [param('path', 'a.ts'), param('limit', '20')])])

export const suite = defineSuite('chat-completions/request-tools', (test) => {
  test('requestRepairOptions: function tools with schemas, other types by name, legacy functions, tool_choice none', () => {
    assertEqual(requestRepairOptions(REQUEST), { tools: [{ name: 'read', parameters: SCHEMA }] })
    assertEqual(
      requestRepairOptions({
        tools: [{ type: 'function', function: { name: 'ls' } }, { type: 'custom', custom: { name: 'apply_patch' } }, { type: 'function' }, null],
        functions: [{ name: 'legacy', parameters: { type: 'object' } }],
        tool_choice: 'none',
      }),
      { tools: [{ name: 'ls' }, { name: 'legacy', parameters: { type: 'object' } }], knownTools: ['apply_patch'], mode: 'strip' },
    )
    assertEqual(requestRepairOptions({ tools: [] }), {}, 'an empty list declares nothing to gate with')
    assertEqual(requestRepairOptions({ tools: [null] }), { knownTools: [] }, 'a list of nothing readable gates everything')
    assertEqual(requestRepairOptions('not a body'), {})
  })

  test('withRequestDefaults: explicit tools, knownTools and mode off win over the request', () => {
    assertEqual(withRequestDefaults<ChatCompletionsRepairOptions>({ request: REQUEST }).tools, [{ name: 'read', parameters: SCHEMA }])
    assertEqual(withRequestDefaults<ChatCompletionsRepairOptions>({ request: REQUEST, knownTools: ['bash'] }).tools, undefined)
    assertEqual(withRequestDefaults<ChatCompletionsRepairOptions>({ request: { ...REQUEST, tool_choice: 'none' }, mode: 'off' }).mode, 'off')
    assertEqual(withRequestDefaults<ChatCompletionsRepairOptions>({ request: { ...REQUEST, tool_choice: 'none' } }).mode, 'strip')
    const given = { knownTools: ['x'] }
    assert(withRequestDefaults(given) === given, 'no request: the options as given')
  })

  test('the request option: JSON responses fitted to the declared schema', async () => {
    const body = { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: leak }, finish_reason: 'stop' }] }
    const repaired = repairChatCompletion(body, { request: REQUEST, generateId: counterIds() }) as { choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }> }
    assertEqual(JSON.parse(repaired.choices[0]!.message.tool_calls[0]!.function.arguments), { path: 'a.ts', limit: 20 })
    const response = new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
    const viaResponse = (await (await repairChatCompletionsResponse(response, { request: { ...REQUEST, tool_choice: 'none' } })).json()) as typeof repaired
    assertEqual(viaResponse.choices[0]!.message.tool_calls, undefined, 'tool_choice none: no call')
  })

  test('the request option: streams (repairChatCompletionsResponse and the fused stream) fitted to the declared schema', async () => {
    const sse = answer([leak.slice(0, 9), leak.slice(9)])
    const response = new Response(sse, { headers: { 'content-type': 'text/event-stream' } })
    const viaResponse = readRepaired(await (await repairChatCompletionsResponse(response, { request: REQUEST, generateId: counterIds() })).text())
    assertEqual(viaResponse.calls.map((call) => JSON.parse(call.arguments) as unknown), [{ path: 'a.ts', limit: 20 }])
    const fused = readRepaired(fromUtf8(await fusedBytes([sse], { request: { ...REQUEST, tools: [{ type: 'function', function: { name: 'bash' } }] } })))
    assertEqual(fused.calls, [], 'a tool the request does not declare: no call')
  })
})
