/**
 * `createRepairFetch`: a `fetch` that repairs leaked DSML tool calls inside
 * the official SDKs, with no gateway —
 * `new OpenAI({ fetch: createRepairFetch() })`,
 * `new Anthropic({ fetch: createRepairFetch() })`.
 *
 * A `POST` to a dialect's route (`request-paths.ts`, the gateway's rule:
 * `…/chat/completions`, `…/v1/messages`, `…/responses`, under any prefix)
 * with a JSON body is repaired both ways:
 * - its history loses leaked markup first, by the dialect's request
 *   sanitizer (`sanitizeChatCompletionsRequest`, `sanitizeAnthropicRequest`,
 *   `sanitizeResponsesRequest`), with the opt-in prevention;
 * - its response, streamed or JSON, comes back with the markup removed and
 *   complete calls as real tool calls (`repair…Response`, given the request,
 *   so its declared tools and tool choice apply).
 *
 * Everything else — another route or method, a body that is not a JSON
 * object — goes to the wrapped `fetch` exactly as it came.
 */
import { repairAnthropicResponse } from '../anthropic/response.ts'
import { sanitizeAnthropicRequest } from '../anthropic/request.ts'
import { repairChatCompletionsResponse } from '../chat-completions/response.ts'
import { sanitizeChatCompletionsRequest } from '../chat-completions/request.ts'
import { resolveOptions } from '../dsml/options.ts'
import type { Diagnostic } from '../dsml/types.ts'
import type { HistoryRepairOptions } from '../parts/history-repair.ts'
import type { PartRepairOptions } from '../parts/part-repair.ts'
import { preventionOptions, type PreventionOptions } from '../parts/prevention.ts'
import { repairResponsesResponse } from '../responses/response.ts'
import { sanitizeResponsesRequest } from '../responses/request.ts'
import { parseBoundedJson } from '../json-text.ts'
import { isRecord } from '../records.ts'
import { type DialectRoute, dialectRouteOf } from '../request-paths.ts'

/** What `fetch` takes and gives, spelled without the DOM's types (a Node-only project does not declare them). */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface RepairFetchOptions extends Omit<PartRepairOptions, 'stopFinishReason' | 'toolCallsFinishReason' | 'onDiagnostic'>, PreventionOptions {
  /** The `fetch` that sends the requests. @default `globalThis.fetch`, read at each call */
  fetch?: FetchFunction
  /** Repair the history of each request before it is sent. @default true */
  repairHistory?: boolean
  /** The note left in history where a call's markup was removed (see `historyNote`). */
  note?: HistoryRepairOptions['note']
  /** Longest SSE line or event, and the largest JSON body read, in characters. @default 8_388_608 */
  maxBufferSize?: number
  /** Called with every diagnostic of a response's repair, and the request it answers. */
  onDiagnostic?: (diagnostic: Diagnostic, request: Request) => void
}

/** What each route does with a request and its response. */
interface RouteRepair {
  sanitize: (body: Record<string, unknown>, options: HistoryRepairOptions & PreventionOptions) => Record<string, unknown>
  repair: (response: Response, options: Omit<PartRepairOptions, 'stopFinishReason' | 'toolCallsFinishReason'> & { request: unknown; maxBufferSize?: number; onDiagnostic?: (diagnostic: Diagnostic) => void }) => Promise<Response>
}

const ROUTES: Record<DialectRoute, RouteRepair> = {
  'chat-completions': { sanitize: sanitizeChatCompletionsRequest, repair: repairChatCompletionsResponse },
  'anthropic-messages': { sanitize: sanitizeAnthropicRequest, repair: repairAnthropicResponse },
  responses: { sanitize: sanitizeResponsesRequest, repair: repairResponsesResponse },
}

/**
 * Misuse (an unknown mode, a mistyped option) throws a `TypeError` here;
 * a request or response never makes it throw more than the wrapped `fetch` does.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai'
 * import { createRepairFetch } from 'dsml-streams'
 *
 * const client = new OpenAI({ baseURL: 'https://api.deepseek.com', fetch: createRepairFetch() })
 * ```
 */
export function createRepairFetch(options: RepairFetchOptions = {}): FetchFunction {
  if (options === null || typeof options !== 'object') throw new TypeError('Cannot create a repair fetch: options must be an object')
  const { fetch: wrapped, repairHistory = true, note, preventiveDirective, recoveryNudge, onDiagnostic, ...repairOptions } = options
  if (wrapped !== undefined && typeof wrapped !== 'function') throw new TypeError('Cannot create a repair fetch: "fetch" must be a function')
  if (typeof repairHistory !== 'boolean') throw new TypeError(`Cannot use option "repairHistory": expected a boolean, got ${typeof repairHistory}`)
  if (onDiagnostic !== undefined && typeof onDiagnostic !== 'function') throw new TypeError('Cannot use option "onDiagnostic": expected a function')
  const prevention = preventionOptions({ preventiveDirective, recoveryNudge })
  // Misused engine options (a bad mode, preset, cap…) throw here, once, not on every request.
  resolveOptions(repairOptions)
  const { mode: _mode, role: _role, ...engineOptions } = repairOptions
  const historyOptions: HistoryRepairOptions & PreventionOptions = { ...engineOptions, ...prevention }
  if (note !== undefined) historyOptions.note = note
  const send: FetchFunction = (input, init) => (wrapped ?? globalThis.fetch)(input, init)

  return async function repairFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const route = routeOf(input, init)
    if (route === undefined) return send(input, init)
    const request = new Request(input, init)
    // Read as bytes: a body that is not JSON (nor UTF-8) goes on exactly as it came.
    const bytes = new Uint8Array(await request.arrayBuffer())
    const parsed = parseBoundedJson(new TextDecoder().decode(bytes))
    const body = parsed !== undefined && isRecord(parsed.value) ? parsed.value : undefined
    const repairs = ROUTES[route]
    const sanitized = body !== undefined && repairHistory && repairOptions.mode !== 'off' ? repairs.sanitize(body, historyOptions) : body
    const headers = new Headers(request.headers)
    // The body sent may be another length than the one the caller measured.
    headers.delete('content-length')
    const response = await send(new Request(request, { body: sanitized === body ? bytes : JSON.stringify(sanitized), headers }))
    if (body === undefined) return response
    const forResponse: Parameters<RouteRepair['repair']>[1] = { ...repairOptions, request: sanitized }
    if (onDiagnostic !== undefined) forResponse.onDiagnostic = (diagnostic) => onDiagnostic(diagnostic, request)
    return repairs.repair(response, forResponse)
  }
}

/** The dialect route of a `POST` to one, else undefined (and the request goes on as it came). */
function routeOf(input: string | URL | Request, init: RequestInit | undefined): DialectRoute | undefined {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
  if (method.toUpperCase() !== 'POST') return undefined
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input)
  let pathname: string
  try {
    // Only the path is read: a relative URL (a browser's `/api/chat/completions`) is resolved against any base.
    pathname = new URL(url, 'http://relative.invalid').pathname
  } catch {
    return undefined
  }
  return dialectRouteOf(pathname)
}
