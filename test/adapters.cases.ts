/**
 * One leak table through every way into the library. Each case — every real
 * capture, and a table of settlement cases (native calls, reasoning copies,
 * finish reasons, no finish) — goes through:
 * - the fused Chat Completions stream (an SSE body, token-sized deltas);
 * - `repairChatCompletionsResponse` on a JSON `chat.completion` body;
 * - the AI SDK middleware's `wrapStream` (token-sized deltas);
 * - the AI SDK middleware's `wrapGenerate` (one content part per channel);
 * and gives the same calls, the same clean text and reasoning, the same
 * finish, and the same diagnostics in the same order. The captures' texts,
 * as assistant history, are repaired the same by `sanitizeChatCompletionsRequest`
 * and by `transformParams`.
 */
import type { LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4Message } from '@ai-sdk/provider'
import { repairChatCompletionsResponse, sanitizeChatCompletionsRequest } from '../src/chat-completions/index.ts'
import { dsmlMiddleware } from '../src/ai-sdk/index.ts'
import type { DeclaredTool } from '../src/dsml/tool-schema.ts'
import type { Diagnostic } from '../src/dsml/types.ts'
import { assertEqual } from './support/assert.ts'
import { captures, declaredOptions } from './support/captures.ts'
import { block, invoke, param, tokenChunks } from './support/dsml-builders.ts'
import { defineSuite } from './support/harness.ts'
import {
  chunk,
  counterIds,
  DONE,
  nativeCall,
  reasoning,
  repair,
  ROLE,
  readRepaired,
  text,
} from './chat-completions/support.ts'
import {
  callOptions,
  deltaText,
  finishPart,
  finishReason,
  generateModel,
  modelParts,
  nativeCallParts,
  reasoningParts,
  streamModel,
  textParts,
  toolCallsOf,
  wrap,
  type Part,
} from './ai-sdk/support.ts'

/** One message as every adapter sees it. `finish` is the Chat Completions spelling; undefined: the stream is cut. */
interface Case {
  name: string
  content: string
  reasoning?: string
  native?: { id: string; name: string; arguments: string }
  finish: 'stop' | 'tool_calls' | 'length' | undefined
  tools: DeclaredTool[]
  recoverOnTruncation?: boolean
}

/** What a path gives, in neutral terms. */
interface Outcome {
  calls: Array<{ id: string; name: string; arguments: unknown }>
  content: string
  reasoning: string
  finish: string | undefined
  diagnostics: string[]
}

const UNIFIED: Record<string, LanguageModelV4FinishReason['unified']> = { stop: 'stop', tool_calls: 'tool-calls', length: 'length' }
const SPELLED: Record<string, string> = { stop: 'stop', 'tool-calls': 'tool_calls', length: 'length' }

function essentials(diagnostics: ReadonlyArray<Pick<Diagnostic, 'kind' | 'text' | 'tool' | 'message' | 'toolCallId'>>): string[] {
  return diagnostics.map((diagnostic) => [diagnostic.kind, diagnostic.tool ?? '', diagnostic.toolCallId ?? '', diagnostic.message, diagnostic.text].join(' | '))
}

function viaChatCompletionsStream(c: Case): Outcome {
  let input = ROLE
  if (c.reasoning !== undefined) for (const piece of tokenChunks(c.reasoning)) input += reasoning(piece)
  for (const piece of tokenChunks(c.content)) input += text(piece)
  if (c.native !== undefined) input += nativeCall(0, c.native.id, c.native.name, c.native.arguments)
  if (c.finish !== undefined) input += chunk({}, c.finish) + DONE
  const run = repair(input, { tools: c.tools, recoverOnTruncation: c.recoverOnTruncation === true })
  const out = readRepaired(run.output)
  return {
    calls: out.calls.filter((call) => call.id !== c.native?.id).map((call) => ({ id: call.id ?? '', name: call.name, arguments: JSON.parse(call.arguments) as unknown })),
    content: out.content,
    reasoning: out.reasoning,
    finish: out.finishReasons[0],
    diagnostics: essentials(run.diagnostics),
  }
}

async function viaChatCompletionsJson(c: Case): Promise<Outcome> {
  const message: Record<string, unknown> = { role: 'assistant', content: c.content }
  if (c.reasoning !== undefined) message.reasoning_content = c.reasoning
  if (c.native !== undefined) message.tool_calls = [{ id: c.native.id, type: 'function', function: { name: c.native.name, arguments: c.native.arguments } }]
  const body = { id: 'x', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: c.finish ?? null }] }
  const diagnostics: Diagnostic[] = []
  const response = await repairChatCompletionsResponse(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }), {
    tools: c.tools,
    recoverOnTruncation: c.recoverOnTruncation === true,
    generateId: counterIds(),
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  })
  const repaired = (await response.json()) as typeof body & { choices: Array<{ message: { content: string; reasoning_content?: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> } }> }
  const choice = repaired.choices[0]!
  return {
    calls: (choice.message.tool_calls ?? []).filter((call) => call.id !== c.native?.id).map((call) => ({ id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown })),
    content: choice.message.content,
    reasoning: choice.message.reasoning_content ?? '',
    finish: choice.finish_reason ?? undefined,
    diagnostics: essentials(diagnostics),
  }
}

function aiSdkTools(c: Case) {
  return callOptions([], { tools: c.tools.map((tool) => ({ type: 'function' as const, name: tool.name, inputSchema: tool.parameters ?? { type: 'object' } })) })
}

async function viaAiSdkStream(c: Case): Promise<Outcome> {
  const parts: Part[] = [{ type: 'stream-start', warnings: [] }]
  if (c.reasoning !== undefined) parts.push(...reasoningParts(tokenChunks(c.reasoning)))
  parts.push(...textParts(tokenChunks(c.content)))
  if (c.native !== undefined) parts.push(...nativeCallParts(c.native.id, c.native.name, c.native.arguments))
  if (c.finish !== undefined) parts.push(finishPart(UNIFIED[c.finish], c.finish))
  const wrapped = wrap(streamModel(parts), { recoverOnTruncation: c.recoverOnTruncation === true })
  const out = await modelParts(wrapped.model, aiSdkTools(c))
  const finish = out.find((part) => part.type === 'finish')
  return {
    calls: toolCallsOf(out).filter((call) => call.toolCallId !== c.native?.id).map((call) => ({ id: call.toolCallId, name: call.toolName, arguments: JSON.parse(call.input) as unknown })),
    content: deltaText(out),
    reasoning: deltaText(out, 'reasoning-delta'),
    finish: finish === undefined ? undefined : SPELLED[(finish as { finishReason: LanguageModelV4FinishReason }).finishReason.unified],
    diagnostics: essentials(wrapped.diagnostics),
  }
}

async function viaAiSdkGenerate(c: Case): Promise<Outcome> {
  const content: LanguageModelV4Content[] = []
  if (c.reasoning !== undefined) content.push({ type: 'reasoning', text: c.reasoning })
  content.push({ type: 'text', text: c.content })
  if (c.native !== undefined) content.push({ type: 'tool-call', toolCallId: c.native.id, toolName: c.native.name, input: c.native.arguments })
  // A cut stream has no generate counterpart; its finish reads `other`, which fails closed like no finish.
  const reason = c.finish === undefined ? finishReason('other', undefined) : finishReason(UNIFIED[c.finish], c.finish)
  const wrapped = wrap(generateModel(content, reason), { recoverOnTruncation: c.recoverOnTruncation === true })
  const result = await wrapped.model.doGenerate(aiSdkTools(c))
  const calls = result.content.filter((part) => part.type === 'tool-call' && part.toolCallId !== c.native?.id) as Array<Extract<LanguageModelV4Content, { type: 'tool-call' }>>
  return {
    calls: calls.map((call) => ({ id: call.toolCallId, name: call.toolName, arguments: JSON.parse(call.input) as unknown })),
    content: result.content.filter((part) => part.type === 'text').map((part) => part.text).join(''),
    reasoning: result.content.filter((part) => part.type === 'reasoning').map((part) => part.text).join(''),
    finish: c.finish === undefined ? undefined : SPELLED[result.finishReason.unified],
    diagnostics: essentials(wrapped.diagnostics),
  }
}

/** Without a finish, the generate path's `other` differs in its messages' words only: compare kinds, tools and texts. */
function comparable(outcome: Outcome, c: Case): Outcome {
  if (c.finish !== undefined) return outcome
  return { ...outcome, diagnostics: outcome.diagnostics.map((line) => line.split(' | ').filter((_, index) => index !== 3).join(' | ')) }
}

async function assertSamePaths(c: Case): Promise<Outcome> {
  const stream = viaChatCompletionsStream(c)
  assertEqual(await viaChatCompletionsJson(c), stream, `${c.name}: Chat Completions JSON = stream`)
  assertEqual(await viaAiSdkStream(c), stream, `${c.name}: AI SDK stream = Chat Completions stream`)
  assertEqual(comparable(await viaAiSdkGenerate(c), c), comparable(stream, c), `${c.name}: AI SDK generate = Chat Completions stream`)
  return stream
}

async function historyViaAiSdk(history: string, tools: DeclaredTool[]): Promise<string> {
  const middleware = dsmlMiddleware({})
  const prompt = [{ role: 'assistant', content: [{ type: 'text', text: history }] } as LanguageModelV4Message]
  const params = await middleware.transformParams!({ type: 'stream', params: { ...aiSdkTools({ tools } as Case), prompt }, model: streamModel([]) })
  return ((params.prompt[0] as Extract<LanguageModelV4Message, { role: 'assistant' }>).content[0] as { text: string }).text
}

function historyViaChatCompletions(history: string, tools: DeclaredTool[]): string {
  const body = sanitizeChatCompletionsRequest(
    { messages: [{ role: 'assistant', content: history }] },
    { tools },
  )
  return body.messages[0]!.content
}

const BASH = block([invoke('bash', [param('command', 'ls')])])
const READ = block([invoke('read', [param('path', 'a.ts')])])
const TOOLS: DeclaredTool[] = [{ name: 'bash' }, { name: 'read' }]

const SETTLEMENT_CASES: Case[] = [
  { name: 'stop: the call is emitted, stop becomes tool_calls', content: `Listing. ${BASH}`, finish: 'stop', tools: TOOLS },
  { name: 'tool_calls: emitted, finish kept', content: BASH, finish: 'tool_calls', tools: TOOLS },
  { name: 'length: fail closed', content: `a ${BASH}`, finish: 'length', tools: TOOLS },
  { name: 'length + recoverOnTruncation: emitted, finish kept', content: `a ${BASH}`, finish: 'length', tools: TOOLS, recoverOnTruncation: true },
  { name: 'no finish: fail closed', content: `a ${BASH}`, finish: undefined, tools: TOOLS },
  { name: 'the same native call: duplicate-call', content: BASH, native: { id: 'call_native', name: 'bash', arguments: '{"command":"ls"}' }, finish: 'tool_calls', tools: TOOLS },
  { name: 'another native call: suppressed-call', content: READ, native: { id: 'call_native', name: 'bash', arguments: '{"command":"ls"}' }, finish: 'tool_calls', tools: TOOLS },
  { name: 'a reasoning draft and its copy in the answer: one call', reasoning: `Plan: ${BASH}`, content: BASH, finish: 'stop', tools: TOOLS },
  { name: 'different calls from reasoning and answer: both', reasoning: BASH, content: READ, finish: 'stop', tools: TOOLS },
  { name: 'an undeclared tool: removed, unknown-tool', content: block([invoke('rm', [param('path', '/')])]), finish: 'stop', tools: TOOLS },
]

export const suite = defineSuite('adapters', (test) => {
  for (const capture of captures) {
    test(`capture ${capture.id}: every path gives the same calls, text and diagnostics; history is repaired the same`, async () => {
      const tools = declaredOptions(capture).tools ?? capture.expected_calls.map((call) => ({ name: call.name }))
      const c: Case = { name: capture.id, content: capture.input, finish: 'stop', tools }
      const outcome = await assertSamePaths(c)
      assertEqual(outcome.calls.map((call) => ({ name: call.name, arguments: call.arguments })), capture.expected_calls, 'the expected calls')
      assertEqual(await historyViaAiSdk(capture.input, tools), historyViaChatCompletions(capture.input, tools), 'history')
    })
  }

  for (const c of SETTLEMENT_CASES) {
    test(`settlement: ${c.name}, the same on every path`, async () => {
      await assertSamePaths(c)
    })
  }

  test('settlement cases say what they claim (the table is not vacuous)', async () => {
    const kinds = async (index: number): Promise<string[]> => (await assertSamePaths(SETTLEMENT_CASES[index]!)).diagnostics.map((line) => line.split(' | ')[0]!).filter((kind) => kind !== 'dropped-markup')
    const first = await assertSamePaths(SETTLEMENT_CASES[0]!)
    assertEqual([first.calls.length, first.finish], [1, 'tool_calls'], 'stop → tool_calls')
    assertEqual(await kinds(2), ['suppressed-call'], 'length')
    assertEqual((await assertSamePaths(SETTLEMENT_CASES[3]!)).finish, 'length', 'length kept')
    assertEqual(await kinds(4), ['suppressed-call'], 'no finish')
    assertEqual(await kinds(5), ['duplicate-call'], 'same native')
    assertEqual(await kinds(6), ['suppressed-call'], 'other native')
    assertEqual(await kinds(7), ['recovered-call', 'duplicate-call'], 'reasoning copy')
    assertEqual((await assertSamePaths(SETTLEMENT_CASES[8]!)).calls.map((call) => call.name), ['bash', 'read'], 'both channels')
    assertEqual(await kinds(9), ['unknown-tool'], 'undeclared')
  })
})
