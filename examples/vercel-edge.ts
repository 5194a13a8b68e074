// The repairing gateway as a Vercel Edge Function (the edge runtime: web-standard APIs only).
// In a Vercel project: app/api/[...path]/route.ts re-exports POST from this file, with
// DSML_UPSTREAM set in the project's environment.
import { createChatCompletionsGateway } from 'dsml-streams/gateway'

export const runtime = 'edge'

declare const process: { env: Record<string, string | undefined> }

const gateway = createChatCompletionsGateway({ upstream: process.env.DSML_UPSTREAM ?? 'https://api.deepseek.com' })

export function POST(request: Request): Promise<Response> {
  return gateway(request)
}
