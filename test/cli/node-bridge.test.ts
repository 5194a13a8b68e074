// The node:http bridge's limits, over loopback sockets (Node only): requests past the in-flight
// limit get a JSON 503 before their body is read; a body past the cap gets a 413, counted as the
// bytes arrive.
import { connect } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { createNodeListener, createNodeServer, type ExchangeSummary } from '../../src/cli/node-bridge.ts'
import { loopbackServers } from '../support/loopback-servers.ts'

const servers = loopbackServers()

afterEach(() => servers.closeAll())

const serve = (handler: (request: Request) => Promise<Response>, options: Parameters<typeof createNodeListener>[1]): Promise<string> =>
  servers.listen(createNodeListener(handler, options))

test('past maxInFlight: a JSON 503 with retry-after, the handler not called; below it again: served', async () => {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let calls = 0
  const base = await serve(async () => {
    calls++
    await held
    return new Response('done')
  }, { maxInFlight: 2 })
  const first = [fetch(base, { method: 'POST', body: 'a' }), fetch(base, { method: 'POST', body: 'b' })]
  await new Promise((resolve) => setTimeout(resolve, 100))
  const refused = await fetch(base, { method: 'POST', body: 'x'.repeat(100_000) })
  expect(refused.status).toBe(503)
  expect(refused.headers.get('retry-after')).toBe('1')
  expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('server_overloaded')
  expect(calls).toBe(2)
  release()
  expect(await Promise.all(first.map(async (response) => (await response).text()))).toEqual(['done', 'done'])
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect((await fetch(base, { method: 'POST', body: 'c' })).status).toBe(200)
})

test('a body past maxBodyBytes: 413, the handler not called', async () => {
  let calls = 0
  const base = await serve(async () => {
    calls++
    return new Response('never')
  }, { maxBodyBytes: 1024 })
  const response = await fetch(base, { method: 'POST', body: 'x'.repeat(4096) })
  expect(response.status).toBe(413)
  expect(calls).toBe(0)
  expect((await fetch(base, { method: 'POST', body: 'x'.repeat(1024) })).status).toBe(200)
})

test('gateway siege row 1: requests pipelined on a connection the client closes give their slots back (queued responses get no close of their own)', async () => {
  const base = await serve(async () => {
    await new Promise((resolve) => setTimeout(resolve, 200))
    return new Response('done')
  }, { maxInFlight: 4 })
  const { hostname, port } = new URL(base)
  const request = `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`
  for (let connection = 0; connection < 6; connection++) {
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(request + request + request)
        setTimeout(() => socket.destroy(), 40)
      })
      socket.on('close', () => resolve())
      socket.on('error', () => {})
    })
  }
  await new Promise((resolve) => setTimeout(resolve, 400))
  const answers = await Promise.all([0, 1, 2, 3].map(async () => (await fetch(base, { method: 'POST', body: '{}' })).status))
  expect(answers).toEqual([200, 200, 200, 200])
})

/** A raw connection that sends `head`, then keeps sending a byte every `everyMs` until closed; resolves with what the server sent once the connection closes. */
function trickle(base: string, head: string, everyMs: number): { closed: Promise<string>; destroy: () => void } {
  const { hostname, port } = new URL(base)
  let received = ''
  const socket = connect(Number(port), hostname, () => socket.write(head))
  const timer = setInterval(() => socket.write('x'), everyMs)
  socket.on('data', (data) => (received += data.toString()))
  socket.on('error', () => {})
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer)
      resolve(received)
    }),
  )
  return { closed, destroy: () => socket.destroy() }
}

const trickledHead = (base: string, length: number): string =>
  `POST / HTTP/1.1\r\nHost: ${new URL(base).host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

test('gateway siege row 2: a client still sending its body holds no slot, so the only slot serves others meanwhile', async () => {
  const base = await serve(async (request) => new Response(await request.text()), { maxInFlight: 1 })
  const slow = [trickle(base, trickledHead(base, 100_000), 100), trickle(base, trickledHead(base, 100_000), 100)]
  await new Promise((resolve) => setTimeout(resolve, 300))
  const answers = await Promise.all([0, 1, 2].map(async (index) => (await (await fetch(base, { method: 'POST', body: `{"n":${index}}` })).text())))
  expect(answers).toEqual(['{"n":0}', '{"n":1}', '{"n":2}'])
  for (const client of slow) client.destroy()
})

test('gateway siege row 2: past requestTimeoutMs a client still sending is answered 408 and cut off; a response streamed after the request arrived is not', async () => {
  const server = createNodeServer(
    async () =>
      new Response(
        new ReadableStream({
          async start(controller) {
            for (let index = 0; index < 5; index++) {
              await new Promise((resolve) => setTimeout(resolve, 500))
              controller.enqueue(new TextEncoder().encode(`${index}`))
            }
            controller.close()
          },
        }),
      ),
    { requestTimeoutMs: 1000 },
  )
  const base = await servers.listen(server)
  const started = performance.now()
  const slow = trickle(base, trickledHead(base, 100_000), 100)
  const streamed = fetch(base, { method: 'POST', body: '{}' }).then((response) => response.text())
  const answer = await slow.closed
  expect(answer).toMatch(/^HTTP\/1\.1 408/)
  // Node checks its deadlines every second: cut off between 1 and about 2 s after the first byte.
  expect(performance.now() - started).toBeLessThan(4000)
  expect(await streamed).toBe('01234')
})

test('gateway siege rows 2 and 3: bodies held at once past maxBodyBytesInFlight get a JSON 503, their bytes given back', async () => {
  let calls = 0
  const base = await serve(async (request) => {
    calls++
    return new Response(String((await request.arrayBuffer()).byteLength))
  }, { maxBodyBytes: 4096, maxBodyBytesInFlight: 6000 })
  const holding = trickle(base, trickledHead(base, 4096) + 'x'.repeat(4000), 1000)
  await new Promise((resolve) => setTimeout(resolve, 200))
  const refused = await fetch(base, { method: 'POST', body: 'y'.repeat(3000) })
  expect(refused.status).toBe(503)
  expect(refused.headers.get('retry-after')).toBe('1')
  expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('server_overloaded')
  expect(await (await fetch(base, { method: 'POST', body: 'y'.repeat(1900) })).text()).toBe('1900')
  holding.destroy()
  await holding.closed
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(await (await fetch(base, { method: 'POST', body: 'y'.repeat(4096) })).text()).toBe('4096')
  expect(calls).toBe(2)
})

test('gateway siege row 2: past maxConnections a new connection is closed at once, and served again once one closes', async () => {
  const server = createNodeServer(async () => new Response('ok'), { maxConnections: 2 })
  const base = await servers.listen(server)
  const open = [trickle(base, '', 60_000), trickle(base, '', 60_000)]
  await new Promise((resolve) => setTimeout(resolve, 200))
  const third = trickle(base, `GET / HTTP/1.1\r\nHost: ${new URL(base).host}\r\n\r\n`, 60_000)
  expect(await third.closed).toBe('')
  open[0]!.destroy()
  await open[0]!.closed
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(await (await fetch(base)).text()).toBe('ok')
  open[1]!.destroy()
})

test('gateway siege row 7: with allowedHosts, a Host that is not an address, localhost or listed gets a 403 (DNS rebinding), summarized as refused with its method and path', async () => {
  const summaries: ExchangeSummary[] = []
  const base = await serve(async () => new Response('ok'), { allowedHosts: ['gateway.lan'], onFinish: (summary) => summaries.push(summary) })
  const { port } = new URL(base)
  const statusFor = async (host: string): Promise<string> => {
    const answer = trickle(base, `POST /v1/chat/completions HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}`, 60_000)
    return (await answer.closed).split('\r\n')[0]!
  }
  expect(await statusFor(`evil.example:${port}`)).toBe('HTTP/1.1 403 Forbidden')
  expect(await statusFor('localhost.evil.example')).toBe('HTTP/1.1 403 Forbidden')
  const refused = summaries[0]!
  expect([refused.request.method, new URL(refused.request.url).pathname, refused.status, refused.outcome]).toEqual(['POST', '/v1/chat/completions', 403, 'refused'])
  for (const host of [`localhost:${port}`, `localhost.:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`, `GATEWAY.lan:${port}`, 'gateway.lan.']) {
    expect(await statusFor(host)).toBe('HTTP/1.1 200 OK')
  }
})

test('gateway siege rows 1 and 2: a client that leaves keeps its slot and its body bytes until its handler has stopped (its request is aborted)', async () => {
  let stop: () => void = () => {}
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  let aborted = false
  let calls = 0
  const base = await serve(async (request) => {
    calls++
    if (calls > 1) return new Response('second')
    request.signal.addEventListener('abort', () => (aborted = true))
    await stopped // a handler that takes a while to stop
    return new Response('first')
  }, { maxInFlight: 1 })
  const leaving = trickle(base, `${trickledHead(base, 2)}{}`, 60_000)
  await new Promise((resolve) => setTimeout(resolve, 100))
  leaving.destroy()
  await leaving.closed
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(aborted).toBe(true)
  expect((await fetch(base, { method: 'POST', body: '{}' })).status).toBe(503)
  stop()
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(await (await fetch(base, { method: 'POST', body: '{}' })).text()).toBe('second')
})
