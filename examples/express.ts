// The repairing gateway in an Express 5 app, mounted under /api, through the Node adapter
// `dsml-streams serve` runs on (`createNodeListener`: streaming both ways, body limits, client aborts).
// Run: DSML_UPSTREAM=https://api.deepseek.com npx tsx examples/express.ts
// Then point an OpenAI-compatible client at http://127.0.0.1:8787/api/v1 (its key is forwarded).
import express from 'express'
import type { AddressInfo } from 'node:net'
import { createChatCompletionsGateway } from 'dsml-streams/gateway'
import { createNodeListener } from 'dsml-streams/node'

const gateway = createChatCompletionsGateway({ upstream: process.env.DSML_UPSTREAM ?? 'https://api.deepseek.com' })

const app = express()
// Before any body parser (express.json()): the gateway reads each request body itself.
app.use('/api', createNodeListener(gateway))
app.get('/', (_request, response) => {
  response.send('An Express app; the repairing gateway is under /api.')
})

const server = app.listen(Number(process.env.PORT ?? 8787), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
