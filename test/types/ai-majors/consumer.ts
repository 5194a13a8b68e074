// An AI SDK project as a user writes it, checked against each major's own types (tsconfig.ai5.json,
// tsconfig.ai6.json, tsconfig.ai7.json map `ai` to that major): the middleware fits wrapLanguageModel,
// alone and in a list, and the wrapped model goes to streamText and generateText.
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from 'ai'
import { dsmlMiddleware } from 'dsml-streams/ai-sdk'

declare const model: Parameters<typeof wrapLanguageModel>[0]['model']

const repaired = wrapLanguageModel({ model, middleware: dsmlMiddleware({ knownTools: ['bash'], recoveryNudge: true }) })
const stacked = wrapLanguageModel({ model, middleware: [dsmlMiddleware(), dsmlMiddleware({ mode: 'strip' })] })
const tools = {
  bash: tool({ description: 'Run a shell command', inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }) }),
}

export const streamed = streamText({ model: repaired, prompt: 'List the files here', tools })
export const generated = generateText({ model: stacked, prompt: 'List the files here', tools })
