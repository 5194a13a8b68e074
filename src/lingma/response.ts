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
import { readBodyText } from '../dialect-kit/read-body.ts'
import { createSseDecoder } from '../sse/sse-decoder.ts'
import { isSseComment } from '../sse/types.ts'
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

/** The JSON payloads of the SSE text the converter wrote (read with the SSE decoder; `[DONE]` left out). */
function payloads(sse: string): unknown[] {
  const decoder = createSseDecoder()
  const out: unknown[] = []
  for (const message of [...decoder.feed(sse), ...decoder.end()]) if (!isSseComment(message) && message.data !== '[DONE]') out.push(JSON.parse(message.data))
  return out
}

/**
 * A Lingma `Response` as a repaired Chat Completions `Response`: SSE, or a JSON `chat.completion`
 * when `stream` is false.
 */
export async function repairLingmaResponse(response: Response, options: RepairLingmaResponseOptions = {}): Promise<Response> {
  const { stream = true, maxErrorBodyBytes = 1_048_576, ...repairOptions } = options
  if (!response.ok) {
    const text = response.body === null ? '' : (await readBodyText(response.body, maxErrorBodyBytes, 'bytes')).text
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
