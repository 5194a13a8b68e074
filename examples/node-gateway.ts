// The repairing gateway on Node's own HTTP server, with no framework.
// Run: DSML_UPSTREAM=https://api.deepseek.com npx tsx examples/node-gateway.ts
// Then point an OpenAI-compatible client at http://127.0.0.1:8787/v1 (its key is forwarded).
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { createChatCompletionsGateway } from 'dsml-streams/gateway'

const gateway = createChatCompletionsGateway({ upstream: process.env.DSML_UPSTREAM ?? 'https://api.deepseek.com' })

const server = createServer(async (req, res) => {
  // A client that goes away aborts the request, and the gateway stops the upstream call.
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal }
  if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>
    init.duplex = 'half'
  }
  const response = await gateway(new Request(new URL(req.url ?? '/', 'http://127.0.0.1'), init))
  res.writeHead(response.status, Object.fromEntries(response.headers))
  if (response.body !== null) {
    const reader = response.body.getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) if (!res.write(next.value)) await once(res, 'drain')
  }
  res.end()
})

server.listen(Number(process.env.PORT ?? 8787), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
