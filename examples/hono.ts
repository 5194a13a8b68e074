// The repairing gateway as a route of a Hono app, mounted under /api.
// Run: DSML_UPSTREAM=https://api.deepseek.com npx tsx examples/hono.ts
// Then point an OpenAI-compatible client at http://127.0.0.1:8787/api/v1 (its key is forwarded).
// Hono is web-standard, so the same app runs on Workers, Deno and Bun: `export default app`.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createChatCompletionsGateway } from 'dsml-streams/gateway'

const gateway = createChatCompletionsGateway({ upstream: process.env.DSML_UPSTREAM ?? 'https://api.deepseek.com' })

const app = new Hono()
app.get('/', (context) => context.text('A Hono app; the repairing gateway is under /api.'))
// Every method and path under /api: the gateway repairs its routes (matched under any prefix) and passes the rest through.
app.all('/api/*', (context) => gateway(context.req.raw))

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8787), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`)
})
