// The AI SDK middleware: one line repairs any wrapped model.
// Run: npx tsx examples/ai-sdk.ts
//
// By default a mock model streams a real-shaped leak (a doubled-bar block, token by
// token, finish "stop"). With DSML_BASE_URL set (plus DSML_API_KEY and DSML_MODEL),
// the same code streams from that OpenAI-compatible endpoint instead, e.g.
//   DSML_BASE_URL=https://api.deepseek.com DSML_API_KEY=sk-... DSML_MODEL=deepseek-chat npx tsx examples/ai-sdk.ts
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { jsonSchema, streamText, tool, wrapLanguageModel } from 'ai'
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test'
import { dsmlMiddleware } from 'dsml-streams/ai-sdk'
import { openAICompatibleModel } from './support/openai-compatible-model.ts'

function mockModel(): LanguageModelV4 {
  // Marker bytes are built at run time, never written literally: ‹‹DSML›› = two U+FF5C, "DSML", two U+FF5C.
  const m = '\uFF5C\uFF5CDSML\uFF5C\uFF5C'
  const leak = `I will list the files first.\n\n<${m}tool_calls>\n<${m}invoke name="bash">\n`
    + `<${m}parameter name="command" string="true">ls -la</${m}parameter>\n</${m}invoke>\n</${m}tool_calls>`
  const deltas = leak.match(/[\p{L}\p{N}]{1,4}|\s|[\s\S]/gu) ?? [] // token-sized pieces, as a model streams them
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'txt-0' },
    ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 'txt-0', delta })),
    { type: 'text-end', id: 'txt-0' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 40, text: 40, reasoning: 0 } },
    },
  ]
  return new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream(parts) }) })
}

const baseURL = process.env.DSML_BASE_URL
const upstream = baseURL
  ? openAICompatibleModel({ baseURL, apiKey: process.env.DSML_API_KEY, model: process.env.DSML_MODEL ?? 'deepseek-chat' })
  : mockModel()
console.log(`model: ${baseURL ? `${upstream.modelId} at ${baseURL}` : 'mock (set DSML_BASE_URL for a real endpoint)'}`)

// The one line: wrap the model.
const model = wrapLanguageModel({
  model: upstream,
  middleware: dsmlMiddleware({ onDiagnostic: (d) => console.log(`diagnostic: ${d.kind}${d.tool ? ` (${d.tool})` : ''}`) }),
})

const result = streamText({
  model,
  prompt: process.env.DSML_PROMPT ?? 'List the files in the current directory with the bash tool.',
  tools: {
    bash: tool({
      description: 'Run a shell command',
      inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }),
    }),
  },
})

for await (const part of result.fullStream) {
  if (part.type === 'error') console.log('error:', part.error)
}
console.log('text:', JSON.stringify(await result.text))
for (const call of await result.toolCalls) console.log('tool-call:', call.toolName, JSON.stringify(call.input))
console.log(`finish: ${await result.finishReason} (raw: ${await result.rawFinishReason})`)
