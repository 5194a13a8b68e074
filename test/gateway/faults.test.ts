// The gateway against faulty upstreams, over real loopback sockets (Node only): servers the test
// starts itself stand in for the upstream, and the gateway is served by the node:http bridge.
import { once } from 'node:events'
import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { createNodeListener } from '../../src/cli/node-bridge.ts'
import { createNodeFetch } from '../../src/cli/node-fetch.ts'
import { createChatCompletionsGateway, type ChatCompletionsGatewayOptions } from '../../src/gateway/index.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { loopbackServers } from '../support/loopback-servers.ts'
import { readSseText, sseText } from './support.ts'

const servers = loopbackServers()
const listen = servers.listen

afterEach(() => servers.closeAll())

const LEAK = `Listing. ${block([invoke('bash', [param('command', 'ls')])])}`
const post = (base: string, stream = true): Promise<Response> =>
  fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'go' }] }) })

const nodeFetch = createNodeFetch()
afterAll(() => nodeFetch.close())

// Every fault against both ways of reaching the upstream: the global fetch (the handler's default,
// what Deno, Bun and Workers use) and the node:http fetch that `dsml-streams serve` gives it.
describe.each([
  { via: "the global fetch (the gateway's default)", upstreamFetch: undefined },
  { via: 'createNodeFetch (what `dsml-streams serve` uses)', upstreamFetch: nodeFetch },
])('upstream reached with $via', ({ upstreamFetch }) => {
  /** The gateway to `upstream`, served over loopback. */
  const gatewayTo = (upstream: string, options: Partial<ChatCompletionsGatewayOptions> = {}): Promise<string> =>
    listen(createNodeListener(createChatCompletionsGateway({ upstream, ...(upstreamFetch === undefined ? {} : { fetch: upstreamFetch }), ...options })))

  test('an upstream that resets mid-stream: the client sees the stream end early (not a clean [DONE]), and the gateway keeps serving', async () => {
    const upstream = await listen((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(sseText(['Hello', ' world']).split('\n\n').slice(0, 2).join('\n\n') + '\n\n')
      setTimeout(() => res.socket?.destroy(), 30)
    })
    const base = await gatewayTo(`${upstream}/v1`)
    const text = await (await post(base)).text().catch((error: Error) => `cut: ${error.message}`)
    expect(text).not.toContain('data: [DONE]')
    expect((await fetch(`${base}/health`)).status).toBe(200)
  })

  test('a gzip upstream: the body is decoded and repaired (content-encoding not passed on)', async () => {
    const upstream = await listen((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' })
      res.end(gzipSync(sseText([LEAK.slice(0, 15), LEAK.slice(15)])))
    })
    const response = await post(await gatewayTo(`${upstream}/v1`))
    expect(response.headers.get('content-encoding')).toBeNull()
    const seen = readSseText(await response.text())
    expect(seen.calls.map((call) => call.name)).toEqual(['bash'])
    expect(seen.finishReasons).toEqual(['tool_calls'])
  })

  test('4xx and 5xx JSON errors from the upstream reach the client byte for byte, with their status', async () => {
    for (const [status, body] of [[401, '{"error":{"message":"bad key","type":"authentication_error"}}'], [503, '{"error":{"message":"overloaded"}}  ']] as const) {
      const upstream = await listen((req, res) => {
        req.resume()
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(body)
      })
      const response = await post(await gatewayTo(`${upstream}/v1`))
      expect(response.status).toBe(status)
      expect(await response.text()).toBe(body)
    }
  })

  test('an upstream that never sends its headers: a JSON 504 once the headers timeout passes', async () => {
    const upstream = await listen((req) => {
      req.resume()
    })
    const response = await post(await gatewayTo(`${upstream}/v1`, { upstreamHeadersTimeoutMs: 200 }))
    expect(response.status).toBe(504)
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('upstream_timeout')
  })

  test('an upstream that stalls mid-stream: keep-alive comments, then an error event the client reads, and the upstream socket is closed', async () => {
    let upstreamClosed: Promise<unknown> = Promise.resolve()
    const upstream = await listen((req, res) => {
      req.resume()
      upstreamClosed = once(res, 'close')
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(sseText(['Hello']).split('\n\n').slice(0, 2).join('\n\n') + '\n\n')
    })
    const text = await (await post(await gatewayTo(`${upstream}/v1`, { keepAliveMs: 50, upstreamIdleTimeoutMs: 300 }))).text()
    expect(text).toContain('"content":"Hello"')
    expect(text).toContain(': keep-alive\n\n')
    expect(text).toContain('"type":"upstream_timeout"')
    await upstreamClosed
  })

  test('a client that disconnects mid-stream: the upstream socket closes', async () => {
    let upstreamClosed: Promise<unknown> = Promise.resolve()
    const upstream = await listen((req, res) => {
      req.resume()
      upstreamClosed = once(res.socket!, 'close')
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(sseText(['Hello']).split('\n\n').slice(0, 2).join('\n\n') + '\n\n')
    })
    const controller = new AbortController()
    const base = await gatewayTo(`${upstream}/v1`)
    const response = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream: true, messages: [] }), signal: controller.signal })
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"role":"assistant"')
    controller.abort()
    await reader.read().catch(() => undefined)
    await upstreamClosed
  })

  test("a slow reader while 50 MB flow: backpressure reaches the upstream (measured here: 7 to 10 MB between the upstream's writes and the client's reads, in the socket buffers and the fetches between), and RSS stays bounded", async () => {
    const total = 50 * 1024 * 1024
    const event = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'x'.repeat(4000) }, finish_reason: null }] })}\n\n`
    let written = 0
    const upstream = await listen(async (req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      while (written < total && !res.destroyed) {
        written += event.length
        if (!res.write(event)) await once(res, 'drain').catch(() => undefined)
      }
      res.end('data: [DONE]\n\n')
    })
    const base = await gatewayTo(`${upstream}/v1`, { upstreamIdleTimeoutMs: 0, keepAliveMs: 0 })
    globalThis.gc?.()
    const before = process.memoryUsage().rss
    const reader = (await post(base)).body!.getReader()
    let peak = before
    // Slow: one read every 20 ms for 2 s.
    let receivedWhileSlow = 0
    for (let index = 0; index < 100; index++) {
      receivedWhileSlow += (await reader.read()).value?.length ?? 0
      await new Promise((resolve) => setTimeout(resolve, 20))
      peak = Math.max(peak, process.memoryUsage().rss)
    }
    const inFlight = written - receivedWhileSlow
    // Then fast, to the end.
    let received = 0
    for (let next = await reader.read(); !next.done; next = await reader.read()) received += next.value.length
    expect(inFlight, `${(inFlight / 1048576).toFixed(1)} MB between the upstream's writes and the client's reads`).toBeLessThan(24 * 1024 * 1024)
    expect(peak - before, `RSS grew ${((peak - before) / 1048576).toFixed(1)} MB`).toBeLessThan(128 * 1024 * 1024)
    expect(received).toBeGreaterThan(total / 2)
  }, 120_000)
})
