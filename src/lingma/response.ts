/**
 * `repairLingmaResponse`: a `fetch` `Response` from a Lingma upstream → an
 * OpenAI Chat Completions `Response`, repaired on the way
 * (`LingmaToChatCompletionsStream`):
 *
 * - a streaming request (the default) gets `text/event-stream` chunks;
 * - a non-streaming one (`stream: false`) gets the `chat.completion` those
 *   chunks make (`collectChatCompletion`), or, when the stream ended in an
 *   error, that error as JSON with its status;
 * - an HTTP error from the upstream becomes an OpenAI-style JSON error with
 *   the status its Lingma envelope names (`parseError`), or the upstream's
 *   own status when the body is no envelope. At most `maxErrorBodyBytes` of
 *   an error body are read.
 */
import { collectChatCompletion } from '../chat-completions/collect.ts'
import { isRecord } from '../records.ts'
import { parseError } from './errors.ts'
import { LingmaToChatCompletionsStream } from './streams.ts'
import { createLingmaToChatCompletions, type LingmaToChatCompletionsOptions } from './to-chat-completions.ts'

export interface RepairLingmaResponseOptions extends LingmaToChatCompletionsOptions {
  /** The client asked for a stream. @default true */
  stream?: boolean
  /** The most of an upstream error body read. @default 1_048_576 */
  maxErrorBodyBytes?: number
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

function errorResponse(status: number, error: Record<string, unknown>): Response {
  const { status: _status, ...fields } = error
  return jsonResponse(status, { error: { message: fields.message ?? 'Lingma upstream error', type: fields.type ?? 'api_error', param: null, code: fields.code ?? null } })
}

/** Up to `limit` bytes of a body, as text. */
async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (body === null) return ''
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let read = 0
  try {
    while (read < limit) {
      const { done, value } = await reader.read()
      if (done) break
      const piece = value.length > limit - read ? value.subarray(0, limit - read) : value
      read += piece.length
      text += decoder.decode(piece, { stream: true })
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return text + decoder.decode()
}

/** The `data:` payloads of SSE text this library wrote (one line per event). */
function payloads(sse: string): unknown[] {
  const out: unknown[] = []
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue
    out.push(JSON.parse(line.slice(6)))
  }
  return out
}

export async function repairLingmaResponse(response: Response, options: RepairLingmaResponseOptions = {}): Promise<Response> {
  const { stream = true, maxErrorBodyBytes = 1_048_576, ...repairOptions } = options
  if (!response.ok) {
    const text = await readCapped(response.body, maxErrorBodyBytes)
    const info = parseError(text)
    if (info !== undefined) return errorResponse(info.status, { ...info, code: info.code === '' ? null : info.code })
    return errorResponse(response.status, { message: `The Lingma upstream answered ${response.status}${text.trim() === '' ? '' : `: ${text.trim().slice(0, 500)}`}`, type: 'upstream_error' })
  }
  if (response.body === null) return errorResponse(502, { message: 'The Lingma upstream answered with no body', type: 'upstream_error' })
  if (stream) {
    return new Response(response.body.pipeThrough(new LingmaToChatCompletionsStream(repairOptions)), {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
    })
  }
  const converter = createLingmaToChatCompletions(repairOptions)
  const reader = response.body.getReader()
  let sse = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    sse += converter.feed(value)
  }
  sse += converter.end()
  const collected = collectChatCompletion(payloads(sse))
  if ('error' in collected) return errorResponse(typeof collected.error.status === 'number' ? collected.error.status : 502, collected.error)
  const completion = collected.completion
  return jsonResponse(200, isRecord(completion) ? completion : {})
}
