// The repairing gateway as a Next.js App Router route handler: save it as app/api/[...path]/route.ts.
// Every request under /api goes to the gateway, which repairs its routes (matched under any prefix:
// /api/v1/chat/completions) and passes the rest through. Set DSML_UPSTREAM in the project's environment;
// locally `npx next dev`, then point an OpenAI-compatible client at http://localhost:3000/api/v1.
// (For the edge runtime, see examples/vercel-edge.ts.)
import { createChatCompletionsGateway } from 'dsml-streams/gateway'

const gateway = createChatCompletionsGateway({ upstream: process.env.DSML_UPSTREAM ?? 'https://api.deepseek.com' })

// Never cached or prerendered: every request is proxied.
export const dynamic = 'force-dynamic'

export function POST(request: Request): Promise<Response> {
  return gateway(request)
}

export const GET = POST
