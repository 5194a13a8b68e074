/**
 * The `wrapper-*` rows of seeds/TEST-MATRIX.md (the model wrapped with
 * `wrapLanguageModel({ model, middleware: dsmlMiddleware() })`), and
 * `wrapGenerate` on whole results: `repair-append` (a leaked call, no native
 * one: text stripped, call appended, finish `tool-calls`), reasoning content,
 * emptied text parts, native calls anywhere in the content,
 * `structuredOutputText`, and the middleware's own shape.
 */
import type { LanguageModelV4Content, LanguageModelV4GenerateResult } from '@ai-sdk/provider'
import { jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test'
import { dsmlMiddleware } from '../../src/ai-sdk/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { block, dialect, invoke, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import {
  callOptions,
  finishReason,
  generateModel,
  modelParts,
  streamModel,
  streamOf,
  textParts,
  toolCallsOf,
  viaGenerateText,
  viaStreamText,
  wrap,
} from './support.ts'

const bash = block([invoke('bash', [param('command', 'ls -la')])])

async function generate(content: LanguageModelV4Content[], tools: string[], reason = finishReason()): Promise<LanguageModelV4GenerateResult> {
  return wrap(generateModel(content, reason)).model.doGenerate(callOptions(tools))
}

export const suite = defineSuite('ai-sdk/wrapper', (test) => {
  test('wrapper-stream: a block in the stream gives one tool call and finish tool-calls through streamText', async () => {
    const parts = streamOf(textParts(tokenChunks(`I will list the files.\n\n${bash}`)))
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['bash', 'read'])
    assertEqual(app.toolCalls, [{ toolName: 'bash', input: { command: 'ls -la' } }], 'tool calls')
    assertEqual(app.finishReason, 'tool-calls', 'finish')
    assertEqual(app.text, 'I will list the files.\n\n', 'text')
    const types = app.types.filter((type) => type.startsWith('tool-'))
    assertEqual(types, ['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call'], 'fullStream tool parts')
  })

  test('wrapper-stream: in an agent loop the recovered call runs, and the next request carries the call, its result and clean text', async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        { stream: convertArrayToReadableStream(streamOf(textParts(tokenChunks(`Listing.\n${bash}`)))) },
        { stream: convertArrayToReadableStream(streamOf(textParts(['Two files.']))) },
      ],
    })
    const ran: unknown[] = []
    const result = streamText({
      model: wrap(model).model,
      prompt: 'What is here?',
      stopWhen: stepCountIs(2),
      tools: { bash: tool({ inputSchema: jsonSchema<{ command: string }>({ type: 'object' }), execute: async (input) => (ran.push(input), 'a.kt b.kt') }) },
    })
    assertEqual(await result.text, 'Two files.', 'final answer')
    assertEqual(ran, [{ command: 'ls -la' }], 'the tool ran once with the recovered input')
    const second = model.doStreamCalls[1]!.prompt
    assertEqual(second.map((message) => message.role), ['user', 'assistant', 'tool'], 'second request')
    const assistantContent = (second[1] as { content: Array<{ type: string; text?: string; toolName?: string }> }).content
    assertEqual(assistantContent.map((part) => [part.type, part.text ?? part.toolName]), [['text', 'Listing.\n'], ['tool-call', 'bash']], 'assistant message: clean text, then the call')
  })

  test('wrapper-passthrough: plain text is untouched, streamed and generated', async () => {
    const parts = streamOf(textParts(['Just ', 'an answer ', 'with <tags> and | pipes.']))
    assertEqual(await modelParts(wrap(streamModel(parts)).model), await modelParts(streamModel(parts)), 'stream parts identical')
    const content: LanguageModelV4Content[] = [
      { type: 'reasoning', text: 'Think <a> little.' },
      { type: 'text', text: 'Just an answer.', providerMetadata: { deepseek: { x: 1 } } },
    ]
    const plain = await generateModel(content).doGenerate(callOptions(['bash']))
    const wrapped = await generate(content, ['bash'])
    assert(wrapped === plain || JSON.stringify(wrapped) === JSON.stringify(plain), 'generate result identical')
    assertEqual(wrapped, plain, 'generate result identical')
    assertEqual(await viaGenerateText(wrap(generateModel(content)).model, ['bash']), await viaGenerateText(generateModel(content), ['bash']), 'generateText identical')
  })

  test('wrapper-generate: a block in generated text becomes a tool-call content part, finish tool-calls', async () => {
    const result = await generate([{ type: 'text', text: `Listing.\n${bash}` }], ['bash'])
    assertEqual(result.content, [
      { type: 'text', text: 'Listing.\n' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: '{"command":"ls -la"}' },
    ], 'content')
    assertEqual(result.finishReason, { unified: 'tool-calls', raw: 'stop' }, 'finish')
    const app = await viaGenerateText(wrap(generateModel([{ type: 'text', text: `Listing.\n${bash}` }])).model, ['bash'])
    assertEqual([app.text, app.toolCalls, app.finishReason], ['Listing.\n', [{ toolName: 'bash', input: { command: 'ls -la' } }], 'tool-calls'], 'generateText')
  })

  test('repair-append: generate with a leaked call and no native call strips the text, appends the call, finish tool-calls', async () => {
    const doubled = dialect({ bars: 2 })
    const leak = doubled.block([doubled.invoke('read', [doubled.param('path', 'a.kt')]), doubled.invoke('read', [doubled.param('path', 'b.kt')])])
    const result = await generate([{ type: 'text', text: leak }], ['read'])
    assertEqual(result.content.map((part) => part.type), ['tool-call', 'tool-call'], 'the emptied text part is dropped; two calls appended')
    assertEqual(result.content.map((part) => (part.type === 'tool-call' ? JSON.parse(part.input) : undefined)), [{ path: 'a.kt' }, { path: 'b.kt' }], 'arguments')
    assertEqual(result.finishReason.unified, 'tool-calls', 'finish')
  })

  test('repair-thinking (generate): a block in reasoning content is removed; the reasoning part stays; its call is emitted', async () => {
    const result = await generate([
      { type: 'reasoning', text: `I should look.${bash}`, providerMetadata: { deepseek: { signature: 's' } } },
      { type: 'text', text: 'Looking now.' },
    ], ['bash'])
    assertEqual(result.content, [
      { type: 'reasoning', text: 'I should look.', providerMetadata: { deepseek: { signature: 's' } } },
      { type: 'text', text: 'Looking now.' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: '{"command":"ls -la"}' },
    ], 'content')
  })

  test('repair-strip-only (generate): a native tool-call part anywhere in the content wins; the leak is stripped, not appended', async () => {
    const native: LanguageModelV4Content = { type: 'tool-call', toolCallId: 'native-1', toolName: 'read', input: '{"path":"x"}' }
    for (const content of [[{ type: 'text', text: `a${bash}b` }, native], [native, { type: 'text', text: `a${bash}b` }]] as LanguageModelV4Content[][]) {
      const wrapped = wrap(generateModel(content, finishReason('tool-calls', 'tool_calls')))
      const result = await wrapped.model.doGenerate(callOptions(['bash', 'read']))
      assertEqual(toolCallsOf(result.content as never).map((call) => call.toolCallId), ['native-1'], 'only the native call')
      assertEqual(result.content.filter((part) => part.type === 'text'), [{ type: 'text', text: 'ab' }], 'text stripped')
      assertEqual(result.finishReason, { unified: 'tool-calls', raw: 'tool_calls' }, 'finish as sent')
      const suppressed = wrapped.diagnostics.filter((diagnostic) => diagnostic.kind === 'suppressed-call')
      assertEqual(suppressed.map((diagnostic) => [diagnostic.tool, diagnostic.toolCallId]), [['bash', 'call_1']], 'suppression reported')
      assert(suppressed[0]!.text.startsWith(bash.slice(0, bash.indexOf('</'))), 'the suppression carries the call\'s markup')
      // Calls are settled at the finish, so their diagnostics come after the block closer's.
      assertEqual(wrapped.diagnostics.reduce((sum, diagnostic) => sum + diagnostic.text.length, 0), bash.length, 'every removed character is reported')
    }
  })

  test('generate: structuredOutputText is cleaned too', async () => {
    const model = generateModel([{ type: 'text', text: `{"a":1}${bash}` }])
    const original = model.doGenerate
    model.doGenerate = async (options) => ({ ...(await original(options)), structuredOutputText: `{"a":1}${bash}` })
    const result = await wrap(model).model.doGenerate(callOptions(['bash']))
    assertEqual(result.structuredOutputText, '{"a":1}', 'structured output text')
  })

  test('middleware: one object for every major (specificationVersion v3, which ai 6 requires and ai 5 and 7 accept) with transformParams, wrapGenerate and wrapStream; mode off and repairHistory false drop hooks', () => {
    const middleware = dsmlMiddleware()
    assertEqual(middleware.specificationVersion, 'v3', 'spec version')
    assertEqual([typeof middleware.transformParams, typeof middleware.wrapGenerate, typeof middleware.wrapStream], ['function', 'function', 'function'], 'hooks')
    assertEqual(dsmlMiddleware({ mode: 'off' }), { specificationVersion: 'v3' }, 'mode off: no hooks')
    assertEqual(typeof dsmlMiddleware({ repairHistory: false }).transformParams, 'undefined', 'repairHistory false')
  })
})
