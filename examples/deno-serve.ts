// The repairing gateway on Deno.serve.
// Run: deno add npm:dsml-streams && DSML_UPSTREAM=https://api.deepseek.com deno run --allow-net --allow-env examples/deno-serve.ts
import { createChatCompletionsGateway } from 'dsml-streams/gateway'

declare const Deno: {
  env: { get(name: string): string | undefined }
  serve(options: { port: number; hostname: string; onListen(address: { hostname: string; port: number }): void }, handler: (request: Request, info: unknown) => Promise<Response>): unknown
}

const gateway = createChatCompletionsGateway({ upstream: Deno.env.get('DSML_UPSTREAM') ?? 'https://api.deepseek.com' })

// The handler gets Deno's info too: the gateway reads its `completed` promise, never request.signal.
Deno.serve(
  { port: Number(Deno.env.get('PORT') ?? 8787), hostname: '127.0.0.1', onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`) },
  gateway,
)
