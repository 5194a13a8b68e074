// The official OpenAI SDK, repaired with no gateway: `fetch: createRepairFetch()`.
// Run: npx tsx examples/repair-fetch.ts
// With DSML_BASE_URL (plus DSML_API_KEY, DSML_MODEL) it asks a real OpenAI-compatible endpoint;
// without, a small leaking upstream stands in for one (the `fetch` createRepairFetch wraps).
import OpenAI from 'openai'
import { createRepairFetch } from 'dsml-streams'

// A leaking upstream: DeepSeek-style chunks whose content is DSML (‹DSML› = U+FF5C "DSML" U+FF5C).
const m = '\uFF5CDSML\uFF5C'
const leak = `Checking.\n\n<${m}tool_calls>\n<${m}invoke name="bash">\n<${m}parameter name="command" string="true">ls -la</${m}parameter>\n</${m}invoke>\n</${m}tool_calls>`
async function leakingUpstream(): Promise<Response> {
  const envelope = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-flash' }
  const chunk = (delta: object, finish: string | null = null): string =>
    `data: ${JSON.stringify({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`
  const events = [chunk({ role: 'assistant', content: '' }), ...(leak.match(/[\s\S]{1,7}/g) ?? []).map((piece) => chunk({ content: piece })), chunk({}, 'stop'), 'data: [DONE]\n\n']
  return new Response(events.join(''), { headers: { 'content-type': 'text/event-stream' } })
}

const real = process.env.DSML_BASE_URL
const client = new OpenAI({
  baseURL: real ?? 'http://leaking-upstream.invalid/v1',
  apiKey: process.env.DSML_API_KEY ?? 'unused',
  fetch: createRepairFetch(real === undefined ? { fetch: leakingUpstream } : {}),
})

const completion = await client.chat.completions
  .stream({
    model: process.env.DSML_MODEL ?? 'deepseek-v4-flash',
    messages: [{ role: 'user', content: 'List the files here.' }],
    tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }],
  })
  .finalChatCompletion()

const message = completion.choices[0]!.message
console.log(`text: ${JSON.stringify(message.content)}`)
for (const call of message.tool_calls ?? []) if (call.type === 'function') console.log(`call: ${call.function.name} ${call.function.arguments}`)
console.log(`finish: ${completion.choices[0]!.finish_reason}`)
