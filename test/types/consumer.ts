// A consumer of the built package, type-checked under a Node-only and a browser tsconfig without
// skipLibCheck (test/types.test.ts). Every public entry, and the README's first uses.
import { ChatCompletionsRepairStream, createRepairFetch, DsmlSanitizerStream, sanitizeText } from 'dsml-streams'
import { AnthropicRepairStream } from 'dsml-streams/anthropic'
import { dsmlMiddleware } from 'dsml-streams/ai-sdk'
import { sanitizeChatCompletionsRequest } from 'dsml-streams/chat-completions'
import { createDsmlSanitizer } from 'dsml-streams/dsml'
import { createChatCompletionsGateway, gatewayError } from 'dsml-streams/gateway'
import { LingmaToChatCompletionsStream, lingmaRequestOf } from 'dsml-streams/lingma'
import { DsmlPartSanitizerStream } from 'dsml-streams/parts'
import { ResponsesRepairStream } from 'dsml-streams/responses'
import { SseDecoderStream } from 'dsml-streams/sse'

export async function firstUse(upstream: Response, textDeltas: ReadableStream<string>): Promise<Response> {
  const { text, calls } = sanitizeText('text', { knownTools: ['read'] })
  void text
  void calls
  await textDeltas.pipeThrough(new DsmlSanitizerStream({ knownTools: ['read', 'bash'] })).pipeTo(
    new WritableStream({
      write(event) {
        if (event.type === 'text') void event.text
        else if (event.type === 'tool-call') void event.call.arguments
        else if (event.type === 'diagnostic') void event.diagnostic.kind
        else void event.id // a call streamed as it forms (streamToolCalls)
      },
    }),
  )
  const gateway = createChatCompletionsGateway({ upstream: 'https://api.deepseek.com' })
  void gateway
  void gatewayError(400, 'bad', 'invalid_request_error', { 'x-a': 'b' })
  void dsmlMiddleware()
  void sanitizeChatCompletionsRequest({ messages: [] })
  void createDsmlSanitizer()
  void lingmaRequestOf({ model: 'auto', messages: [] })
  void new AnthropicRepairStream()
  void new ResponsesRepairStream()
  void new LingmaToChatCompletionsStream()
  void new DsmlPartSanitizerStream()
  void new SseDecoderStream()
  return new Response(upstream.body!.pipeThrough(new ChatCompletionsRepairStream({ knownTools: ['read'] })), { headers: { 'content-type': 'text/event-stream' } })
}

// The README's first use of a stream, as written there.
export async function POST(request: Request): Promise<Response> {
  const body = await request.text()
  const upstream = await fetch('https://api.deepseek.com/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: request.headers.get('authorization') ?? '' },
    body,
  })
  // The request's declared tools gate and shape the recovered calls.
  const repaired = upstream.body!.pipeThrough(new ChatCompletionsRepairStream({ request: JSON.parse(body) }))
  return new Response(repaired, { headers: { 'content-type': 'text/event-stream' } })
}

// The README's first use in the SDKs: a fetch, as an SDK's `fetch` option takes it.
export const repairFetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response> = createRepairFetch({ knownTools: ['read'] })

// Option types show only public options: the engine's internal caps are no option.
// @ts-expect-error maxTagChars is the engine's share of maxHoldChars, not an option
void sanitizeText('text', { maxTagChars: 5 })

