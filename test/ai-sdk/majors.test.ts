/**
 * One middleware for every AI SDK major, with the real packages installed
 * side by side (npm aliases: `ai5` is ai 5 with @ai-sdk/provider 2, `ai6`
 * is ai 6 with provider 3, `ai` is ai 7): `streamText` and `generateText`
 * over a leaking mock model of each major's spec (its own
 * `MockLanguageModelV2` / `V3` / `V4`) give one tool call, finish
 * `tool-calls`, the prose kept and no marker. The bare mock must leak, or
 * the harness proves nothing. Node only (the aliases are devDependencies).
 */
import * as ai7 from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import * as ai5 from 'ai5'
import { MockLanguageModelV2 } from 'ai5/test'
import * as ai6 from 'ai6'
import { MockLanguageModelV3 } from 'ai6/test'
import { describe, expect, test } from 'vitest'
import { dsmlMiddleware } from '../../src/ai-sdk/index.ts'
import { block, invoke, leaksMarkup, param } from '../support/dsml-builders.ts'

const leak = `Let me look.\n\n${block([invoke('bash', [param('command', 'ls')])])}`

/** The leak as the parts and the finish of each spec (V2: a string finish and flat usage; V3 and V4: `{ unified, raw }`). */
function modelParts(spec: 'v2' | 'v3' | 'v4'): { parts: unknown[]; finishReason: unknown; usage: unknown } {
  const finishReason = spec === 'v2' ? 'stop' : { unified: 'stop', raw: 'stop' }
  const usage = spec === 'v2'
    ? { inputTokens: 5, outputTokens: 9, totalTokens: 14 }
    : { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 9, text: 9, reasoning: 0 } }
  const deltas = leak.match(/[\s\S]{1,3}/g)!.map((delta) => ({ type: 'text-delta', id: 't0', delta }))
  const parts = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't0' }, ...deltas, { type: 'text-end', id: 't0' }, { type: 'finish', finishReason, usage }]
  return { parts, finishReason, usage }
}

type Driver = {
  name: string
  spec: 'v2' | 'v3' | 'v4'
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each major's own module, driven alike
  sdk: any
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  Mock: any
}

const MAJORS: Driver[] = [
  { name: 'ai 5 (spec v2)', spec: 'v2', sdk: ai5, Mock: MockLanguageModelV2 },
  { name: 'ai 6 (spec v3)', spec: 'v3', sdk: ai6, Mock: MockLanguageModelV3 },
  { name: 'ai 7 (spec v4)', spec: 'v4', sdk: ai7, Mock: MockLanguageModelV4 },
]

interface Run {
  text: string
  calls: Array<{ name: string; input: unknown }>
  finish: unknown
}

async function drive(major: Driver, middleware: unknown | undefined): Promise<{ stream: Run; generate: Run }> {
  const { parts, finishReason, usage } = modelParts(major.spec)
  const model = new major.Mock({
    doStream: async () => ({ stream: new ReadableStream({ start(controller) { for (const part of parts) controller.enqueue(part); controller.close() } }) }),
    doGenerate: async () => ({ content: [{ type: 'text', text: leak }], finishReason, usage, warnings: [] }),
  })
  const wrapped = middleware === undefined ? model : major.sdk.wrapLanguageModel({ model, middleware })
  const tools = { bash: major.sdk.tool({ description: 'Run a shell command', inputSchema: major.sdk.jsonSchema({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }) }) }
  const streamed = major.sdk.streamText({ model: wrapped, prompt: 'List the files here', tools })
  const stream: Run = { text: '', calls: [], finish: undefined }
  for await (const part of streamed.fullStream) {
    if (part.type === 'text-delta') stream.text += part.text
    else if (part.type === 'tool-call') stream.calls.push({ name: part.toolName, input: part.input })
    else if (part.type === 'finish') stream.finish = part.finishReason
    else if (part.type === 'error') throw part.error
  }
  const generated = await major.sdk.generateText({ model: wrapped, prompt: 'List the files here', tools })
  const generate: Run = { text: generated.text, calls: generated.toolCalls.map((call: { toolName: string; input: unknown }) => ({ name: call.toolName, input: call.input })), finish: generated.finishReason }
  return { stream, generate }
}

describe('dsmlMiddleware on every AI SDK major', () => {
  for (const major of MAJORS) {
    test(`${major.name}: streamText and generateText give one bash call, finish tool-calls, the prose and no marker`, async () => {
      const bare = await drive(major, undefined)
      for (const run of [bare.stream, bare.generate]) expect([leaksMarkup(run.text), run.calls.length, run.finish], 'the bare mock leaks').toEqual([true, 0, 'stop'])
      const repaired = await drive(major, dsmlMiddleware())
      for (const run of [repaired.stream, repaired.generate]) {
        expect(run.calls).toEqual([{ name: 'bash', input: { command: 'ls' } }])
        expect(run.finish).toBe('tool-calls')
        expect(run.text).toContain('Let me look.')
        expect(leaksMarkup(run.text)).toBe(false)
      }
    })
  }
})
