/**
 * `createChatCompletionsGateway`: a web-standard `Request` → `Response`
 * handler that proxies OpenAI-compatible Chat Completions to an upstream and
 * repairs both directions: the request history loses leaked markup
 * (`sanitizeChatCompletionsRequest`) before it is forwarded, and the response
 * (SSE or JSON) comes back with the markup removed and complete calls as real
 * `tool_calls` (`repairChatCompletionsResponse`).
 *
 * Web-standard APIs only (no `node:` imports): the same handler runs as a
 * Cloudflare Worker, in Deno (`Deno.serve(handler)`), in Bun
 * (`Bun.serve({ fetch: handler })`) and in Node behind a small bridge
 * (`npm start`).
 *
 * Routes, each matched by its last segments under any prefix
 * (`request-paths.ts`: `/v1/chat/completions`, `/api/v1/chat/completions`):
 * - `POST …/chat/completions` → upstream `${upstream}/chat/completions` (the
 *   query string is kept). `upstream` is a base URL in the OpenAI SDK's
 *   sense: `/chat/completions` is appended to it as is, so write
 *   `https://api.deepseek.com` or `https://api.openai.com/v1`, whichever the
 *   provider documents. With `upstreamDialect: 'lingma'` the request goes to
 *   a Lingma upstream in its own wire instead (`lingmaRequestOf`:
 *   `${upstream}/algo/api/v2/service/pro/sse/agent_chat_generation?…`, an
 *   `Encode=1` body) and its stream comes back as repaired Chat Completions
 *   (`repairLingmaResponse`).
 * - `POST …/v1/messages` (Anthropic Messages) → `${anthropicUpstream}/v1/messages`,
 *   the base URL in the Anthropic SDK's sense (`https://api.deepseek.com/anthropic`),
 *   `upstream` unless given; the same repair in that dialect
 *   (`sanitizeAnthropicRequest`, `repairAnthropicResponse`), errors in its shape.
 * - `POST …/responses` (OpenAI Responses API) → `${upstream}/responses`
 *   (`sanitizeResponsesRequest`, `repairResponsesResponse`).
 * - `GET /` and `GET /health` → a small JSON status.
 * - Every other path and method passes through, streamed both ways and
 *   unrepaired, with the same header rules: to `${upstream}` plus what
 *   follows the path's last `v1` segment (`GET /api/v1/models` →
 *   `${upstream}/models`), or to `${anthropicUpstream}/v1/messages/…` for
 *   the Messages API's own paths (`/v1/messages/count_tokens`).
 */
import { declaredNames, requestRepairOptions } from '../chat-completions/request-tools.ts'
import type { SanitizeChatCompletionsRequestOptions } from '../chat-completions/request.ts'
import type { RepairChatCompletionsResponseOptions } from '../chat-completions/response.ts'
import { resolveOptions as resolveDsmlSanitizerOptions } from '../dsml/options.ts'
import { preventionOptions } from '../parts/prevention.ts'
import { withRequestDefaults } from '../parts/request-options.ts'
import { StreamLimitError } from '../sse/errors.ts'
import { isEventStream } from '../sse/types.ts'
import { type ClientAbort, forwardClientAbort } from './client-abort.ts'
import { ANTHROPIC_MESSAGES, anthropicError, CHAT_COMPLETIONS, CHAT_COMPLETIONS_FROM_LINGMA, type Dialect, gatewayError, OPENAI_RESPONSES } from './dialects.ts'
import { apiPathOf, type DialectRoute, dialectRouteOf, withoutTrailingSlashes } from '../request-paths.ts'
import { browserOrigins } from './browser-origins.ts'
import { displayUpstream, upstreamChatUrl, upstreamUrl } from './upstream-url.ts'
import { listenToUpstream, UpstreamSilentError, watchUpstream } from './upstream-watch.ts'
import { MAX_JSON_DEPTH } from '../json-text.ts'
import { repairHistoryInSlices } from '../parts/history-slices.ts'
import { Pace, WorkStopped } from '../work-slices.ts'
import { isJsonContent, readJsonBody, writeJsonBody } from './request-body.ts'
import { clientResponseHeaders, upstreamRequestHeaders } from './forwarded-headers.ts'
import { type ChatCompletionsGateway, type ChatCompletionsGatewayOptions, GATEWAY_RUNAWAY_REPEAT } from './gateway-options.ts'
import { GatewayMetrics, type RouteLabel } from './gateway-metrics.ts'

export { gatewayError, type GatewayUpstreamDialect, type HeaderFields } from './dialects.ts'
export { displayUpstream, upstreamChatUrl } from './upstream-url.ts'
export type { ChatCompletionsGateway, ChatCompletionsGatewayOptions, GatewayForward } from './gateway-options.ts'

/** Names of the tools a request declares (`tools[].function.name`, other tool types' `name`, legacy `functions[].name`). */
export function declaredToolNames(body: Record<string, unknown>): string[] | undefined {
  return declaredNames(requestRepairOptions(body))
}

/** How many history entries (`messages`, or the Responses API's `input`) the repair changed. */
function countRepairedMessages(before: unknown, after: unknown): number {
  if (before === after) return 0
  const key = Array.isArray((before as { messages?: unknown }).messages) ? 'messages' : 'input'
  const a = (before as Record<string, unknown>)[key]
  const b = (after as Record<string, unknown>)[key]
  if (!Array.isArray(a) || !Array.isArray(b)) return 0
  let count = 0
  for (let index = 0; index < b.length; index++) if (a[index] !== b[index]) count++
  return count
}

/**
 * A web-standard `Request → Response` gateway: proxies Chat Completions, Anthropic Messages and the
 * Responses API to `upstream`, repairing the request history and the response, and passes every
 * other request through.
 *
 * @example
 * ```ts
 * // Cloudflare Worker / Deno / Bun
 * const gateway = createChatCompletionsGateway({ upstream: 'https://api.deepseek.com' })
 * export default { fetch: gateway }            // Workers
 * Deno.serve(gateway)                          // Deno
 * ```
 */
export function createChatCompletionsGateway(options: ChatCompletionsGatewayOptions): ChatCompletionsGateway {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('Cannot create gateway: options must be an object with an "upstream" base URL')
  }
  const {
    upstream,
    anthropicUpstream: anthropicBase,
    fetch: injectedFetch,
    upstreamDialect = 'chat-completions',
    prepareUpstream,
    upstreamHeadersTimeoutMs = 60_000,
    upstreamIdleTimeoutMs = 120_000,
    keepAliveMs = 15_000,
    knownTools: configuredTools,
    onDiagnostic,
    onForward,
    note,
    preventiveDirective,
    recoveryNudge,
    upstreamKey,
    allowedOrigins: allowedOriginsGiven,
    runawayRepeat = GATEWAY_RUNAWAY_REPEAT,
    ...givenRepairOptions
  } = options
  const repairOptions = { ...givenRepairOptions, runawayRepeat }
  const prevention = preventionOptions({ preventiveDirective, recoveryNudge })
  if (typeof upstream !== 'string') {
    throw new TypeError('Cannot create gateway: "upstream" must be the base URL of the upstream API, e.g. "https://api.deepseek.com"')
  }
  upstreamChatUrl(upstream) // validates
  if (anthropicBase !== undefined && typeof anthropicBase !== 'string') {
    throw new TypeError('Cannot create gateway: "anthropicUpstream" must be the base URL of the Messages API, e.g. "https://api.deepseek.com/anthropic"')
  }
  const anthropicUpstream = anthropicBase ?? upstream
  upstreamChatUrl(anthropicUpstream) // validates
  if (injectedFetch !== undefined && typeof injectedFetch !== 'function') {
    throw new TypeError('Cannot create gateway: "fetch" must be a function')
  }
  if (upstreamDialect !== 'chat-completions' && upstreamDialect !== 'lingma') {
    throw new TypeError(`Cannot create gateway: "upstreamDialect" must be "chat-completions" or "lingma", got ${JSON.stringify(upstreamDialect)}`)
  }
  if (prepareUpstream !== undefined && typeof prepareUpstream !== 'function') {
    throw new TypeError('Cannot create gateway: "prepareUpstream" must be a function (request) => request')
  }
  for (const [name, value] of [['upstreamHeadersTimeoutMs', upstreamHeadersTimeoutMs], ['upstreamIdleTimeoutMs', upstreamIdleTimeoutMs], ['keepAliveMs', keepAliveMs]] as const) {
    if (typeof value !== 'number' || !(value >= 0) || value === Infinity) throw new TypeError(`Cannot create gateway: "${name}" must be a number of milliseconds (0 for none), got ${String(value)}`)
  }
  if (upstreamKey !== undefined && (typeof upstreamKey !== 'string' || upstreamKey === '' || /[\r\n]/.test(upstreamKey))) {
    throw new TypeError('Cannot create gateway: "upstreamKey" must be a non-empty string on one line')
  }
  const allowedOrigins = allowedOriginsGiven === undefined ? undefined : [...allowedOriginsGiven]
  if (allowedOrigins?.some((origin) => typeof origin !== 'string' || origin === '')) {
    throw new TypeError('Cannot create gateway: "allowedOrigins" must be origins such as "https://app.example" (or "*")')
  }
  const origins = browserOrigins(allowedOrigins, upstreamKey !== undefined)
  const metrics = options.meter === undefined ? undefined : new GatewayMetrics(options.meter)
  /** The client's headers for the upstream: hop-by-hop ones dropped, and the gateway's key in place of the client's. */
  const upstreamHeaders = (request: Request, credentials: Dialect['credentials']): Headers => {
    const headers = upstreamRequestHeaders(request.headers)
    if (upstreamKey !== undefined) {
      headers.delete('authorization')
      headers.delete('x-api-key')
      headers.set(...credentials(upstreamKey))
    }
    return headers
  }
  const chatDialect = upstreamDialect === 'lingma' ? CHAT_COMPLETIONS_FROM_LINGMA : CHAT_COMPLETIONS
  const fetchUpstream = injectedFetch ?? ((input: Request) => globalThis.fetch(input))
  const send = prepareUpstream === undefined ? fetchUpstream : async (input: Request) => fetchUpstream(await prepareUpstream(input))
  const configured = configuredTools === undefined ? undefined : [...configuredTools]
  // Misused engine options (a bad mode, preset, cap…) throw here, once, not on every request.
  resolveDsmlSanitizerOptions(configured === undefined ? repairOptions : { ...repairOptions, knownTools: configured })

  async function proxy(dialect: Dialect, base: string, request: Request, context: unknown, url: URL): Promise<Response> {
    if (!isJsonContent(request.headers)) {
      const type = request.headers.get('content-type')
      return dialect.error(415, `Send the request body as JSON, with Content-Type: application/json (got ${type === null ? 'no Content-Type' : JSON.stringify(type)}).`, 'invalid_request_error')
    }
    const clientAbort = forwardClientAbort(request, context)
    try {
      return await forward(dialect, base, request, url, clientAbort)
    } catch (error) {
      clientAbort.settleWith(null)
      if (error instanceof WorkStopped) return dialect.error(499, 'The client closed the request.', 'client_closed_request')
      throw error
    }
  }

  /** The request repaired and sent upstream, and its response repaired; `clientAbort` settled on every path that returns. */
  async function forward(dialect: Dialect, base: string, request: Request, url: URL, clientAbort: ClientAbort): Promise<Response> {
    // Decoding and history repair go in slices, so a long history does not hold the loop while other streams wait;
    // they stop at a turn once the client is gone.
    const pace = new Pace(() => clientAbort.left())
    const read = await readJsonBody(request, pace)
    if (read === undefined) {
      clientAbort.settleWith(null)
      return dialect.error(400, `We could not parse the JSON body of your request. Send a JSON object (Content-Type: application/json), nested at most ${MAX_JSON_DEPTH} deep.`, 'invalid_request_error')
    }
    const body = read.value
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      clientAbort.settleWith(null)
      return dialect.error(400, 'The request body must be a JSON object with "model" and "messages".', 'invalid_request_error')
    }
    const record = body as Record<string, unknown>
    // The request's declared tools (with their schemas) and tool_choice, unless configured tools win.
    const { request: _request, ...forRequest } = withRequestDefaults<RepairChatCompletionsResponseOptions>(
      { ...repairOptions, ...(configured === undefined ? {} : { knownTools: configured }), request: record },
      dialect.readRequest,
    )
    const mode = forRequest.mode ?? 'recover'
    const knownTools = declaredNames(forRequest)

    const { mode: _mode, role: _role, onDiagnostic: _onDiagnostic, ...engineOptions } = forRequest
    const historyOptions: SanitizeChatCompletionsRequestOptions = { ...engineOptions }
    if (note !== undefined) historyOptions.note = note
    if (prevention.preventiveDirective) historyOptions.preventiveDirective = true
    if (prevention.recoveryNudge) historyOptions.recoveryNudge = true
    const forwarded = mode === 'off' ? record : await repairHistoryInSlices((repair) => dialect.repairHistory(record, historyOptions, repair), pace, read.longTexts)
    const translated = dialect.upstreamRequest?.(forwarded)
    const target = translated === undefined ? upstreamUrl(base, dialect.route, url.search) : upstreamUrl(base, translated.path, '')
    // Unrepaired, the body goes on as the client wrote it; repaired, it is written a piece at a time.
    const upstreamBody = translated !== undefined ? translated.body : forwarded === record ? read.bytes : await writeJsonBody(forwarded, read.longTexts, pace)
    onForward?.({ request, url: target, body: forwarded, repairedMessages: countRepairedMessages(record, forwarded), mode, knownTools })
    const headers = upstreamHeaders(request, dialect.credentials)
    headers.set('content-type', 'application/json')
    if (translated !== undefined) headers.set('accept', 'text/event-stream')
    const sent = await sendUpstream(new Request(target, { method: 'POST', headers, body: upstreamBody, signal: clientAbort.signal }), base, clientAbort, dialect.error, routeLabelOf(url.pathname, request.method))
    if (sent.failed) return sent.response
    let upstreamResponse = sent.response

    // The upstream's bytes are listened to as they come: its idle clock is the upstream's, whatever the repair holds.
    const listened = listenToUpstream(upstreamResponse, upstreamIdleTimeoutMs, () => clientAbort.abortUpstream())
    upstreamResponse = listened.response
    const repairOptionsForRequest: RepairChatCompletionsResponseOptions = { ...forRequest, mode }
    if (onDiagnostic !== undefined) repairOptionsForRequest.onDiagnostic = (diagnostic) => onDiagnostic(diagnostic, request)
    let repaired: Response
    try {
      repaired = await dialect.repairResponse(upstreamResponse, repairOptionsForRequest, forwarded)
    } catch (error) {
      clientAbort.settleWith(null)
      // A JSON body past the cap: the gateway will not hold it in memory.
      if (error instanceof StreamLimitError) return dialect.error(502, `The upstream's response is too large for the gateway: ${error.message}`, 'upstream_error')
      if (error instanceof UpstreamSilentError) return dialect.error(504, `The upstream at ${displayUpstream(base)} sent nothing for ${upstreamIdleTimeoutMs} ms; the response was abandoned.`, 'upstream_timeout')
      throw error
    }
    const streaming = repaired.body !== null && isEventStream(repaired.headers)
    const clientBody = streaming
      ? watchUpstream(repaired.body!, {
          keepAliveMs,
          idleMs: upstreamIdleTimeoutMs,
          idleError: (idleMs) => dialect.streamError(`The upstream at ${displayUpstream(base)} sent nothing for ${idleMs} ms; the stream was ended.`, 'upstream_timeout'),
          abortUpstream: () => clientAbort.abortUpstream(),
          ...(listened.heardAt === undefined ? {} : { upstreamHeardAt: listened.heardAt }),
        })
      : repaired.body
    return new Response(clientAbort.settleWith(clientBody), {
      status: repaired.status,
      statusText: repaired.statusText,
      headers: clientResponseHeaders(repaired.headers),
    })
  }

  /**
   * `upstreamRequest` sent, the upstream given `upstreamHeadersTimeoutMs` to
   * answer with its headers: its response, or (`failed`) the error response
   * the client gets instead, in the route's shape (`error`).
   */
  async function sendUpstream(upstreamRequest: Request, base: string, clientAbort: ClientAbort, error: Dialect['error'], route: RouteLabel): Promise<{ response: Response; failed: boolean }> {
    let headersTimedOut = false
    const headersTimer =
      upstreamHeadersTimeoutMs > 0
        ? setTimeout(() => {
            headersTimedOut = true
            clientAbort.abortUpstream()
          }, upstreamHeadersTimeoutMs)
        : undefined
    const sentAt = performance.now()
    try {
      const response = await send(upstreamRequest)
      return { response: metrics === undefined ? response : metrics.timed(response, route, sentAt), failed: false }
    } catch (thrown) {
      clientAbort.settleWith(null)
      if (clientAbort.left()) return { response: error(499, 'The client closed the request.', 'client_closed_request'), failed: true }
      if (headersTimedOut) return { response: error(504, `The upstream at ${displayUpstream(base)} did not answer within ${upstreamHeadersTimeoutMs} ms.`, 'upstream_timeout'), failed: true }
      const reason = thrown instanceof Error ? thrown.message : String(thrown)
      return { response: error(502, `The gateway could not reach the upstream at ${displayUpstream(base)}: ${reason}`, 'upstream_error'), failed: true }
    } finally {
      if (headersTimer !== undefined) clearTimeout(headersTimer)
    }
  }

  /** A request that is no dialect's route, sent on as it came; the upstream's answer passed back as it comes. */
  async function passThrough(request: Request, context: unknown, url: URL): Promise<Response> {
    const apiPath = apiPathOf(url.pathname)
    const anthropic = apiPath.startsWith('/messages/')
    const base = anthropic ? anthropicUpstream : upstream
    const dialect = anthropic ? ANTHROPIC_MESSAGES : CHAT_COMPLETIONS
    const target = upstreamUrl(base, anthropic ? `/v1${apiPath}` : apiPath, url.search)
    const clientAbort = forwardClientAbort(request, context)
    const hasBody = request.body !== null && request.method !== 'GET' && request.method !== 'HEAD'
    // `duplex: 'half'`: a stream body (Node's fetch asks for it; the type does not know it yet).
    const init = { method: request.method, headers: upstreamHeaders(request, dialect.credentials), body: hasBody ? request.body : null, signal: clientAbort.signal, duplex: 'half' }
    const sent = await sendUpstream(new Request(target, init as RequestInit), base, clientAbort, dialect.error, 'pass-through')
    if (sent.failed) return sent.response
    const response = sent.response
    return new Response(clientAbort.settleWith(response.body), {
      status: response.status,
      statusText: response.statusText,
      headers: clientResponseHeaders(response.headers),
    })
  }

  const routes: Record<DialectRoute, { dialect: Dialect; base: string }> = {
    'chat-completions': { dialect: chatDialect, base: upstream },
    'anthropic-messages': { dialect: ANTHROPIC_MESSAGES, base: anthropicUpstream },
    responses: { dialect: OPENAI_RESPONSES, base: upstream },
  }

  return async function gateway(request: Request, context?: unknown): Promise<Response> {
    if (metrics === undefined) return answer(request, context)
    const startedAt = performance.now()
    let status = 500
    try {
      const response = await answer(request, context)
      status = response.status
      return response
    } finally {
      metrics.request(routeLabelOf(new URL(request.url).pathname, request.method), request.method, status, startedAt)
    }
  }

  async function answer(request: Request, context: unknown): Promise<Response> {
    const url = new URL(request.url)
    const route = dialectRouteOf(url.pathname)
    if (origins === undefined) return serveRequest(request, context, url, route)
    const refused = origins.gate(request, url, route === 'anthropic-messages' ? anthropicError : gatewayError)
    return refused ?? origins.allow(request, url, await serveRequest(request, context, url, route))
  }

  /** What a request is, for the metrics: the route `serveRequest` gives it (never the path as written). */
  function routeLabelOf(pathname: string, method: string): RouteLabel {
    const route = dialectRouteOf(pathname)
    if (route !== undefined && method === 'POST') return route
    return isHealthPath(pathname, method) ? 'health' : 'pass-through'
  }

  function isHealthPath(pathname: string, method: string): boolean {
    const path = withoutTrailingSlashes(pathname)
    return (path === '/' || path === '/health') && (method === 'GET' || method === 'HEAD')
  }

  async function serveRequest(request: Request, context: unknown, url: URL, route: DialectRoute | undefined): Promise<Response> {
    if (route !== undefined && request.method === 'POST') return proxy(routes[route].dialect, routes[route].base, request, context, url)
    if (isHealthPath(url.pathname, request.method)) {
      const status = {
        ok: true,
        service: 'dsml-streams gateway',
        upstream: displayUpstream(upstream),
        upstreamDialect,
        endpoints: ['POST …/chat/completions', 'POST …/v1/messages', 'POST …/responses', 'GET /health', 'anything else: passed through'],
      }
      return new Response(request.method === 'HEAD' ? null : JSON.stringify(status), { headers: { 'content-type': 'application/json' } })
    }
    return passThrough(request, context, url)
  }
}
