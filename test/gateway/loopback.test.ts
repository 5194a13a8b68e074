/**
 * Real sockets on 127.0.0.1 (Node only): a node:http server replays a capture
 * as SSE, one write per event with a small delay; a second node:http server
 * proxies to it through `repairChatCompletionsResponse` (and, in another
 * test, through the whole gateway); a `fetch` client reads the repaired
 * stream. Also: a client that cancels mid-stream closes the replay server's
 * response, and the real CLI (`npm start`) answers over its socket.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'
import { repairChatCompletionsResponse } from '../../src/chat-completions/index.ts'
import { createNodeListener } from '../../src/cli/node-bridge.ts'
import { replayDeltas, type ReplayCapture } from '../../src/cli/replay-upstream.ts'
import { createChatCompletionsGateway } from '../../src/gateway/index.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { hasMarker, readSseText, shapes } from './support.ts'

interface Capture extends ReplayCapture {
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>
}

const root = fileURLToPath(new URL('../..', import.meta.url))
const captures = leaks as Capture[]
const cherry = captures.find((capture) => capture.id === 'cherry-14747-captured-sse-deltas')!
const opensquilla = captures.find((capture) => capture.id === 'opensquilla-985-parallel-exec')!

const servers: Server[] = []
const children: ChildProcess[] = []

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    ),
  )
})

async function listen(server: Server): Promise<string> {
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

interface ReplayServer {
  url: string
  /** Each response the server started: resolves with whether it was written to the end, when it closes. */
  closed: Array<Promise<{ finished: boolean; eventsWritten: number; eventsTotal: number }>>
}

/** A node:http upstream that replays one capture as SSE, each event its own write, `delayMs` apart. */
async function startReplayServer(capture: Capture, delayMs: number): Promise<ReplayServer> {
  const closed: ReplayServer['closed'] = []
  const server = createServer((req, res: ServerResponse) => {
    req.resume()
    const base = { id: 'chatcmpl-loop', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-flash' }
    const chunk = (delta: object, finish: string | null): string => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    const events = [
      chunk({ role: 'assistant', content: '' }, null),
      ...replayDeltas(capture).map((content) => chunk({ content }, null)),
      chunk({}, 'stop'),
      `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 } })}\n\n`,
      'data: [DONE]\n\n',
    ]
    let written = 0
    closed.push(
      new Promise((resolve) => res.on('close', () => resolve({ finished: res.writableFinished, eventsWritten: written, eventsTotal: events.length }))),
    )
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    void (async () => {
      for (const event of events) {
        if (res.destroyed) return
        res.write(event)
        written++
        await sleep(delayMs)
      }
      res.end()
    })()
  })
  return { url: await listen(server), closed }
}

/** The minimal proxy: forward the body, repair the response with `repairChatCompletionsResponse`. */
async function startRepairProxy(upstream: string): Promise<string> {
  const handler = async (request: Request): Promise<Response> => {
    const response = await fetch(`${upstream}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await request.text(),
      signal: request.signal,
    })
    return repairChatCompletionsResponse(response)
  }
  return listen(createServer(createNodeListener(handler)))
}

function post(url: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) })
}

/** `node --import tsx src/cli/bin.ts serve --port 0 ...args`, with its output collected. */
function startCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const waitFor = async (pattern: RegExp): Promise<RegExpMatchArray> => {
    for (let tries = 0; tries < 300; tries++) {
      const match = stdout.match(pattern)
      if (match) return match
      if (child.exitCode !== null) break
      await sleep(50)
    }
    throw new Error(`no ${pattern} in the CLI output:\n${stdout}\n${stderr}`)
  }
  return { child, waitFor, output: () => stdout }
}

describe('loopback over 127.0.0.1', () => {
  test('cherry-14747-captured-sse-deltas: replay server → repairChatCompletionsResponse proxy → fetch client gives real tool_calls and [DONE]', async () => {
    const replay = await startReplayServer(cherry, 2)
    const proxy = await startRepairProxy(replay.url)
    const response = await post(`${proxy}/v1/chat/completions`, { model: 'deepseek-v4-flash', stream: true, messages: [] })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const reads: string[] = []
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      reads.push(value)
    }
    const seen = readSseText(reads.join(''))
    expect(shapes(seen.calls)).toEqual(cherry.expected_calls)
    expect(seen.finishReasons).toEqual(['tool_calls'])
    expect(hasMarker(seen.content)).toBe(false)
    expect(seen.done).toBe(true)
    expect(seen.afterDone).toBe(0)
    expect(reads.length).toBeGreaterThan(1) // streamed, not buffered whole
    expect((await replay.closed[0]!).finished).toBe(true)
  })

  test('opensquilla-985-parallel-exec: replay server → gateway (real fetch) → fetch client, history repaired on the way', async () => {
    const replay = await startReplayServer(opensquilla, 1)
    const gateway = createChatCompletionsGateway({ upstream: replay.url })
    const base = await listen(createServer(createNodeListener(gateway)))
    const response = await post(`${base}/v1/chat/completions`, { model: 'deepseek-v4-flash', stream: true, messages: [{ role: 'user', content: 'hash the file' }] })
    const seen = readSseText(await response.text())
    expect(shapes(seen.calls)).toEqual(opensquilla.expected_calls)
    expect(seen.finishReasons).toEqual(['tool_calls'])
    expect(seen.done).toBe(true)
  })

  test('a client that cancels mid-stream closes the upstream response (proxy → replay server)', async () => {
    const replay = await startReplayServer(opensquilla, 25)
    const proxy = await startRepairProxy(replay.url)
    const response = await post(`${proxy}/v1/chat/completions`, { model: 'm', stream: true, messages: [] })
    const reader = response.body!.getReader()
    const first = await reader.read() // the role chunk passes at once; the markup after it is held
    expect(first.done).toBe(false)
    await reader.cancel()
    const outcome = await Promise.race([replay.closed[0]!, sleep(5000).then(() => undefined)])
    expect(outcome, 'the replay server saw its response closed').toBeDefined()
    expect(outcome!.finished).toBe(false)
    expect(outcome!.eventsWritten).toBeLessThan(outcome!.eventsTotal)
  })

  test('a client that aborts mid-stream through the gateway closes the upstream response too', async () => {
    const replay = await startReplayServer(opensquilla, 25)
    const base = await listen(createServer(createNodeListener(createChatCompletionsGateway({ upstream: replay.url }))))
    const controller = new AbortController()
    const response = await post(`${base}/chat/completions`, { model: 'm', stream: true, messages: [] }, controller.signal)
    const reader = response.body!.getReader()
    expect((await reader.read()).done).toBe(false)
    controller.abort()
    await reader.read().catch(() => undefined)
    const outcome = await Promise.race([replay.closed[0]!, sleep(5000).then(() => undefined)])
    expect(outcome?.finished).toBe(false)
  })

  test('npm start: the real CLI prints its address, answers the printed curl request with tool_calls, logs it, and stops on SIGINT', async () => {
    const { child, waitFor, output } = startCli(['--fixtures', 'src/cli/leaks-real.json'], { DSML_UPSTREAM: '' })
    const base = (await waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!
    const curl = (await waitFor(/curl -sN (\S+) -H 'content-type: application\/json' -d '(.+)'/))
    expect(curl[1]).toBe(`${base}/v1/chat/completions`)

    const response = await post(curl[1]!, JSON.parse(curl[2]!))
    const seen = readSseText(await response.text())
    expect(shapes(seen.calls)).toEqual(cherry.expected_calls)
    expect(seen.finishReasons).toEqual(['tool_calls'])
    expect(seen.done).toBe(true)

    const health = (await (await fetch(`${base}/health`)).json()) as { ok: boolean }
    expect(health.ok).toBe(true)
    const list = (await (await fetch(`${base}/captures`)).json()) as { data: unknown[] }
    expect(list.data).toHaveLength(captures.length)

    await waitFor(/POST \/v1\/chat\/completions 200 .*recovered-call=2/)
    expect(output()).not.toContain('\uFF5C')
    const exited = once(child, 'exit')
    child.kill('SIGINT')
    const [code] = (await exited) as [number | null]
    expect(code).toBe(0)
    expect(output()).toContain('SIGINT: closing the gateway')
  })

  test('npm start with DSML_UPSTREAM proxies to that upstream over the network, logs the gateway\'s own time, and stops on SIGTERM', async () => {
    const replay = await startReplayServer(opensquilla, 1)
    const { child, waitFor } = startCli([], { DSML_UPSTREAM: replay.url })
    const base = (await waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!
    await waitFor(new RegExp(`upstream: ${replay.url.replace(/[.]/g, '\\.')}`))
    const tools = [{ type: 'function', function: { name: 'exec_command', parameters: { type: 'object' } } }]
    const response = await post(`${base}/v1/chat/completions`, { model: 'deepseek-v4-flash', stream: true, tools, messages: [{ role: 'user', content: 'go' }] })
    const seen = readSseText(await response.text())
    expect(shapes(seen.calls)).toEqual(opensquilla.expected_calls)
    expect((await replay.closed[0]!).finished).toBe(true)
    // The log line gives the exchange's time and the gateway's own part of it (less the upstream's).
    const [, total, own] = await waitFor(/POST \/v1\/chat\/completions 200 .* (\d+) ms \(gateway (\d+\.\d) ms\)/)
    expect(Number(own)).toBeLessThanOrEqual(Number(total) + 0.5)
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    expect(((await exited) as [number | null])[0]).toBe(0)
  })
})
