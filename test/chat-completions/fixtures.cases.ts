/**
 * Every recorded upstream SSE fixture in test/fixtures/sse/ (built from the
 * real captures in src/cli/leaks-real.json by
 * test/fixtures/build-sse-fixtures.ts; the Cherry Studio capture keeps its
 * real delta boundaries) through the Chat Completions repair:
 *
 * - the recorded stream carries its capture (deltas rebuild the input, the
 *   real deltas exactly, DeepSeek envelope, usage chunk, [DONE]);
 * - whole, through `createChatCompletionsRepair` with the default ids: the
 *   repaired tool calls (`call_` ids, indexes from 0, arguments a JSON
 *   string, in the finish chunk), the finish reason, the clean content (no
 *   markup in any delta), the envelope on every chunk, the role and usage
 *   chunks forwarded byte for byte, exactly one `[DONE]`, last;
 * - the bytes split in two at every offset (an even sample of 1000
 *   offsets for longer streams; see `SPLITS`), one byte at a time, and in
 *   seeded random reads: the same output, byte for byte, as the whole
 *   stream (ids made deterministic);
 * - `ChatCompletionsRepairStream` (fused) and the six composed stages
 *   (SseDecoderStream → ChatCompletionsDecoderStream → DsmlPartSanitizerStream →
 *   ToolCallSynthesizerStream → ChatCompletionsEncoderStream →
 *   SseEncoderStream): identical bytes, whole and in
 *   random reads.
 *
 * Content is compared after trimEnd() on both sides, as in
 * test/dsml/fixtures.cases.ts: the engine keeps the whitespace that preceded
 * removed markup, the captures' expected_text does not.
 */
import { assert, assertEqual } from '../support/assert.ts'
import { captures, declaredOptions } from '../support/captures.ts'
import { leaksMarkup } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import {
  bytesEqual,
  callShapes,
  composedBytes,
  cutAt,
  firstDifference,
  fromUtf8,
  fusedBytes,
  loadSseFixture,
  randomCuts,
  readRepaired,
  repairChunks,
  splitOffsets,
  type SseFixture,
} from './support.ts'


/**
 * Two-way splits per fixture: every offset up to this many, an even sample
 * beyond (the longest stream is about 31 KB). `CHAT_FIXTURE_SPLITS=0` splits
 * at every offset of every fixture (about a minute in Node).
 */
const SPLITS = Number(globalThis.process?.env?.CHAT_FIXTURE_SPLITS ?? 1000)
const DENSE_LIMIT = SPLITS === 0 ? Number.POSITIVE_INFINITY : Number.isInteger(SPLITS) && SPLITS > 0 ? SPLITS : 1000
const SPLIT_LABEL = DENSE_LIMIT === Number.POSITIVE_INFINITY ? 'every offset' : `every offset (even sample of ${DENSE_LIMIT} when longer)`

const ENVELOPE_KEYS = ['id', 'object', 'created', 'model', 'system_fingerprint'] as const

/** The data of every message of a recorded stream, read without the library (split on blank lines). */
function recordedData(sse: string): string[] {
  assert(sse.endsWith('\n\n'), 'a recorded stream ends with a blank line')
  return sse
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      assert(block.startsWith('data: ') && !block.includes('\n'), `one data line per event: ${JSON.stringify(block.slice(0, 80))}`)
      return block.slice('data: '.length)
    })
}

/** Everything a client of the repaired stream must see for this fixture. */
function checkRepaired(fixture: SseFixture, output: string, label: string): void {
  const expected = fixture.expected
  const repaired = readRepaired(output)

  assertEqual(callShapes(repaired.calls), expected.calls, `${label}: tool calls`)
  repaired.calls.forEach((call, position) => {
    assertEqual(call.index, position, `${label}: call ${position} index`)
    assertEqual(call.type, 'function', `${label}: call ${position} type`)
    assert(typeof call.id === 'string' && call.id.startsWith('call_'), `${label}: call ${position} id ${String(call.id)}`)
    const parsed = JSON.parse(call.arguments) as unknown
    assert(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed), `${label}: arguments are a JSON object string`)
  })
  const ids = repaired.calls.map((call) => call.id)
  assertEqual(new Set(ids).size, ids.length, `${label}: unique call ids`)

  assertEqual(repaired.finishReasons, [expected.finish_reason], `${label}: one finish reason`)
  assertEqual(repaired.content.trimEnd(), expected.content.trimEnd(), `${label}: clean content (trimEnd)`)
  assertEqual(repaired.reasoning, '', `${label}: no reasoning`)
  assert(!leaksMarkup(repaired.content), `${label}: markup leaked into content ${JSON.stringify(repaired.content)}`)
  assertEqual(repaired.usages, [expected.usage], `${label}: usage forwarded unchanged, once`)
  assertEqual(repaired.doneCount, 1, `${label}: exactly one [DONE]`)
  assert(repaired.doneLast, `${label}: [DONE] is the last message`)
  assertEqual(repaired.comments, [], `${label}: no comments`)

  // Every chunk keeps the envelope; every choice keeps `logprobs: null`.
  for (const chunk of repaired.chunks) {
    for (const key of ENVELOPE_KEYS) assertEqual(chunk[key], expected.envelope[key], `${label}: envelope ${key}`)
    const choices = chunk.choices as Array<Record<string, unknown>>
    for (const choice of choices) {
      assertEqual(choice.logprobs, null, `${label}: logprobs kept`)
      const delta = choice.delta as Record<string, unknown>
      if (typeof delta.content === 'string') assert(!leaksMarkup(delta.content), `${label}: markup in a delta ${JSON.stringify(delta.content)}`)
    }
  }

  // Recovered calls are written with the finish, after every content delta.
  const finishAt = repaired.chunks.findIndex((chunk) => (chunk.choices as Array<{ finish_reason?: unknown }>)[0]?.finish_reason != null)
  assert(finishAt >= 0, `${label}: a finish chunk`)
  repaired.chunks.forEach((chunk, position) => {
    const delta = (chunk.choices as Array<{ delta?: Record<string, unknown> }>)[0]?.delta ?? {}
    if (delta.tool_calls !== undefined) assertEqual(position, finishAt, `${label}: tool calls only in the finish chunk`)
    if (position > finishAt) assertEqual(chunk.choices, [], `${label}: nothing but usage after the finish`)
  })
}

export const suite = defineSuite('chat-completions/fixtures', (test) => {
  test('fixtures: one recorded stream per capture (21), the Cherry Studio capture with its real deltas', async () => {
    assertEqual(captures.length, 21, 'captures')
    let real = 0
    for (const capture of captures) {
      const fixture = await loadSseFixture(capture.id)
      assertEqual(fixture.expected.capture, capture.id, `${capture.id}: expectation names its capture`)
      if (fixture.expected.deltas === 'real') real++
    }
    assertEqual(real, captures.filter((capture) => Array.isArray(capture.chunks)).length, 'captures with real deltas')
    const cherry = await loadSseFixture('cherry-14747-captured-sse-deltas')
    assertEqual(cherry.expected.deltas, 'real', 'the Cherry Studio capture keeps its real deltas')
    assertEqual(cherry.expected.contentDeltas, 112, 'the Cherry Studio capture has 112 deltas')
  })

  for (const capture of captures) {
    const declared = declaredOptions(capture)
    test(`fixture ${capture.id}: the recorded stream carries the capture (role, deltas, finish, usage, [DONE])`, async () => {
      const fixture = await loadSseFixture(capture.id)
      const dataList = recordedData(fixture.sse)
      assertEqual(dataList[dataList.length - 1], '[DONE]', '[DONE] last')
      const chunks = dataList.slice(0, -1).map((data) => JSON.parse(data) as { choices: Array<{ delta: Record<string, unknown>; finish_reason: unknown; logprobs: unknown }>; usage?: unknown })
      for (const chunk of chunks) {
        for (const key of ENVELOPE_KEYS) assertEqual((chunk as Record<string, unknown>)[key], fixture.expected.envelope[key], `envelope ${key}`)
      }
      const role = chunks[0]
      assertEqual(role?.choices[0]?.delta, { role: 'assistant', content: '' }, 'role chunk')
      const deltas = chunks.slice(1, -2).map((chunk) => {
        assertEqual(chunk.choices.length, 1, 'one choice per delta chunk')
        assertEqual(chunk.choices[0]?.finish_reason, null, 'no finish on a delta chunk')
        assertEqual(chunk.choices[0]?.logprobs, null, 'logprobs: null')
        return chunk.choices[0]?.delta.content as string
      })
      assertEqual(deltas.length, fixture.expected.contentDeltas, 'content delta count')
      assertEqual(deltas.join(''), capture.input, 'the deltas rebuild the capture')
      if (capture.chunks !== undefined) assertEqual(deltas, capture.chunks, 'the real deltas, boundaries kept')
      else for (const delta of deltas) assert(Array.from(delta).length >= 1 && Array.from(delta).length <= 12, `delta of 1–12 code points: ${JSON.stringify(delta)}`)
      const finish = chunks[chunks.length - 2]
      assertEqual(finish?.choices, [{ index: 0, delta: { content: '' }, logprobs: null, finish_reason: 'stop' }], 'finish chunk')
      const usage = chunks[chunks.length - 1]
      assertEqual(usage?.choices, [], 'usage chunk has no choices')
      assertEqual(usage?.usage, fixture.expected.usage, 'usage')
      for (const key of ['prompt_cache_hit_tokens', 'prompt_cache_miss_tokens', 'prompt_tokens_details']) {
        assert(key in (usage?.usage as object), `DeepSeek usage field ${key}`)
      }
      assertEqual(fixture.expected.calls, capture.expected_calls, 'expected calls are the capture’s')
      assertEqual(fixture.expected.content, capture.expected_text, 'expected content is the capture’s')
      assertEqual(fixture.expected.finish_reason, capture.expected_calls.length > 0 ? 'tool_calls' : 'stop', 'expected finish')
    })

    test(`fixture ${capture.id}: whole stream, default ids: calls, finish, clean content, usage, [DONE], untouched chunks byte for byte`, async () => {
      const fixture = await loadSseFixture(capture.id)
      const { output } = repairChunks([fixture.bytes], { ...declared, generateId: undefined })
      checkRepaired(fixture, output, 'whole')
      const repaired = readRepaired(output)
      for (const call of repaired.calls) assert(/^call_[A-Za-z0-9]{24}$/.test(call.id ?? ''), `default id shape: ${String(call.id)}`)
      const input = recordedData(fixture.sse)
      assertEqual(repaired.data[0], input[0], 'role chunk forwarded as it came')
      assertEqual(repaired.data[repaired.data.length - 2], input[input.length - 2], 'usage chunk forwarded as it came')
      // Every content chunk that held no markup comes through byte for byte.
      const inputSet = new Set(input)
      const forwarded = repaired.data.filter((data) => inputSet.has(data)).length
      assert(forwarded >= 3, `untouched chunks forwarded as they came (${forwarded})`)
      for (const data of repaired.data) {
        if (inputSet.has(data)) continue
        // A rebuilt chunk: only choice 0's content, tool_calls and finish_reason may differ from some input chunk.
        const chunk = JSON.parse(data) as { choices: Array<{ delta: Record<string, unknown> }> }
        const delta = chunk.choices[0]?.delta ?? {}
        for (const key of Object.keys(delta)) assert(key === 'content' || key === 'tool_calls', `rebuilt delta key ${key}`)
      }
    })

    test(`fixture ${capture.id}: bytes split in two at ${SPLIT_LABEL}: same output`, async () => {
      const fixture = await loadSseFixture(capture.id)
      const whole = repairChunks([fixture.bytes], declared).output
      checkRepaired(fixture, whole, 'whole')
      for (const offset of splitOffsets(fixture.bytes.length, DENSE_LIMIT)) {
        const { output } = repairChunks(cutAt(fixture.bytes, [offset]), declared)
        if (output !== whole) {
          checkRepaired(fixture, output, `split at byte ${offset}`)
          assertEqual(output, whole, `split at byte ${offset} of ${fixture.bytes.length}: output differs from the whole stream's`)
        }
      }
    })

    test(`fixture ${capture.id}: one byte at a time, and seeded random reads of 1–64 bytes: same output`, async () => {
      const fixture = await loadSseFixture(capture.id)
      const whole = repairChunks([fixture.bytes], declared).output
      const bytes: Uint8Array[] = []
      for (let index = 0; index < fixture.bytes.length; index++) bytes.push(fixture.bytes.subarray(index, index + 1))
      assertEqual(repairChunks(bytes, declared).output, whole, 'one byte at a time')
      for (let seed = 1; seed <= 6; seed++) {
        const reads = cutAt(fixture.bytes, randomCuts(fixture.bytes.length, seed * 7919, 64))
        assertEqual(repairChunks(reads, declared).output, whole, `random reads, seed ${seed}`)
      }
      // As text too (a gateway may feed strings): the same output.
      assertEqual(repairChunks([fixture.sse], declared).output, whole, 'fed as one string')
    })

    test(`fixture ${capture.id}: fused ChatCompletionsRepairStream and the six composed stages give identical bytes`, async () => {
      const fixture = await loadSseFixture(capture.id)
      const readings: Array<[string, Uint8Array[]]> = [['whole', [fixture.bytes]]]
      for (const [seed, max] of [[3, 16], [5, 257], [11, 4096]] as const) {
        readings.push([`random reads of 1–${max} bytes (seed ${seed})`, cutAt(fixture.bytes, randomCuts(fixture.bytes.length, seed, max))])
      }
      const reference = repairChunks([fixture.bytes], declared).output
      for (const [label, reads] of readings) {
        const fused = await fusedBytes(reads, declared)
        const composed = await composedBytes(reads, declared)
        assert(bytesEqual(fused, composed), `${label}: fused and composed differ\n${firstDifference(fused, composed)}`)
        assertEqual(fromUtf8(fused), reference, `${label}: the streams give the core's output`)
      }
    })
  }
})
