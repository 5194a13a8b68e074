/**
 * `createReplayUpstream`: a fake OpenAI-compatible upstream that answers every
 * chat completion with one real captured DeepSeek leak, so the gateway can be
 * tried (and tested) without an API key. Web-standard only (`Request` →
 * `Response`), like the gateway: it runs in-process behind an injected
 * `fetch`, or behind any HTTP server.
 *
 * - `POST …/chat/completions` with `"stream": true` → a `chat.completion.chunk`
 *   SSE stream: a role chunk, the capture's text as `content` deltas (its real
 *   captured `chunks` when it has them, else the text cut into deterministic
 *   token-like pieces of 4–12 characters), a finish chunk (`stop`), a
 *   `choices: []` usage chunk, and `data: [DONE]`.
 * - the same with `"stream": false` (or absent) → one JSON `chat.completion`.
 * - `POST …/v1/messages` → the same capture as Anthropic Messages (what DeepSeek
 *   serves at `/anthropic`): `message_start`, one text block of the same
 *   deltas, `message_delta` (`end_turn`, usage), `message_stop` — or one JSON
 *   `message` without `"stream": true`.
 * - `POST …/responses` → the same capture as the OpenAI Responses API
 *   (`responsesEvents`, responses/stream-events.ts): one message item of the same deltas, then
 *   `response.completed` — or one JSON `response` without `"stream": true`.
 * - `POST …/algo/api/v2/service/pro/sse/agent_chat_generation` (a Lingma
 *   upstream; the body `Encode=1`-encoded when the query says so) → the same
 *   capture as a Lingma stream (`lingmaEvents`, replay-framing.ts), the model from
 *   `model_config.key`.
 * - `GET …/captures` → the capture ids, and which one is the default.
 *
 * The request's `model` picks the capture when it is a capture id; any other
 * model gets the default capture, `cherry-14747-captured-sse-deltas`: it is the
 * one capture recorded as real SSE deltas, so the replay streams exactly what
 * DeepSeek sent, the `<` and `</` of each tag in their own deltas.
 */
import { decodeLingmaBody } from '../lingma/body-encoding.ts'
import { LINGMA_CHAT_PATH } from '../lingma/request.ts'
import { createSeededRandom } from '../seeded-random.ts'
import { jsonPieces } from '../json-pieces.ts'
import { parseBoundedJson } from '../json-text.ts'
import type { LongTexts } from '../long-texts.ts'
import { Pace } from '../work-slices.ts'
import { lingmaEvents } from './replay-framing.ts'
import { responsesEvents } from '../responses/stream-events.ts'
import { encodeSseMessage } from '../sse/sse-encoder.ts'
import { dialectRouteOf, withoutTrailingSlashes } from '../request-paths.ts'
import { readJsonBody } from '../gateway/request-body.ts'

export interface ReplayCapture {
  id: string
  /** The leaked assistant text. */
  input: string
  /** The text as the real deltas it arrived in, when the capture kept them. */
  chunks?: readonly string[]
  shape?: string
  source?: string
  expected_calls?: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>
}

export interface ReplayUpstreamOptions {
  /** The capture served when `model` names none. @default 'cherry-14747-captured-sse-deltas' (or the first capture) */
  defaultCapture?: string
  /**
   * Send the SSE events this far apart, on a fixed schedule from the first (a visible stream). A
   * late event does not push back the ones after it: a model's tokens do not wait for a busy reader.
   * @default 0
   */
  delayMs?: number
  /** The `created` timestamp of every completion, in seconds. @default the current time */
  created?: number
}

export const DEFAULT_REPLAY_CAPTURE = 'cherry-14747-captured-sse-deltas'

export type ReplayUpstream = (request: Request) => Promise<Response>

/** The capture served when the request's `model` names none: the Cherry capture when it is among them, else the first. */
export function defaultCaptureOf(captures: readonly ReplayCapture[]): string {
  return captures.some((capture) => capture.id === DEFAULT_REPLAY_CAPTURE) ? DEFAULT_REPLAY_CAPTURE : (captures[0]?.id ?? DEFAULT_REPLAY_CAPTURE)
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

function error(status: number, message: string): Response {
  return json(status, { error: { message, type: 'invalid_request_error', param: null, code: null } })
}

/** FNV-1a: a seed from the capture id, so every replay of a capture cuts it the same way. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/**
 * Cuts text into token-like pieces of 4–12 UTF-16 units, deterministically
 * for a given seed, never inside a surrogate pair.
 */
export function tokenLikeChunks(text: string, seed: string): string[] {
  const next = createSeededRandom(seedOf(seed))
  const pieces: string[] = []
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + 4 + Math.floor(next() * 9))
    const code = text.charCodeAt(end - 1)
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++
    pieces.push(text.slice(start, end))
    start = end
  }
  return pieces
}

/** The deltas a capture is replayed as: its real chunks, else token-like pieces. */
export function replayDeltas(capture: ReplayCapture): string[] {
  if (capture.chunks !== undefined && capture.chunks.length > 0 && capture.chunks.join('') === capture.input) return [...capture.chunks]
  return tokenLikeChunks(capture.input, capture.id)
}



function roughTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4))
}

/** The length of `value`'s JSON text, written a piece at a time (`jsonPieces`), the loop given a turn when `pace` says one is due. */
async function jsonLength(value: unknown, longTexts: LongTexts | undefined, pace: Pace): Promise<number> {
  let length = 0
  for (const piece of jsonPieces(value, longTexts === undefined ? {} : { longTexts })) {
    await pace.turn(piece.length)
    length += piece.length
  }
  return length
}

export function createReplayUpstream(captures: readonly ReplayCapture[], options: ReplayUpstreamOptions = {}): ReplayUpstream {
  if (!Array.isArray(captures) || captures.length === 0) {
    throw new TypeError('Cannot create replay upstream: expected a non-empty array of captures ({ id, input, chunks? })')
  }
  const byId = new Map<string, ReplayCapture>()
  for (const capture of captures) {
    if (capture === null || typeof capture !== 'object' || typeof capture.id !== 'string' || typeof capture.input !== 'string') {
      throw new TypeError('Cannot create replay upstream: every capture needs a string "id" and a string "input"')
    }
    byId.set(capture.id, capture)
  }
  const defaultId = options.defaultCapture ?? defaultCaptureOf(captures)
  const fallback = byId.get(defaultId)
  if (fallback === undefined) throw new TypeError(`Cannot create replay upstream: default capture "${defaultId}" is not among the captures`)
  const delayMs = options.delayMs ?? 0

  function stream(capture: ReplayCapture, model: string, prompt: number): Response {
    const base = { id: `chatcmpl-replay-${capture.id}`, object: 'chat.completion.chunk', created: options.created ?? Math.floor(Date.now() / 1000), model }
    const deltas = replayDeltas(capture)
    const chunk = (delta: Record<string, unknown>, finish: string | null): unknown => ({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    })
    const events: unknown[] = [
      chunk({ role: 'assistant', content: '' }, null),
      ...deltas.map((content) => chunk({ content }, null)),
      chunk({}, 'stop'),
      { ...base, choices: [], usage: { prompt_tokens: prompt, completion_tokens: deltas.length, total_tokens: prompt + deltas.length } },
    ]
    return sse([...events.map((data) => `data: ${JSON.stringify(data)}\n\n`), 'data: [DONE]\n\n'])
  }

  /** SSE events, one per pull (each on the `delayMs` schedule), then the end of the body. */
  function sse(events: readonly string[]): Response {
    const encoder = new TextEncoder()
    let next = 0
    let cancelled = false
    let start = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next === 0) start = performance.now()
        else if (delayMs > 0) {
          // Event n is due at start + n × delayMs: a late event does not push back the ones after it.
          const wait = start + next * delayMs - performance.now()
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        }
        if (cancelled) return
        if (next < events.length) controller.enqueue(encoder.encode(events[next]!))
        else controller.close()
        next++
      },
      cancel() {
        cancelled = true
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } })
  }

  function anthropicStream(capture: ReplayCapture, model: string, prompt: number): Response {
    const event = (data: { type: string; [key: string]: unknown }): string => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`
    const deltas = replayDeltas(capture)
    return sse([
      event({
        type: 'message_start',
        message: { id: `msg_replay_${capture.id}`, type: 'message', role: 'assistant', content: [], model, stop_reason: null, stop_sequence: null, usage: { input_tokens: prompt, output_tokens: 1 } },
      }),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event({ type: 'ping' }),
      ...deltas.map((text) => event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
      event({ type: 'content_block_stop', index: 0 }),
      event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: deltas.length } }),
      event({ type: 'message_stop' }),
    ])
  }

  function anthropicMessage(capture: ReplayCapture, model: string, prompt: number): Response {
    return json(200, {
      id: `msg_replay_${capture.id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: capture.input }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: prompt, output_tokens: replayDeltas(capture).length },
    })
  }

  function responsesObject(capture: ReplayCapture, model: string, prompt: number): Response {
    const output = [{ id: `msg_replay_${capture.id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: capture.input, annotations: [] }] }]
    const completion = replayDeltas(capture).length
    return json(200, {
      id: `resp_replay_${capture.id}`, object: 'response', created_at: options.created ?? Math.floor(Date.now() / 1000), status: 'completed', model, output,
      usage: { input_tokens: prompt, output_tokens: completion, total_tokens: prompt + completion },
    })
  }

  function completion(capture: ReplayCapture, model: string, prompt: number): Response {
    const completionTokens = replayDeltas(capture).length
    return json(200, {
      id: `chatcmpl-replay-${capture.id}`,
      object: 'chat.completion',
      created: options.created ?? Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: capture.input }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens },
    })
  }

  return async function replay(request: Request): Promise<Response> {
    const path = withoutTrailingSlashes(new URL(request.url).pathname)
    if (path.endsWith('/captures') && request.method === 'GET') {
      return json(200, {
        object: 'list',
        default: defaultId,
        data: captures.map((capture) => ({
          id: capture.id,
          shape: capture.shape ?? null,
          source: capture.source ?? null,
          expected_calls: (capture.expected_calls ?? []).map((call: { name: string }) => call.name),
          real_deltas: capture.chunks !== undefined && capture.chunks.length > 0,
        })),
      })
    }
    const route = dialectRouteOf(path)
    const messages = route === 'anthropic-messages'
    const responses = route === 'responses'
    const lingma = path.endsWith(LINGMA_CHAT_PATH)
    if (route === undefined && !lingma) {
      return error(404, `The replay upstream serves POST /chat/completions, POST /v1/messages, POST /responses, POST ${LINGMA_CHAT_PATH} and GET /captures, not ${request.method} ${path}`)
    }
    if (request.method !== 'POST') return error(405, `Use POST for ${path}`)
    let body: { model?: unknown; stream?: unknown; messages?: unknown; input?: unknown; model_config?: { key?: unknown } }
    // A large body is read, and measured, in slices, as the gateway reads it: the replay often runs in the gateway's process.
    const pace = new Pace()
    let longTexts: LongTexts | undefined
    try {
      // A Lingma body is encoded when the query says `Encode=1`.
      // Read as every JSON from outside is (`parseBoundedJson`): nested past its depth it is not JSON, not a stack overflow later.
      let parsed: { value: unknown } | undefined
      if (lingma && new URL(request.url).searchParams.get('Encode') === '1') parsed = parseBoundedJson(decodeLingmaBody(await request.text()))
      else {
        const read = await readJsonBody(request, pace)
        longTexts = read?.longTexts
        parsed = read
      }
      if (parsed === undefined) throw new SyntaxError('not JSON')
      body = parsed.value as typeof body
    } catch {
      return error(400, lingma ? 'The request body is not JSON (or not an Encode=1 Lingma body)' : 'The request body is not JSON')
    }
    if (body === null || typeof body !== 'object') return error(400, 'The request body must be a JSON object')
    if (lingma) body.model = body.model_config?.key
    const requested = typeof body.model === 'string' ? body.model : undefined
    const capture = (requested !== undefined ? byId.get(requested) : undefined) ?? fallback
    const model = requested ?? capture.id
    const prompt = roughTokens(await jsonLength(body.messages ?? body.input ?? [], longTexts, pace))
    if (lingma) return sse(lingmaEvents(`replay-${capture.id}`, model, replayDeltas(capture), prompt, options.created ?? Math.floor(Date.now() / 1000)))
    if (messages) return body.stream === true ? anthropicStream(capture, model, prompt) : anthropicMessage(capture, model, prompt)
    if (responses) {
      if (body.stream !== true) return responsesObject(capture, model, prompt)
      return sse(responsesEvents(`replay_${capture.id}`, model, replayDeltas(capture), prompt, options.created ?? Math.floor(Date.now() / 1000)).map(encodeSseMessage))
    }
    return body.stream === true ? stream(capture, model, prompt) : completion(capture, model, prompt)
  }
}
