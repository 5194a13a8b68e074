/**
 * What `createChatCompletionsGateway` takes (`ChatCompletionsGatewayOptions`,
 * every option with its default), what it gives `onForward`, and the handler
 * it returns.
 */
import type { SanitizeChatCompletionsRequestOptions } from '../chat-completions/request.ts'
import type { RepairChatCompletionsResponseOptions } from '../chat-completions/response.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { GatewayUpstreamDialect } from './dialects.ts'

/** What the gateway is about to send upstream; given to `onForward`. */
export interface GatewayForward {
  /** The client's request, as the gateway received it. */
  request: Request
  /** The upstream URL the request goes to. */
  url: string
  /** The body sent upstream: the client's body with its history repaired. */
  body: Record<string, unknown>
  /** How many assistant messages of the history lost leaked markup. */
  repairedMessages: number
  /** The repair mode used for the response (`strip` when `tool_choice` is `"none"`). */
  mode: 'recover' | 'strip' | 'off'
  /** The tool names recovered calls are gated by, if any. */
  knownTools: readonly string[] | undefined
}

/** The gateway's runaway guard: 64 identical tags in a row inside markup, or 16 KiB of one character, end the message. */
export const GATEWAY_RUNAWAY_REPEAT = 64

export interface ChatCompletionsGatewayOptions
  extends Omit<RepairChatCompletionsResponseOptions, 'onDiagnostic' | 'knownTools' | 'runawayRepeat'>,
    Pick<SanitizeChatCompletionsRequestOptions, 'note' | 'preventiveDirective' | 'recoveryNudge'> {
  /**
   * The runaway guard (see the engine's `runawayRepeat`): a response that
   * repeats one tag, or one character, inside markup past it ends there with
   * finish `length`, and the upstream is cancelled, so its tokens stop. `0`: off.
   * @default 64 (`GATEWAY_RUNAWAY_REPEAT`: 64 tags, or 16 KiB of one character)
   */
  runawayRepeat?: number
  /**
   * Base URL of the upstream API; `/chat/completions` is appended to it
   * (trailing slashes ignored). `https://api.deepseek.com`,
   * `https://api.openai.com/v1`, `http://127.0.0.1:9000/v1`.
   */
  upstream: string
  /**
   * Base URL of the upstream's Anthropic Messages API; `/v1/messages` is
   * appended to it (`https://api.deepseek.com/anthropic`, `https://api.anthropic.com`).
   * @default `upstream`
   */
  anthropicUpstream?: string
  /**
   * The wire the upstream of `POST /v1/chat/completions` speaks:
   * `chat-completions`, or `lingma` (the request is translated with
   * `lingmaRequestOf` and sent to `${upstream}/algo/api/v2/service/pro/sse/agent_chat_generation?…`,
   * and the Lingma stream comes back as repaired Chat Completions; sign the
   * request in `prepareUpstream`).
   * @default 'chat-completions'
   */
  upstreamDialect?: GatewayUpstreamDialect
  /**
   * Called with every upstream request just before it is sent; returns the
   * request to send (add credentials or a signature over the final body
   * here). @default the request as it is
   */
  prepareUpstream?: (request: Request) => Request | Promise<Request>
  /** Time the upstream has to answer with its headers; past it, a JSON 504. 0: no limit. @default 60_000 */
  upstreamHeadersTimeoutMs?: number
  /** Silence of a streaming upstream after which the stream ends with an error event the client can read (and the upstream call is stopped). The upstream's own silence: markup the repair holds, so that the client gets nothing for a while, is not silence. A body that is not a stream of events (JSON, text, an error) that stalls as long fails too: a 504, or a cut body once forwarded. 0: no limit. @default 120_000 */
  upstreamIdleTimeoutMs?: number
  /** While a streaming upstream is silent, a keep-alive comment goes to the client this often. 0: none. @default 15_000 */
  keepAliveMs?: number
  /** The `fetch` used to reach the upstream (inject one for tests or an in-process upstream). @default globalThis.fetch */
  fetch?: (input: Request) => Promise<Response>
  /**
   * Tool names recovered calls may use. When absent, the names of the
   * request's own `tools` are used (when it declares any); with neither,
   * every name is kept.
   */
  knownTools?: Iterable<string>
  /**
   * The upstream's key, held by the gateway so that clients (and the chat
   * page) need none: sent on every upstream request as the route's own
   * header (`authorization: Bearer …`; `x-api-key` for Anthropic Messages),
   * in place of any the client sent. While it is set, browser pages may use
   * the gateway only from its own origin and `allowedOrigins`
   * (`browser-origins.ts`). @default none: the client's own headers go on
   */
  upstreamKey?: string
  /**
   * Origins whose pages may use the gateway from a browser (`https://app.example`;
   * `*` for any). Given, or with an `upstreamKey`, any other `Origin` gets a
   * 403 and CORS preflights are answered for these only. @default none
   */
  allowedOrigins?: Iterable<string>
  /** Called with every diagnostic of a response repair, and the client request it belongs to. */
  onDiagnostic?: (diagnostic: Diagnostic, request: Request) => void
  /** Called once per chat completions request, just before it is forwarded. */
  onForward?: (forward: GatewayForward) => void
}

/**
 * The gateway: a web-standard fetch handler. `context` is what the platform
 * passes beside the request (`Deno.serve`'s handler info, whose `completed`
 * promise says when the client goes away; anything else is ignored).
 */
export type ChatCompletionsGateway = (request: Request, context?: unknown) => Promise<Response>
