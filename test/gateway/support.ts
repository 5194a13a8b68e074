import { createSseDecoder, isSseComment } from '../../src/sse/index.ts'
/**
 * Helpers for the gateway suites: a recording fake upstream (the gateway's
 * injectable `fetch`), SSE bodies built from content deltas, and a reader that
 * turns a repaired Chat Completions stream back into calls, text and finish
 * reasons. Web-standard only: these suites also run under Deno and Bun.
 */
import { assert } from '../support/assert.ts'

export interface ForwardedRequest {
  url: string
  method: string
  headers: Record<string, string>
  body: Record<string, unknown>
  /** The body as sent, before parsing (decoded as `Request.text()` decodes it). */
  bodyText: string
  /** The body's bytes as sent. */
  bodyBytes: Uint8Array
  signal: AbortSignal
}

/** A fake upstream that records what the gateway sent and answers with `respond`. */
export function recordingUpstream(respond: (request: ForwardedRequest) => Response | Promise<Response>): {
  fetch: (request: Request) => Promise<Response>
  calls: ForwardedRequest[]
} {
  const calls: ForwardedRequest[] = []
  return {
    calls,
    async fetch(request) {
      const headers: Record<string, string> = {}
      request.headers.forEach((value, name) => {
        headers[name] = value
      })
      const bodyBytes = new Uint8Array(await request.arrayBuffer())
      const bodyText = new TextDecoder().decode(bodyBytes)
      const forwarded: ForwardedRequest = {
        url: request.url,
        method: request.method,
        headers,
        body: JSON.parse(bodyText) as Record<string, unknown>,
        bodyText,
        bodyBytes,
        signal: request.signal,
      }
      calls.push(forwarded)
      return respond(forwarded)
    },
  }
}

const BASE = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-flash' }

/** An OpenAI-style SSE body: role chunk, one chunk per content delta, finish chunk, usage chunk, `[DONE]`. */
export function sseText(deltas: readonly string[], finish = 'stop'): string {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null): string =>
    `data: ${JSON.stringify({ ...BASE, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`
  let out = chunk({ role: 'assistant', content: '' }, null)
  for (const content of deltas) out += chunk({ content }, null)
  out += chunk({}, finish)
  out += `data: ${JSON.stringify({ ...BASE, choices: [], usage: { prompt_tokens: 5, completion_tokens: deltas.length, total_tokens: 5 + deltas.length } })}\n\n`
  return `${out}data: [DONE]\n\n`
}

export function sseResponse(deltas: readonly string[], finish = 'stop', headers: Record<string, string> = {}): Response {
  return new Response(sseText(deltas, finish), { headers: { 'content-type': 'text/event-stream', ...headers } })
}

/** A JSON `chat.completion` with one assistant message. */
export function completionResponse(content: string, finish = 'stop'): Response {
  const body = {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1,
    model: 'deepseek-v4-flash',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
    usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
  }
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
}

export interface CallSeen {
  id: string
  name: string
  arguments: unknown
}

/** What a client reads from a repaired Chat Completions SSE stream. */
export interface StreamSeen {
  chunks: Array<Record<string, unknown>>
  content: string
  reasoning: string
  calls: CallSeen[]
  finishReasons: string[]
  done: boolean
  /** Events after `[DONE]` (should be none). */
  afterDone: number
}

/** Decodes SSE text (with the library's own decoder) and folds the chunks like an OpenAI client. */
export function readSseText(text: string): StreamSeen {
  const decoder = createSseDecoder()
  const messages = [...decoder.feed(text), ...decoder.end()]
  const seen: StreamSeen = { chunks: [], content: '', reasoning: '', calls: [], finishReasons: [], done: false, afterDone: 0 }
  const partial = new Map<number, { id: string; name: string; arguments: string }>()
  for (const message of messages) {
    if (isSseComment(message)) continue
    if (seen.done) {
      seen.afterDone++
      continue
    }
    if (message.data === '[DONE]') {
      seen.done = true
      continue
    }
    const chunk = JSON.parse(message.data) as Record<string, unknown>
    seen.chunks.push(chunk)
    const choices = chunk.choices as Array<Record<string, unknown>>
    assert(Array.isArray(choices), `chunk without choices: ${message.data}`)
    for (const choice of choices) {
      const delta = (choice.delta ?? {}) as Record<string, unknown>
      if (typeof delta.content === 'string') seen.content += delta.content
      if (typeof delta.reasoning_content === 'string') seen.reasoning += delta.reasoning_content
      for (const call of (delta.tool_calls ?? []) as Array<Record<string, unknown>>) {
        const index = call.index as number
        const fn = (call.function ?? {}) as { name?: string; arguments?: string }
        const entry = partial.get(index) ?? { id: '', name: '', arguments: '' }
        if (typeof call.id === 'string') entry.id = call.id
        if (typeof fn.name === 'string') entry.name += fn.name
        if (typeof fn.arguments === 'string') entry.arguments += fn.arguments
        partial.set(index, entry)
      }
      if (typeof choice.finish_reason === 'string') seen.finishReasons.push(choice.finish_reason)
    }
  }
  seen.calls = [...partial.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({ id: call.id, name: call.name, arguments: JSON.parse(call.arguments || '{}') as unknown }))
  return seen
}

export async function readSse(response: Response): Promise<StreamSeen> {
  assert((response.headers.get('content-type') ?? '').includes('text/event-stream'), `expected an SSE response, got ${response.headers.get('content-type')}`)
  return readSseText(await response.text())
}

/** Calls without their random ids, for comparison with a capture's `expected_calls`. */
export function shapes(calls: readonly CallSeen[]): Array<{ name: string; arguments: unknown }> {
  return calls.map((call) => ({ name: call.name, arguments: call.arguments }))
}

/** A chat completions request to the gateway. */
export function chatRequest(body: unknown, init: { headers?: Record<string, string>; path?: string; signal?: AbortSignal } = {}): Request {
  return new Request(`http://gateway.test${init.path ?? '/v1/chat/completions'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  })
}

/** Full-width, ASCII, double and box-drawing bars: any of them in output text means markup leaked. */
export function hasMarker(text: string): boolean {
  return /[\uFF5C\u2016\u2502]|\|\s*DSML/.test(text)
}
