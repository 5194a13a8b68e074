// The repairing gateway as a Cloudflare Worker. Deploy: `wrangler deploy` in this folder, with the
// upstream in the UPSTREAM variable (wrangler.toml). A compatibility date before 2022-11-30 would
// make every stream refuse to start (the platform's TransformStream would ignore its transformer).
import { createChatCompletionsGateway } from 'dsml-streams/gateway'

interface Env {
  UPSTREAM?: string
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return createChatCompletionsGateway({ upstream: env.UPSTREAM ?? 'https://api.deepseek.com' })(request)
  },
}
