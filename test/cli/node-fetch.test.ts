// createNodeFetch, the upstream fetch of `dsml-streams serve`, against servers on 127.0.0.1 (Node
// only): what it sends, what it decodes, what it passes back as it is, and how aborts, cancels and
// stale keep-alive connections end.
import { once } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { afterEach, expect, test } from 'vitest'
import { createNodeFetch } from '../../src/cli/node-fetch.ts'
import { loopbackServers } from '../support/loopback-servers.ts'

const servers = loopbackServers()
const fetches: Array<{ close(): void }> = []
const listen = servers.listen

afterEach(async () => {
  for (const fetch of fetches.splice(0)) fetch.close()
  await servers.closeAll()
})

function nodeFetch(): ReturnType<typeof createNodeFetch> {
  const created = createNodeFetch()
  fetches.push(created)
  return created
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  let text = ''
  for await (const chunk of req) text += chunk
  return text
}

test('sends the method, headers and body; resolves with status, status text, headers and the body', async () => {
  let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {}
  const base = await listen(async (req, res) => {
    seen = { method: req.method!, headers: req.headers, body: await readBody(req) }
    res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-one': 'a' })
    res.end('{"ok":true}')
  })
  const response = await nodeFetch()(new Request(`${base}/v1/chat/completions?x=1`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"model":"m"}' }))
  expect(seen.method).toBe('POST')
  expect(seen.headers?.authorization).toBe('Bearer k')
  expect(seen.headers?.['content-length']).toBe('13')
  expect(seen.body).toBe('{"model":"m"}')
  expect([response.status, response.statusText, response.headers.get('x-one')]).toEqual([201, 'Made', 'a'])
  expect(await response.text()).toBe('{"ok":true}')
})

test('a body given as a stream of chunks goes out whole, with its length (not chunked), never copied into one', async () => {
  const seen: Array<{ length?: string; encoding?: string; body: string }> = []
  const base = await listen(async (req, res) => {
    seen.push({ length: req.headers['content-length'], encoding: req.headers['transfer-encoding'], body: await readBody(req) })
    res.end('ok')
  })
  const chunks = ['{"a":"é', '😀', '","b":[1,2', ']}'].map((text) => new TextEncoder().encode(text))
  let next = 0
  const body = new ReadableStream<Uint8Array>({ pull: (controller) => (next < chunks.length ? controller.enqueue(chunks[next++]!) : controller.close()) })
  const response = await nodeFetch()(new Request(`${base}/`, { method: 'POST', body, duplex: 'half' } as RequestInit))
  expect(await response.text()).toBe('ok')
  const expected = '{"a":"é😀","b":[1,2]}'
  expect(seen).toEqual([{ length: String(new TextEncoder().encode(expected).length), encoding: undefined, body: expected }])
})

test('gzip, deflate and br bodies are decoded (the header kept, as fetch keeps it); an unknown coding comes as it is', async () => {
  const text = 'data: {"choices":[]}\n\n'.repeat(50)
  const encoded: Record<string, Buffer> = { gzip: gzipSync(text), deflate: deflateSync(text), br: brotliCompressSync(text), unknown: Buffer.from('raw bytes') }
  const base = await listen((req, res) => {
    const coding = req.url!.slice(1)
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': coding })
    res.end(encoded[coding])
  })
  const fetch = nodeFetch()
  for (const coding of ['gzip', 'deflate', 'br']) {
    const response = await fetch(new Request(`${base}/${coding}`))
    expect(response.headers.get('content-encoding')).toBe(coding)
    expect(await response.text()).toBe(text)
  }
  expect(await (await fetch(new Request(`${base}/unknown`))).text()).toBe('raw bytes')
})

test('a redirect comes back as it is, not followed; a 204 has no body', async () => {
  const base = await listen((req, res) => {
    if (req.url === '/moved') res.writeHead(307, { location: '/elsewhere' }).end()
    else res.writeHead(204).end()
  })
  const fetch = nodeFetch()
  const moved = await fetch(new Request(`${base}/moved`, { method: 'POST', body: '{}' }))
  expect([moved.status, moved.headers.get('location')]).toEqual([307, '/elsewhere'])
  const empty = await fetch(new Request(`${base}/empty`))
  expect([empty.status, empty.body]).toEqual([204, null])
})

test('a keep-alive connection the server had closed is not a failure: the request goes again on a new one', async () => {
  const served = new WeakMap<Socket, number>()
  let answered = 0
  const base = await listen((req, res) => {
    const count = served.get(req.socket) ?? 0
    served.set(req.socket, count + 1)
    // A server that drops every connection after one answer, without saying so (as an idle timeout does).
    if (count > 0) {
      req.socket.destroy()
      return
    }
    answered++
    req.resume()
    res.end('ok')
  })
  const fetch = nodeFetch()
  expect(await (await fetch(new Request(base, { method: 'POST', body: '{}' }))).text()).toBe('ok')
  expect(await (await fetch(new Request(base, { method: 'POST', body: '{}' }))).text()).toBe('ok')
  expect(answered).toBe(2)
})

test('a refused connection rejects with the reason (not retried: the connection was new)', async () => {
  const base = await listen(() => undefined)
  await servers.closeAll()
  await expect(nodeFetch()(new Request(base))).rejects.toMatchObject({ code: 'ECONNREFUSED' })
})

test("an abort before the headers rejects with the signal's reason and closes the connection", async () => {
  let closed: Promise<unknown> = Promise.resolve()
  const base = await listen((req) => {
    closed = once(req.socket, 'close')
  })
  const controller = new AbortController()
  const pending = nodeFetch()(new Request(base, { signal: controller.signal }))
  await new Promise((resolve) => setTimeout(resolve, 50))
  const reason = new Error('stop')
  controller.abort(reason)
  await expect(pending).rejects.toBe(reason)
  await closed
})

test('an abort after the headers errors the body; a cancelled body closes the connection; a cut connection errors the body', async () => {
  let closed: Promise<unknown> = Promise.resolve()
  const base = await listen((req, res) => {
    closed = once(req.socket, 'close')
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('data: 1\n\n')
    if (req.url === '/cut') setTimeout(() => req.socket.destroy(), 30)
  })
  const fetch = nodeFetch()

  const controller = new AbortController()
  const aborted = await fetch(new Request(`${base}/abort`, { signal: controller.signal }))
  const reader = aborted.body!.getReader()
  expect((await reader.read()).done).toBe(false)
  const reason = new Error('stop')
  controller.abort(reason)
  await expect(reader.read()).rejects.toBe(reason)
  await closed

  const cancelled = await fetch(new Request(`${base}/cancel`))
  await cancelled.body!.cancel()
  await closed

  const cut = await fetch(new Request(`${base}/cut`))
  await expect(cut.text()).rejects.toThrow('before the response ended')
})

test('only http: and https: URLs', async () => {
  await expect(nodeFetch()(new Request('ftp://127.0.0.1/x'))).rejects.toThrow('only http: and https:')
})
