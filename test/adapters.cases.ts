/**
 * One leak table through both adapters: every real capture, streamed as a
 * Chat Completions SSE body through the fused repair and as AI SDK text
 * deltas through the middleware, with the same declared tools, gives the
 * same recovered calls, the same clean text and the same diagnostics.
 */
import { assertEqual } from './support/assert.ts'
import { captures, declaredOptions } from './support/captures.ts'
import { tokenChunks } from './support/dsml-builders.ts'
import { defineSuite } from './support/harness.ts'
import { answer, readRepaired, repair } from './chat-completions/support.ts'
import { callOptions, deltaText, modelParts, streamModel, streamOf, textParts, toolCallsOf, wrap } from './ai-sdk/support.ts'

export const suite = defineSuite('adapters', (test) => {
  for (const capture of captures) {
    test(`capture ${capture.id}: the Chat Completions and AI SDK paths give the same calls, text and diagnostics`, async () => {
      const tools = declaredOptions(capture).tools ?? capture.expected_calls.map((call) => ({ name: call.name }))
      const run = repair(answer(tokenChunks(capture.input)), { tools })
      const sse = readRepaired(run.output)
      const viaChatCompletions = sse.calls.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) as unknown }))
      const wrapped = wrap(streamModel(streamOf(textParts(tokenChunks(capture.input)))))
      const parts = await modelParts(
        wrapped.model,
        callOptions([], { tools: tools.map((tool) => ({ type: 'function' as const, name: tool.name, inputSchema: { type: 'object' } })) }),
      )
      const viaAiSdk = toolCallsOf(parts).map((call) => ({ name: call.toolName, arguments: JSON.parse(call.input) as unknown }))
      assertEqual(viaAiSdk, viaChatCompletions, 'calls')
      assertEqual(viaChatCompletions, capture.expected_calls, 'the expected calls')
      assertEqual(deltaText(parts), sse.content, 'text')
      const essentials = (diagnostics: ReadonlyArray<{ kind: string; text: string; tool?: string }>): string[] =>
        diagnostics.map((diagnostic) => `${diagnostic.kind}:${diagnostic.tool ?? ''}:${diagnostic.text.length}`)
      assertEqual(essentials(wrapped.diagnostics).sort(), essentials(run.diagnostics).sort(), 'diagnostics (the same, in any order)')
    })
  }
})
