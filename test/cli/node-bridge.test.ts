// The node:http bridge's limits, over loopback sockets (Node only): requests past the in-flight
// limit get a JSON 503 before their body is read; a body past the cap gets a 413, counted as the
// bytes arrive.
import { connect } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { createNodeListener } from '../../src/cli/node-bridge.ts'
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
