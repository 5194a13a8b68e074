// The repairing gateway in a Fastify app, mounted under /api, through the Node adapter
// `dsml-streams serve` runs on (`createNodeListener`).
// Run: DSML_UPSTREAM=https://api.deepseek.com npx tsx examples/fastify.ts
// Then point an OpenAI-compatible client at http://127.0.0.1:8787/api/v1 (its key is forwarded).
import Fastify from 'fastify'
import { createChatCompletionsGateway } from 'dsml-streams/gateway'
import { createNodeListener } from 'dsml-streams/node'

const gateway = createChatCompletionsGateway({ upstream: process.env.DSML_UPSTREAM ?? 'https://api.deepseek.com' })
const listener = createNodeListener(gateway)

const app = Fastify()
app.get('/', async () => 'A Fastify app; the repairing gateway is under /api.')
await app.register(
  async (scope) => {
    // The gateway reads each request body itself: in this scope no parser of Fastify's reads it first.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
    // Every method and path under /api: Fastify hands the request and response over (hijack) to the adapter.
    scope.all('/*', (request, reply) => {
      reply.hijack()
      listener(request.raw, reply.raw)
    })
  },
  { prefix: '/api' },
)

const address = await app.listen({ port: Number(process.env.PORT ?? 8787), host: '127.0.0.1' })
console.log(`listening on ${address}`)
