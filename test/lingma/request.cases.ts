/**
 * The request side of a Lingma upstream: the `Encode=1` body encoding (a
 * round trip for any text, the vector the alphabet gives, what decoding
 * refuses) and `lingmaRequestOf` (the endpoint and its `AgentId`, the route
 * profile per model, the history as Lingma reads it, sampling parameters).
 */
import fc from 'fast-check'
import { decodeLingmaBody, encodeLingmaBody, LINGMA_CHAT_PATH, lingmaRequestOf } from '../../src/lingma/index.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

export const suite = defineSuite('lingma/request', (test) => {
  test('Encode=1: base64 in Lingma\'s alphabet with $ padding, thirds reordered (last, middle, first); each length 0–5 and a known text', () => {
    // "abc" is base64 "YWJj": Y W J j → Lingma's characters at 24, 22, 9, 35; thirds of 1: "j" + "WJ" + "Y".
    assertEqual(encodeLingmaBody('abc'), 'MSK#')
    assertEqual(encodeLingmaBody(''), '')
    assertEqual(encodeLingmaBody('a'), '$p$#', 'one byte: two padding characters, reordered with the rest')
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'Hello, Lingma!']) assertEqual(decodeLingmaBody(encodeLingmaBody(text)), text, JSON.stringify(text))
  })

  test('Encode=1 property: any text (any Unicode, any length) comes back from its encoding; the encoding uses only the alphabet and $', () => {
    const alphabet = new Set('_doRTgHZBKcGVjlvpC,@aFSx#DPuNJme&i*MzLOEn)sUrthbf%Y^w.(kIQyXqWA!$')
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (wellFormed) => {
        const encoded = encodeLingmaBody(wellFormed)
        for (const character of encoded) assert(alphabet.has(character), `character ${character} outside the alphabet`)
        assertEqual(decodeLingmaBody(encoded), wellFormed)
      }),
      { numRuns: 300 },
    )
  })

  test('decoding refuses what no encoding gives: a foreign character, a length not a multiple of 4, bytes that are not UTF-8', () => {
    assertThrows(() => decodeLingmaBody('MS?#'), TypeError, /not in its alphabet/)
    assertThrows(() => decodeLingmaBody('MSK'), TypeError, /multiple of 4/)
    // 0xFF 0xFF 0xFF: base64 "////", Lingma's "!!!!".
    assertThrows(() => decodeLingmaBody('!!!!'), TypeError, /not UTF-8/)
  })

  test('lingmaRequestOf: the endpoint with AgentId from the model, Encode=1; model_config and agent from the route profile; the encoded body is the body', () => {
    const chat = lingmaRequestOf({ model: 'gm51model', messages: [{ role: 'user', content: 'hi' }] }, { requestId: 'r-1', sessionId: 's-1' })
    assertEqual(chat.path, `${LINGMA_CHAT_PATH}?FetchKeys=llm_model_result&AgentId=agent_chat&Encode=1`)
    assertEqual([chat.body.agent_id, chat.body.model_config, chat.body.request_id, chat.body.chat_record_id, chat.body.session_id, chat.body.stream], [
      'agent_chat',
      { key: 'gm51model', is_vl: false, is_reasoning: true, source: 'system' },
      'r-1',
      'r-1',
      's-1',
      true,
    ])
    assertEqual(JSON.parse(decodeLingmaBody(chat.encodedBody)), chat.body, 'the encoded body decodes to the body')
    const common = lingmaRequestOf({ model: ' KModel ', messages: [] })
    assertEqual([common.body.agent_id, common.body.model_config], ['agent_common', { key: 'KModel', is_vl: false, is_reasoning: false, source: '' }], 'kmodel answers only under agent_common, reasoning off')
    assert(common.path.includes('AgentId=agent_common'), 'the query names the same agent')
    assertEqual((lingmaRequestOf({ messages: [] }).body.model_config as { key: string }).key, 'auto', 'no model: auto')
    assertEqual(typeof lingmaRequestOf({}).body.session_id, 'string')
    assertThrows(() => lingmaRequestOf(null as never), TypeError, /Chat Completions request/)
  })

  test('lingmaRequestOf defaults: the request id is a random version-4 UUID made from getRandomValues (browser pages over plain HTTP have no crypto.randomUUID), the session 32 hex digits; each request new', () => {
    const first = lingmaRequestOf({}).body
    const second = lingmaRequestOf({}).body
    assert(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(String(first.request_id)), `a UUID v4: ${String(first.request_id)}`)
    assertEqual(first.chat_record_id, first.request_id, 'the chat record is the request')
    assert(/^[0-9a-f]{32}$/.test(String(first.session_id)), `32 hex digits: ${String(first.session_id)}`)
    assert(first.request_id !== second.request_id && first.session_id !== second.session_id, 'each request draws new ids')
  })

  test('lingmaRequestOf history: null content beside tool_calls becomes "", reasoning_content goes into content as <thought>, tools and tool_choice and sampling carried', () => {
    const calls = [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{}' } }]
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: null },
      { role: 'assistant', content: null, tool_calls: calls },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      { role: 'assistant', reasoning_content: 'Check first.', content: 'Done.' },
      { role: 'assistant', reasoning_content: 'Parts.', content: [{ type: 'text', text: 'A' }] },
    ]
    const tools = [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }]
    const { body } = lingmaRequestOf({ model: 'm', messages, tools, tool_choice: 'auto', temperature: 0.7, max_completion_tokens: 100, top_p: 0.9 })
    assertEqual(body.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: null },
      { role: 'assistant', content: '', tool_calls: calls },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      { role: 'assistant', content: '<thought>Check first.</thought>\nDone.' },
      { role: 'assistant', content: [{ type: 'text', text: '<thought>Parts.</thought>\n' }, { type: 'text', text: 'A' }] },
    ])
    assertEqual(messages[2]!.content, null, 'the request is not mutated')
    assertEqual([body.tools, body.tool_choice, body.parameters], [tools, 'auto', { temperature: 0.7, top_p: 0.9, max_tokens: 100 }])
    assertEqual(lingmaRequestOf({ messages: [] }).body.parameters, { temperature: 0.1 }, 'the Lingma clients\' default temperature')
  })
})
