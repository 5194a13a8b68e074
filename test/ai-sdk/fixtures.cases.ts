/**
 * Every real capture in src/cli/leaks-real.json through the AI SDK
 * middleware, with the real `ai` package:
 * - streamed token-wise (`tokenChunks`: the marker arrives as `<`, bar,
 *   `DSML`, bar, …) through `streamText` with the expected tools declared;
 * - the wrapped model's own parts for the same stream (call part sequences,
 *   unique ids, no bar in any delta, finish rewritten exactly when calls come);
 * - whole, through `generateText`;
 * - for the captures that carry their real deltas (the Cherry Studio SSE
 *   capture, cherry-14747, and genericagent-804), fed exactly those deltas.
 *
 * Text is compared after trimEnd() on both sides, as in test/dsml/fixtures.cases.ts.
 */
import { assert, assertEqual } from '../support/assert.ts'
import { type Capture, captures } from '../support/captures.ts'
import { leaksMarkup, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import {
  assertToolSequences,
  barsInDeltas,
  callOptions,
  deltaText,
  generateModel,
  modelParts,
  streamModel,
  streamOf,
  textParts,
  toolCallsOf,
  viaGenerateText,
  viaStreamText,
  wrap,
  type AppResult,
  type Part,
} from './support.ts'


/** The tools an app would declare: the expected ones, or a common one when none is expected. */
function toolsOf(capture: Capture): string[] {
  const names = [...new Set(capture.expected_calls.map((call) => call.name))]
  return names.length > 0 ? names : ['bash']
}

function checkApp(capture: Capture, app: AppResult, label: string): void {
  assertEqual(app.toolCalls, capture.expected_calls.map((call) => ({ toolName: call.name, input: call.arguments })), `${label}: tool calls`)
  assertEqual(app.text.trimEnd(), capture.expected_text.trimEnd(), `${label}: text (trimEnd)`)
  assert(!leaksMarkup(app.text), `${label}: markup leaked into the text ${JSON.stringify(app.text)}`)
  assertEqual(app.finishReason, capture.expected_calls.length > 0 ? 'tool-calls' : 'stop', `${label}: finish reason`)
  assertEqual(app.rawFinishReason, 'stop', `${label}: raw finish reason kept`)
  assertEqual(app.errors, [], `${label}: no errors`)
  assertEqual(new Set(app.toolCallIds).size, app.toolCallIds.length, `${label}: unique ids`)
}

async function checkParts(capture: Capture, chunks: readonly string[], label: string): Promise<void> {
  const out = await modelParts(wrap(streamModel(streamOf(textParts(chunks)))).model, callOptions(toolsOf(capture)))
  assertToolSequences(out, assert)
  assertEqual(barsInDeltas(out), [], `${label}: no bar in any text delta`)
  assertEqual(deltaText(out).trimEnd(), capture.expected_text.trimEnd(), `${label}: text`)
  assertEqual(toolCallsOf(out).length, capture.expected_calls.length, `${label}: calls`)
  const finish = out[out.length - 1] as Extract<Part, { type: 'finish' }>
  assertEqual(finish.finishReason, { unified: capture.expected_calls.length > 0 ? 'tool-calls' : 'stop', raw: 'stop' }, `${label}: finish`)
  const types = out.map((part) => part.type)
  if (deltaText(out) === '') assert(!types.includes('text-start') && !types.includes('text-end'), `${label}: an emptied text part emits no text-start/text-end`)
}

export const suite = defineSuite('ai-sdk/fixtures', (test) => {
  test('fixtures: all 21 captures are replayed, 2 of them with their real deltas', () => {
    assertEqual(captures.length, 21, 'captures')
    assertEqual(captures.filter((capture) => capture.chunks !== undefined).map((capture) => capture.id), ['cherry-14747-captured-sse-deltas', 'genericagent-804-double-vertical-line-split'], 'captures with deltas')
  })

  for (const capture of captures) {
    test(`fixture ${capture.id}: streamText, token-wise deltas`, async () => {
      const app = await viaStreamText(wrap(streamModel(streamOf(textParts(tokenChunks(capture.input))))).model, toolsOf(capture))
      checkApp(capture, app, 'streamText')
    })

    test(`fixture ${capture.id}: wrapped model parts, token-wise deltas`, async () => {
      await checkParts(capture, tokenChunks(capture.input), 'token-wise')
    })

    test(`fixture ${capture.id}: generateText, whole text`, async () => {
      const app = await viaGenerateText(wrap(generateModel([{ type: 'text', text: capture.input }])).model, toolsOf(capture))
      checkApp(capture, app, 'generateText')
    })

    const chunks = capture.chunks
    if (chunks !== undefined) {
      test(`fixture ${capture.id}: streamText, the captured deltas`, async () => {
        assertEqual(chunks.join(''), capture.input, 'test bug: chunks do not rebuild the input')
        const app = await viaStreamText(wrap(streamModel(streamOf(textParts(chunks)))).model, toolsOf(capture))
        checkApp(capture, app, 'captured deltas')
        await checkParts(capture, chunks, 'captured deltas')
      })
    }
  }
})
