// The repairing gateway on Bun.serve.
// Run: bun add dsml-streams && DSML_UPSTREAM=https://api.deepseek.com bun examples/bun-serve.ts
import { createChatCompletionsGateway } from 'dsml-streams/gateway'

declare const Bun: { serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): { port: number; hostname: string } }

const gateway = createChatCompletionsGateway({ upstream: process.env.DSML_UPSTREAM ?? 'https://api.deepseek.com' })
const server = Bun.serve({ port: Number(process.env.PORT ?? 8787), hostname: '127.0.0.1', fetch: gateway })
console.log(`listening on http://${server.hostname}:${server.port}`)
