// examples/ai-sdk.ts runs (Node; examples are user-facing scripts): with the mock
// model by default, and against an OpenAI-compatible endpoint when DSML_BASE_URL is
// set — here a local server that streams a leaked call as Chat Completions SSE.
import { execFile } from 'node:child_process'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { block, invoke, param, tokenChunks } from '../support/dsml-builders.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

async function runExample(env: Record<string, string>): Promise<string> {
  const clean = { ...process.env }
  for (const name of ['DSML_BASE_URL', 'DSML_API_KEY', 'DSML_MODEL', 'DSML_PROMPT']) delete clean[name]
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/ai-sdk.ts'], { cwd: root, encoding: 'utf8', env: { ...clean, ...env } })
  return stdout
}

async function body(request: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of request) text += String(chunk)
  return text
}

test('examples/ai-sdk.ts: the mock model leak comes out as a bash tool call, finish tool-calls', async () => {
  const output = await runExample({})
  expect(output).toContain('model: mock')
  expect(output).toContain('text: "I will list the files first.\\n\\n"')
  expect(output).toContain('tool-call: bash {"command":"ls -la"}')
  expect(output).toContain('finish: tool-calls (raw: stop)')
  expect(output).not.toMatch(/[\uFF5C\u2016]/) // no marker bar in anything printed
})

test('examples/ai-sdk.ts: with DSML_BASE_URL it streams from an OpenAI-compatible endpoint, repaired', async () => {
  const leak = `Listing.\n${block([invoke('bash', [param('command', 'pwd')])])}`
  const requests: Array<{ url: string | undefined; authorization: string | undefined; body: Record<string, unknown> }> = []
  const server = createServer(async (request, response) => {
    requests.push({ url: request.url, authorization: request.headers.authorization, body: JSON.parse(await body(request)) as Record<string, unknown> })
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    for (const piece of tokenChunks(leak)) response.write(chunk({ content: piece }))
    response.write(chunk({}, 'stop'))
    response.end('data: [DONE]\n\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const { port } = server.address() as AddressInfo
    const output = await runExample({ DSML_BASE_URL: `http://127.0.0.1:${port}/v1`, DSML_API_KEY: 'sk-test', DSML_MODEL: 'deepseek-v4-flash' })
    expect(output).toContain(`model: deepseek-v4-flash at http://127.0.0.1:${port}/v1`)
    expect(output).toContain('text: "Listing.\\n"')
    expect(output).toContain('tool-call: bash {"command":"pwd"}')
    expect(output).toContain('finish: tool-calls (raw: stop)')
    expect(output).not.toMatch(/[\uFF5C\u2016]/) // no marker bar in anything printed
    expect(requests).toHaveLength(1)
    expect(requests[0]?.url).toBe('/v1/chat/completions')
    expect(requests[0]?.authorization).toBe('Bearer sk-test')
    expect(requests[0]?.body).toMatchObject({ model: 'deepseek-v4-flash', stream: true, tools: [{ type: 'function', function: { name: 'bash' } }] })
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
