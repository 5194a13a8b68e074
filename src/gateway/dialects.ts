/**
 * What each route of the gateway needs to know of its dialect — its
 * upstream route, how a request implies repair options, history repair,
 * response repair, and its error shapes (a JSON response, an SSE event) —
 * so that the proxying in `handler.ts` is the same for every one.
 */
import { anthropicRequestOptions, repairAnthropicHistory } from '../anthropic/request.ts'
import { repairAnthropicResponse } from '../anthropic/response.ts'
import { requestRepairOptions } from '../chat-completions/request-tools.ts'
import { repairChatCompletionsHistory, type SanitizeChatCompletionsRequestOptions } from '../chat-completions/request.ts'
import { repairChatCompletionsResponse, type RepairChatCompletionsResponseOptions } from '../chat-completions/response.ts'
import { lingmaRequestOf } from '../lingma/request.ts'
import { repairLingmaResponse } from '../lingma/response.ts'
import type { HistoryTextRepair } from '../parts/history-repair.ts'
import type { RequestRepairOptions } from '../parts/request-options.ts'
import { repairResponsesHistory, responsesRequestOptions } from '../responses/request.ts'
import { repairResponsesResponse } from '../responses/response.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'

/** What `new Headers(…)` takes (spelled so, since DOM's `HeadersInit` is not declared in a Node-only project). */
export type HeaderFields = ConstructorParameters<typeof Headers>[0]

/** An OpenAI-style JSON error response. */
export function gatewayError(status: number, message: string, type: string, headers?: HeaderFields): Response {
  const responseHeaders = new Headers(headers)
  responseHeaders.set('content-type', 'application/json')
  return new Response(JSON.stringify({ error: { message, type, param: null, code: null } }), { status, headers: responseHeaders })
}

/** The repair options without Chat Completions' finish-reason names: another dialect names its finishes itself. */
function withOwnFinishNames(options: RepairChatCompletionsResponseOptions): Omit<RepairChatCompletionsResponseOptions, 'stopFinishReason' | 'toolCallsFinishReason'> {
  const { stopFinishReason: _stop, toolCallsFinishReason: _toolCalls, ...rest } = options
  return rest
}

/** What a route needs to know of its dialect; the proxying is the same for every one. */
export interface Dialect {
  /** The path appended to the dialect's upstream base. */
  route: string
  /**
   * The upstream request for a repaired body, when the upstream speaks
   * another wire than the client: its path (with its query) and body text.
   * Without it: `route` with the client's query, the body as JSON.
   */
  upstreamRequest?: (body: Record<string, unknown>) => { path: string; body: string }
  /** What a request body implies for the repair of its response. */
  readRequest: (body: unknown) => RequestRepairOptions
  /** History repair of a request body, each assistant text repaired by `repair`. */
  repairHistory: (body: Record<string, unknown>, options: SanitizeChatCompletionsRequestOptions, repair: HistoryTextRepair) => Record<string, unknown>
  repairResponse: (response: Response, options: RepairChatCompletionsResponseOptions, body: Record<string, unknown>) => Promise<Response>
  /** The header the dialect's upstream reads its key from, and its value for `key`. */
  credentials: (key: string) => readonly [string, string]
  /** An error response in the dialect's own shape. */
  error: (status: number, message: string, type: string, headers?: HeaderFields) => Response
  /** The SSE text of an error event in the dialect's own shape, that ends a stream. */
  streamError: (message: string, type: string) => string
}

/** A Chat Completions stream error: one `data: {"error": …}` event, what OpenAI's SDKs read as an error. */
function chatStreamError(message: string, type: string): string {
  return encodeSseMessage({ data: JSON.stringify({ error: { message, type, param: null, code: null } }) })
}

/** The key as OpenAI's APIs read it. */
export const bearerCredentials = (key: string): readonly [string, string] => ['authorization', `Bearer ${key}`]

/** The key as Anthropic's API reads it. */
export const anthropicCredentials = (key: string): readonly [string, string] => ['x-api-key', key]

/** An Anthropic-style JSON error response. */
export function anthropicError(status: number, message: string, type: string, headers?: HeaderFields): Response {
  const responseHeaders = new Headers(headers)
  responseHeaders.set('content-type', 'application/json')
  return new Response(JSON.stringify({ type: 'error', error: { type, message } }), { status, headers: responseHeaders })
}

export const CHAT_COMPLETIONS: Dialect = {
  route: '/chat/completions',
  readRequest: requestRepairOptions,
  repairHistory: repairChatCompletionsHistory,
  repairResponse: repairChatCompletionsResponse,
  credentials: bearerCredentials,
  error: gatewayError,
  streamError: chatStreamError,
}

export const ANTHROPIC_MESSAGES: Dialect = {
  route: '/v1/messages',
  readRequest: anthropicRequestOptions,
  repairHistory: repairAnthropicHistory,
  repairResponse: (response, options) => {
    return repairAnthropicResponse(response, withOwnFinishNames(options))
  },
  credentials: anthropicCredentials,
  error: anthropicError,
  streamError: (message, type) => encodeSseMessage({ event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) }),
}

export const OPENAI_RESPONSES: Dialect = {
  route: '/responses',
  readRequest: responsesRequestOptions,
  repairHistory: repairResponsesHistory,
  repairResponse: (response, options) => {
    return repairResponsesResponse(response, withOwnFinishNames(options))
  },
  credentials: bearerCredentials,
  error: gatewayError,
  streamError: (message, type) => encodeSseMessage({ event: 'error', data: JSON.stringify({ type: 'error', code: type, message, param: null }) }),
}

/** Chat Completions from the client, a Lingma upstream behind (`upstreamDialect: 'lingma'`). */
export const CHAT_COMPLETIONS_FROM_LINGMA: Dialect = {
  ...CHAT_COMPLETIONS,
  upstreamRequest: (body) => {
    const lingma = lingmaRequestOf(body)
    return { path: lingma.path, body: lingma.encodedBody }
  },
  repairResponse: (response, options, body) => {
    return repairLingmaResponse(response, { ...withOwnFinishNames(options), stream: body.stream === true })
  },
}

/** The wires an upstream behind the Chat Completions route may speak. */
export type GatewayUpstreamDialect = 'chat-completions' | 'lingma'
