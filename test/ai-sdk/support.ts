/**
 * Helpers for the AI SDK middleware suites: mock models from `ai/test`
 * (`MockLanguageModelV4`, `convertArrayToReadableStream`), stream-part
 * builders, and runners at two levels — the wrapped model's own parts
 * (`doStream` / `doGenerate`, exactly what the middleware emits) and what an
 * app sees through `streamText` / `generateText` with declared tools.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider'
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel, type ToolSet } from 'ai'
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test'
import { dsmlMiddleware, type DsmlMiddlewareDiagnostic, type DsmlMiddlewareOptions } from '../../src/ai-sdk/index.ts'
import { collect } from '../support/streams.ts'

export type Part = LanguageModelV4StreamPart

export const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
}

export function finishReason(unified: LanguageModelV4FinishReason['unified'] = 'stop', raw: string | undefined = unified === 'stop' ? 'stop' : unified): LanguageModelV4FinishReason {
  return { unified, raw }
}

export type FinishPart = Extract<Part, { type: 'finish' }>

export function finishPart(unified: LanguageModelV4FinishReason['unified'] = 'stop', raw?: string): FinishPart {
  return { type: 'finish', usage, finishReason: finishReason(unified, raw) }
}

/** One text part: `text-start`, a `text-delta` per chunk, `text-end`. */
export function textParts(chunks: readonly string[], id = 'txt-0'): Part[] {
  return [{ type: 'text-start', id }, ...chunks.map((delta): Part => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }]
}

/** One reasoning part. */
export function reasoningParts(chunks: readonly string[], id = 'reasoning-0'): Part[] {
  return [{ type: 'reasoning-start', id }, ...chunks.map((delta): Part => ({ type: 'reasoning-delta', id, delta })), { type: 'reasoning-end', id }]
}

/** A whole stream as a provider sends it: stream-start, the given parts, finish. */
export function streamOf(parts: readonly Part[], finish: Part = finishPart()): Part[] {
  return [{ type: 'stream-start', warnings: [] }, ...parts, finish]
}

/** A native call, as `@ai-sdk/openai-compatible` streams it. */
export function nativeCallParts(toolCallId: string, toolName: string, input: string): Part[] {
  return [
    { type: 'tool-input-start', id: toolCallId, toolName },
    { type: 'tool-input-delta', id: toolCallId, delta: input },
    { type: 'tool-input-end', id: toolCallId },
    { type: 'tool-call', toolCallId, toolName, input },
  ]
}

export function streamModel(parts: readonly Part[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'deepseek-mock',
    modelId: 'deepseek-v4-flash',
    doStream: async () => ({ stream: convertArrayToReadableStream([...parts]) }),
  })
}

export function generateModel(content: LanguageModelV4Content[], reason: LanguageModelV4FinishReason = finishReason()): MockLanguageModelV4 {
  const result: LanguageModelV4GenerateResult = { content, finishReason: reason, usage, warnings: [] }
  return new MockLanguageModelV4({ provider: 'deepseek-mock', modelId: 'deepseek-v4-flash', doGenerate: async () => result })
}

/** Deterministic ids: `call_1`, `call_2`, … */
export function counterIds(prefix = 'call_'): () => string {
  let counter = 0
  return () => `${prefix}${++counter}`
}

export interface Wrapped {
  model: LanguageModelV4
  diagnostics: DsmlMiddlewareDiagnostic[]
}

/** The model wrapped with `dsmlMiddleware` (deterministic ids, diagnostics collected). */
export function wrap(model: LanguageModelV4, options: DsmlMiddlewareOptions = {}): Wrapped {
  const diagnostics: DsmlMiddlewareDiagnostic[] = []
  const middleware = dsmlMiddleware({
    generateId: counterIds(),
    ...options,
    onDiagnostic: (diagnostic) => {
      diagnostics.push(diagnostic)
      options.onDiagnostic?.(diagnostic)
    },
  })
  return { model: wrapLanguageModel({ model, middleware }), diagnostics }
}

export const userPrompt: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text: 'Go on.' }] }]

/** Call options declaring `tools` as function tools (what `streamText` sends). */
export function callOptions(tools: readonly string[] = [], extra: Partial<LanguageModelV4CallOptions> = {}): LanguageModelV4CallOptions {
  const options: LanguageModelV4CallOptions = { prompt: userPrompt, ...extra }
  if (tools.length > 0) options.tools = tools.map((name) => ({ type: 'function', name, inputSchema: { type: 'object' } }))
  return options
}

/** Reads a stream to its end (the shared helper, under the name these suites use). */
export const readAll = collect

/** The parts the wrapped model emits for one `doStream` call. */
export async function modelParts(model: LanguageModelV4, options: LanguageModelV4CallOptions = callOptions()): Promise<Part[]> {
  return readAll((await model.doStream(options)).stream)
}

/** Tools as an app declares them: any object input, no `execute` (calls are returned to the app). */
export function toolsFor(names: readonly string[]): ToolSet {
  const tools: ToolSet = {}
  for (const name of names) tools[name] = tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }) })
  return tools
}

export interface AppCall {
  toolName: string
  input: unknown
}

export interface AppResult {
  text: string
  reasoningText: string | undefined
  toolCalls: AppCall[]
  toolCallIds: string[]
  finishReason: string
  rawFinishReason: string | undefined
  /** `fullStream` part types (stream only). */
  types: string[]
  errors: unknown[]
}

/** What an app sees through `streamText` with `tools` declared. */
export async function viaStreamText(model: LanguageModelV4, tools: readonly string[]): Promise<AppResult> {
  const errors: unknown[] = []
  const result = streamText({ model, prompt: 'Go on.', tools: toolsFor(tools), onError: ({ error }) => void errors.push(error) })
  const types: string[] = []
  for await (const part of result.fullStream) {
    types.push(part.type)
    if (part.type === 'error' || part.type === 'tool-error') errors.push(part)
  }
  const toolCalls = await result.toolCalls
  return {
    text: await result.text,
    reasoningText: await result.reasoningText,
    toolCalls: toolCalls.map((call) => ({ toolName: call.toolName, input: call.input })),
    toolCallIds: toolCalls.map((call) => call.toolCallId),
    finishReason: await result.finishReason,
    rawFinishReason: await result.rawFinishReason,
    types,
    errors,
  }
}

/** What an app sees through `generateText` with `tools` declared. */
export async function viaGenerateText(model: LanguageModelV4, tools: readonly string[]): Promise<AppResult> {
  const result = await generateText({ model, prompt: 'Go on.', tools: toolsFor(tools) })
  return {
    text: result.text,
    reasoningText: result.reasoningText,
    toolCalls: result.toolCalls.map((call) => ({ toolName: call.toolName, input: call.input })),
    toolCallIds: result.toolCalls.map((call) => call.toolCallId),
    finishReason: result.finishReason,
    rawFinishReason: result.rawFinishReason,
    types: [],
    errors: result.content.filter((part) => part.type === 'tool-error'),
  }
}

/** Part types in order. */
export function typesOf(parts: readonly Part[]): string[] {
  return parts.map((part) => part.type)
}

/** Concatenated `text-delta` (or `reasoning-delta`) text. */
export function deltaText(parts: readonly Part[], type: 'text-delta' | 'reasoning-delta' = 'text-delta'): string {
  let out = ''
  for (const part of parts) if (part.type === type) out += part.delta
  return out
}

export function toolCallsOf(parts: readonly Part[]): Array<Extract<Part, { type: 'tool-call' }>> {
  return parts.filter((part): part is Extract<Part, { type: 'tool-call' }> => part.type === 'tool-call')
}

/** Checks the recovered-call part sequences: start, the whole JSON as one delta, end, then the call, same id. */
export function assertToolSequences(parts: readonly Part[], assertTrue: (condition: unknown, message: string) => void): void {
  parts.forEach((part, index) => {
    if (part.type !== 'tool-call') return
    const [start, delta, end] = parts.slice(index - 3, index)
    assertTrue(start?.type === 'tool-input-start' && start.id === part.toolCallId && start.toolName === part.toolName, `tool-input-start before ${part.toolCallId}`)
    assertTrue(delta?.type === 'tool-input-delta' && delta.id === part.toolCallId && delta.delta === part.input, `tool-input-delta with the whole input before ${part.toolCallId}`)
    assertTrue(end?.type === 'tool-input-end' && end.id === part.toolCallId, `tool-input-end before ${part.toolCallId}`)
    JSON.parse(part.input)
  })
  const ids = toolCallsOf(parts).map((call) => call.toolCallId)
  assertTrue(new Set(ids).size === ids.length, `tool call ids are unique: ${ids.join(', ')}`)
}

/** Text deltas never hold a bar character (no partial marker leaked). */
export function barsInDeltas(parts: readonly Part[]): string[] {
  return parts.filter((part) => (part.type === 'text-delta' || part.type === 'reasoning-delta') && /[\uFF5C\u2016\u2502]/.test(part.delta)).map((part) => (part as { delta: string }).delta)
}
