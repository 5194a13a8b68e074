/**
 * Every entry of lingma-envelopes.json. For each line, our `stripSsePrefix`,
 * `isDone`, `unwrapBody`, `parseError` and `normalizeUsage` (of the
 * unwrapped payload's `usage`) give what the Go predecessor computed — except
 * where its notes show the Go code was wrong, where the test asserts our
 * behaviour and its name says so: the status inside `body` is read (Go read
 * only the root and reached 400/429 by keywords), the `418` frame is an
 * error (Go missed it), camel-case usage is read (Go gave zeros). Entries
 * whose source test states more (`expected_by_source_test`) are also run
 * through the converter and read as a client.
 */
import envelopes from './fixtures/lingma-envelopes.json' with { type: 'json' }
import {
  agentId,
  isDone,
  modelConfigSource,
  normalizeAssistantToolCallContent,
  normalizeUsage,
  parseError,
  stripSsePrefix,
  unwrapBody,
} from '../../src/lingma/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import { convert, readClientView, testOptions } from './support.ts'

interface GoResult {
  line: string
  is_done: boolean
  strip_sse_prefix: string | null
  unwrap_body: string
  parse_error: { status_code: number; message: string; type: string; code?: string } | null
  normalize_usage_of_unwrapped: unknown
}

interface Envelope {
  id: string
  kind: string
  form: string
  raw: string
  expected_by_source_test?: Record<string, any>
  lingmawire_c19fcc9f_results?: GoResult[]
}

/** Where the Go results are wrong, what we give instead (and why, in the test's name). */
const CORRECTIONS: Record<string, { why: string; parseError?: unknown; usage?: unknown }> = {
  error_provider_details_json_string_real: { why: 'status read from inside body (Go read the root only; 400 by keyword)' },
  error_provider_details_json_string_lingmawire: { why: 'status read from inside body (Go read the root only; 400 by keyword)' },
  error_provider_details_object_body_object: { why: 'status read from inside the body object (Go read the root only; 429 by keyword)' },
  error_418_unknown_sse_issue: {
    why: 'the 418 frame is an error with status 418 (Go returned no error)',
    parseError: { status: 418, message: 'Unknown sse issue', type: 'provider_error', code: '418' },
  },
  usage_camelcase_aliases: {
    why: 'camelCase usage is read (Go normalised it to zeros)',
    usage: { prompt_tokens: 123, completion_tokens: 45, total_tokens: 168 },
  },
}

function goParseError(result: GoResult['parse_error']): unknown {
  if (result === null) return undefined
  return { status: result.status_code, message: result.message, type: result.type, code: result.code ?? '' }
}

function usageOfUnwrapped(line: string): unknown {
  const unwrapped = unwrapBody(line)
  let parsed: unknown
  try {
    parsed = JSON.parse(unwrapped)
  } catch {
    return undefined
  }
  const usage = (parsed as { usage?: unknown } | null)?.usage
  return usage === undefined ? undefined : normalizeUsage(usage)
}

/** A frame entry as a body: its lines (a payload-only form as a bare line), then `[DONE]`. */
function asBody(envelope: Envelope): string {
  return `${envelope.raw.trimEnd()}\ndata: [DONE]\n`
}

/** What the source test states, checked on what a client reads. */
const SOURCE_CHECKS: Record<string, (envelope: Envelope) => void> = {
  thought_tag_in_content(envelope) {
    const chunks = readClientView(convert(asBody(envelope), testOptions())).chunks
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta ?? {})
    assertEqual(deltas.filter((delta) => delta.content).map((delta) => delta.content), envelope.expected_by_source_test!.content)
    assertEqual(deltas.filter((delta) => delta.reasoning_content).map((delta) => delta.reasoning_content), envelope.expected_by_source_test!.reasoning_content)
  },
  native_tool_call_with_content(envelope) {
    const view = readClientView(convert(asBody(envelope), testOptions()))
    const expected = envelope.expected_by_source_test!
    assertEqual(view.text, expected.content)
    assertEqual(view.calls, expected.tool_calls)
    assertEqual(view.usage, { ...expected.usage, total_tokens: 13 })
    assertEqual(view.finishReasons, ['tool_calls'])
  },
  finish_metadata_with_usage_bare(envelope) {
    const view = readClientView(convert(asBody(envelope), testOptions()))
    assertEqual(view.finishReasons, ['stop'], 'a timing frame with no finish before it finishes the message')
    assertEqual(view.usage, { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 })
  },
  usage_chunk_enveloped_real_ids(envelope) {
    const view = readClientView(convert(asBody(envelope), testOptions()))
    assertEqual(view.usage, { prompt_tokens: 7785, completion_tokens: 64, total_tokens: 7849 })
    assert(view.chunks.every((chunk) => chunk.id === 'chatcmpl-a4e7b4f5-4f18-9450-8783-2fe34710c558' && chunk.created === 1779808522), 'the upstream id and created')
  },
  usage_only_lingmawire_variant(envelope) {
    assertEqual(usageOfUnwrapped(envelope.raw), {
      prompt_tokens: 120,
      completion_tokens: 45,
      total_tokens: 165,
      prompt_tokens_details: { cached_tokens: 30 },
      completion_tokens_details: { reasoning_tokens: 15 },
    })
  },
  usage_camelcase_aliases(envelope) {
    assertEqual(readClientView(convert(asBody(envelope), testOptions())).usage, envelope.expected_by_source_test)
  },
  error_openai_style_direct(envelope) {
    const view = readClientView(convert(asBody(envelope), testOptions()))
    assertEqual(view.errors, [{ message: 'rate limit exceeded', type: 'rate_limit_error', param: null, code: null, status: 429 }])
    assert(!view.done, 'no [DONE] after an error')
  },
  error_provider_details_object_body_object(envelope) {
    const expected = envelope.expected_by_source_test!
    const view = readClientView(convert(asBody(envelope), testOptions()))
    assertEqual(view.errors, [{ message: expected.message, type: expected.type, param: null, code: expected.code, status: expected.status }])
  },
  ping_event(envelope) {
    const sse = convert(asBody(envelope), testOptions())
    assert(sse.startsWith(': ping\n\n'), 'the ping is a keep-alive comment')
    assertEqual(readClientView(sse).finishReasons, ['stop'])
  },
  request_messages_assistant_null_tool_content(envelope) {
    const messages = JSON.parse(envelope.raw) as Record<string, unknown>[]
    const before = JSON.stringify(messages)
    const normalized = normalizeAssistantToolCallContent(messages)
    assertEqual(normalized[2]!.content, '')
    assertEqual(normalized[4]!.content, null)
    assertEqual(JSON.stringify(messages), before, 'the input is not mutated')
  },
  request_vision_fragment_doc(envelope) {
    const body = JSON.parse(envelope.raw) as { model_config: { key: string }; messages: unknown[] }
    assertEqual([agentId(body.model_config.key), modelConfigSource(body.model_config.key)], ['agent_chat', 'system'])
    assertEqual(normalizeAssistantToolCallContent(body.messages), body.messages, 'a user message is kept as it is')
  },
}

export const suite = defineSuite('lingma/envelopes', (test) => {
  for (const envelope of (envelopes as { envelopes: Envelope[] }).envelopes) {
    const correction = CORRECTIONS[envelope.id]
    test(correction === undefined ? envelope.id : `${envelope.id}: ${correction.why}`, () => {
      const results = envelope.lingmawire_c19fcc9f_results ?? []
      assert(results.length > 0 || SOURCE_CHECKS[envelope.id] !== undefined, `nothing to check for ${envelope.id}`)
      for (const result of results) {
        const line = result.line
        assertEqual(stripSsePrefix(line) ?? null, result.strip_sse_prefix, `stripSsePrefix(${line})`)
        assertEqual(isDone(line), result.is_done, `isDone(${line})`)
        assertEqual(unwrapBody(line), result.unwrap_body, `unwrapBody(${line})`)
        const ours = parseError(line)
        assertEqual(ours, correction?.parseError ?? goParseError(result.parse_error), `parseError(${line})`)
        assertEqual(usageOfUnwrapped(line), correction?.usage ?? result.normalize_usage_of_unwrapped ?? undefined, `usage of ${line}`)
      }
      SOURCE_CHECKS[envelope.id]?.(envelope)
    })
  }

  test('status inside body wins over keywords: body 503 with an invalid_request_error inside (Go would say 400)', () => {
    const details = JSON.stringify({ error: { code: 'invalid_request_error', message: 'bad', type: 'invalid_request_error' } })
    const body = JSON.stringify({ code: 'provider_error', message: 'Error in upstream response', type: 'provider_error', details, statusCodeValue: 503 })
    assertEqual(parseError(`data: ${JSON.stringify({ body })}`)?.status, 503)
  })

  test('status inside body before the outer one: body 429, outer 500', () => {
    const body = JSON.stringify({ code: 'provider_error', message: 'slow down', statusCodeValue: 429 })
    assertEqual(parseError(`data: ${JSON.stringify({ body, statusCodeValue: 500, statusCode: 'INTERNAL_SERVER_ERROR' })}`)?.status, 429)
  })

  test('the 418 frame in a stream: one error chunk with status 418, no [DONE], no EOF error after it', () => {
    const view = readClientView(convert('data: {"code":"418","message":"Unknown sse issue"}\n\n', testOptions()))
    assertEqual(view.errors, [{ message: 'Unknown sse issue', type: 'provider_error', param: null, code: '418', status: 418 }])
    assert(!view.done, 'no [DONE]')
  })
})
