/**
 * The pure helpers of src/lingma/: the envelope (`stripSsePrefix`, `isDone`,
 * `unwrapBody`), errors (`resolveErrorDetails`, `parseError`, status
 * mapping), usage (`consolidateUsage`, `normalizeUsage`), the request rules
 * (`agentId`, `isAgentCommonModel`, `modelConfigSource`, `hasToolCalls`,
 * `normalizeAssistantToolCallContent`), the residual check, and the thought
 * splitter held across every split of its tags.
 */
import {
  agentId,
  consolidateUsage,
  createResidualSanitizerCheck,
  createThoughtTagSplitter,
  hasToolCalls,
  isAgentCommonModel,
  isDone,
  modelConfigSource,
  normalizeAssistantToolCallContent,
  normalizeUsage,
  parseError,
  residualSanitizerCheck,
  resolveErrorDetails,
  resolveErrorStatus,
  stripSsePrefix,
  unwrapBody,
} from '../../src/lingma/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

const OUTER = { message: 'Error in upstream response', type: 'provider_error', code: 'provider_error' }
const BAR = '\uff5c'

export const suite = defineSuite('lingma/helpers', (test) => {
  test('stripSsePrefix: data with or without a space, bare payloads, event and empty lines', () => {
    assertEqual(stripSsePrefix('data: {"a":1}'), '{"a":1}')
    assertEqual(stripSsePrefix('  data:{"a":1}  '), '{"a":1}')
    assertEqual(stripSsePrefix('{"a":1}'), '{"a":1}')
    assertEqual(stripSsePrefix('event: finish'), undefined)
    assertEqual(stripSsePrefix('   '), undefined)
  })

  test('isDone: every [DONE] form, and not a chunk', () => {
    for (const line of ['data: [DONE]', 'data:[DONE]', '[DONE]', 'data:{"body":"[DONE]"}', 'data: {"body": "[DONE]"}', '{"headers":{},"body":"[DONE]","statusCodeValue":200,"statusCode":"OK"}']) {
      assert(isDone(line), line)
    }
    for (const line of ['data: {"choices":[]}', 'event: finish', '', 'data: "[DONE]"', 'data: {"body":{"x":"[DONE]"}}']) assert(!isDone(line), line)
  })

  test('unwrapBody: string body, object body as written, [DONE] body, bare and non-JSON data', () => {
    assertEqual(unwrapBody('data: {"body":"{\\"choices\\":[]}"}'), '{"choices":[]}')
    assertEqual(unwrapBody('data: {"body" : { "a" : [1, {"b":"}"}] } , "x":1}'), '{ "a" : [1, {"b":"}"}] }')
    assertEqual(unwrapBody('data: {"body":"[DONE]"}'), '{"body":"[DONE]"}')
    assertEqual(unwrapBody('data: {"choices":[]}'), '{"choices":[]}')
    assertEqual(unwrapBody('data: not json'), 'not json')
    assertEqual(unwrapBody('event: ping'), '')
  })

  test('resolveErrorDetails: missing, null and blank keep the outer fields', () => {
    for (const details of [undefined, null, '', '   ']) assertEqual(resolveErrorDetails(OUTER, details), OUTER)
  })

  test('resolveErrorDetails: a JSON string and an object give the inner error; blank inner fields keep the outer ones', () => {
    const inner = { error: { code: 400, message: 'bad tool order', type: 'invalid_request_error' } }
    const expected = { message: 'bad tool order', type: 'invalid_request_error', code: '400' }
    assertEqual(resolveErrorDetails(OUTER, JSON.stringify(inner)), expected)
    assertEqual(resolveErrorDetails(OUTER, inner), expected)
    assertEqual(resolveErrorDetails(OUTER, { error: { msg: 'short', type: ' ' } }), { ...OUTER, message: 'short' })
    assertEqual(resolveErrorDetails(OUTER, { message: 'top', code: 'x' }), { ...OUTER, message: 'top', code: 'x' })
    assertEqual(resolveErrorDetails(OUTER, { error: 'text error' }), { ...OUTER, message: 'text error' })
  })

  test('resolveErrorDetails: malformed JSON in a string keeps the outer fields; plain text becomes the message', () => {
    assertEqual(resolveErrorDetails(OUTER, '{"error": oops'), OUTER)
    assertEqual(resolveErrorDetails(OUTER, '[1,'), OUTER)
    assertEqual(resolveErrorDetails(OUTER, ' upstream exploded '), { ...OUTER, message: 'upstream exploded' })
  })

  test('parseError: {error: text} is api_error, 500 or the envelope status; normal chunks and [DONE] are not errors', () => {
    assertEqual(parseError('data: {"error":"boom"}'), { status: 500, message: 'boom', type: 'api_error', code: '' })
    assertEqual(parseError('data: {"error":"boom","statusCodeValue":503}'), { status: 503, message: 'boom', type: 'api_error', code: '' })
    assertEqual(parseError('data: {"choices":[{"delta":{"content":"x"}}]}'), undefined)
    assertEqual(parseError('data: {"body":"[DONE]"}'), undefined)
    assertEqual(parseError('data: [DONE]'), undefined)
    assertEqual(parseError('data: {"code":"200","message":"fine"}'), undefined)
  })

  test('parseError: numeric codes and keyword statuses; default 502', () => {
    assertEqual(parseError('{"error":{"message":"m","code":401}}')?.status, 401)
    assertEqual(parseError('{"error":{"message":"m","status":403}}')?.status, 403)
    assertEqual(parseError('{"body":{"code":"provider_error","message":"m","statusCode":"GATEWAY_TIMEOUT"}}')?.status, 504)
    assertEqual(parseError('{"code":"provider_error","message":"m"}')?.status, 502)
  })

  test('resolveErrorStatus: the keyword table, first match wins', () => {
    const cases: [string, string, number][] = [
      ['invalid_request_error', '', 400],
      ['', 'bad_request_thing', 400],
      ['rate_limit_exceeded', '', 429],
      ['', 'authentication_error', 401],
      ['', 'forbidden', 403],
      ['permission_denied', '', 403],
      ['', 'not_found_error', 404],
      ['', 'upstream_timeout', 504],
      ['', 'server_error', 502],
      ['', 'overloaded_error', 502],
      ['', 'ratelimited', 429],
      ['', 'service_unavailable', 502],
      ['', 'something', 502],
      ['418', '', 418],
    ]
    for (const [code, type, status] of cases) assertEqual(resolveErrorStatus(undefined, code, type, ''), status, `${code}/${type}`)
    assertEqual(resolveErrorStatus(undefined, 'x', 'y', '503'), 503, 'the outer code when the resolved one is not a number')
    assertEqual(resolveErrorStatus(200, 'rate_limit', '', ''), 429, 'a given status outside 400–599 is ignored')
  })

  test('usage: snake, camel and *TokenCount aliases, first non-zero wins, digit strings count, total recomputed', () => {
    assertEqual(normalizeUsage({ prompt_tokens: 0, inputTokens: 12, outputTokenCount: '5' }), { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 })
    assertEqual(normalizeUsage({ promptTokens: 3, completionTokens: 4, totalTokens: 0 }), { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 })
    assertEqual(normalizeUsage({ inputTokenCount: 1, outputTokenCount: 2, totalTokenCount: 9 }), { prompt_tokens: 1, completion_tokens: 2, total_tokens: 9 })
    assertEqual(normalizeUsage(null), undefined)
  })

  test('usage: cached and reasoning details from every place they come', () => {
    const details = (usage: unknown) => {
      const normalized = normalizeUsage(usage)!
      return [normalized.prompt_tokens_details?.cached_tokens, normalized.completion_tokens_details?.reasoning_tokens]
    }
    assertEqual(details({ prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 2 } }), [4, 2])
    assertEqual(details({ input_tokens_details: { cached_tokens: 5 }, output_tokens_details: { reasoning_tokens: 3 } }), [5, 3])
    assertEqual(details({ cachedTokens: 6, thinkingTokens: 1 }), [6, 1])
    assertEqual(details({ cache_read_input_tokens: 3, cache_creation_input_tokens: 4, reasoningTokens: 8 }), [3, 8])
    assertEqual(details({ cached_tokens: 0, reasoning_tokens: 0 }), [undefined, undefined])
  })

  test('consolidateUsage: both spellings filled', () => {
    assertEqual(consolidateUsage({ input_tokens: 10, output_tokens: 20 }), {
      prompt_tokens: 10,
      completion_tokens: 20,
      total_tokens: 30,
      input_tokens: 10,
      output_tokens: 20,
      cached_tokens: 0,
      reasoning_tokens: 0,
    })
  })

  test('agentId, isAgentCommonModel, modelConfigSource', () => {
    for (const model of ['kmodel', ' MModel ']) {
      assert(isAgentCommonModel(model), model)
      assertEqual([agentId(model), modelConfigSource(model)], ['agent_common', ''])
    }
    for (const model of ['gm51model', 'qmodel_latest', '']) assertEqual([isAgentCommonModel(model), agentId(model), modelConfigSource(model)], [false, 'agent_chat', 'system'])
  })

  test('hasToolCalls and normalizeAssistantToolCallContent', () => {
    assertEqual([hasToolCalls([{}]), hasToolCalls([]), hasToolCalls(null), hasToolCalls({ 0: 1 })], [true, false, false, false])
    const messages = [
      { role: 'assistant', tool_calls: [{ id: 'a' }] },
      { role: 'assistant', content: null, tool_calls: [] },
      { role: 'assistant', content: 'kept', tool_calls: [{ id: 'b' }] },
      { role: 'tool', content: null },
      null,
    ]
    const normalized = normalizeAssistantToolCallContent(messages)
    assertEqual(normalized, [{ role: 'assistant', tool_calls: [{ id: 'a' }], content: '' }, messages[1], messages[2], messages[3], null])
    assert(!('content' in messages[0]!), 'the input is not mutated')
  })

  test('residual check: a sentinel in sanitized text is a leak, counted and reported, also split between two pieces', () => {
    assert(residualSanitizerCheck(`<${BAR}DSML${BAR}invoke name="x">`), 'a DSML tag')
    assert(!residualSanitizerCheck('plain text | with bars'), 'plain text')
    const leaks: string[] = []
    const check = createResidualSanitizerCheck((leak) => leaks.push(leak.channel))
    assert(!check.inspect('all clean'), 'clean')
    assert(!check.inspect(`before <${BAR}DS`), 'half a marker is not yet one')
    assert(check.inspect(`ML${BAR}invoke name="x">`), 'the other half completes it')
    assert(check.inspect(`<${BAR}DSML${BAR}parameter name="y">`, 'reasoning'), 'reasoning is checked too')
    assertEqual([check.leaks, leaks], [2, ['text', 'reasoning']])
  })

  test('thought splitter: every split of "a<thought>b</thought>c" gives the same channels, holding only a partial tag', () => {
    const text = 'a<thought>b</thought>c'
    for (let first = 0; first <= text.length; first++) {
      for (let second = first; second <= text.length; second++) {
        const splitter = createThoughtTagSplitter()
        const pieces = [text.slice(0, first), text.slice(first, second), text.slice(second)].flatMap((piece) => {
          const out = splitter.feed(piece)
          assert(splitter.held.length < '</thought>'.length, 'holds less than a tag')
          return out
        })
        pieces.push(...splitter.end())
        const joined = (channel: string) => pieces.filter((piece) => piece.channel === channel).map((piece) => piece.text).join('')
        assertEqual([joined('text'), joined('reasoning')], ['ac', 'b'], `split at ${first}, ${second}`)
      }
    }
  })

  test('thought splitter: a disproved partial tag is released at once; exact case only; end releases what is held', () => {
    const splitter = createThoughtTagSplitter()
    assertEqual(splitter.feed('x <thou'), [{ channel: 'text', text: 'x ' }])
    assertEqual(splitter.feed('sand'), [{ channel: 'text', text: '<thousand' }])
    assertEqual(splitter.feed('<THOUGHT>y'), [{ channel: 'text', text: '<THOUGHT>y' }])
    assertEqual(splitter.feed('<thought>z</tho'), [{ channel: 'reasoning', text: 'z' }])
    assertEqual(splitter.end(), [{ channel: 'reasoning', text: '</tho' }])
    assert(!splitter.inThought, 'the end leaves the thought')
  })
})
