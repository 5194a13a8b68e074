/**
 * `lingmaRequestOf`: an OpenAI Chat Completions request → the request a
 * Lingma upstream reads, for a gateway in front of one: the endpoint path
 * with its query (`AgentId` from the model, `Encode=1`), and the body with
 * the fields the Lingma clients send (the route profile of the model:
 * `agent_id`, `model_config.source`, reasoning), encoded as `Encode=1` asks
 * (`encodeLingmaBody`).
 *
 * The history is carried over as Lingma reads it: assistant tool-call
 * messages whose `content` is null get `""`
 * (`normalizeAssistantToolCallContent`), and an assistant message's
 * `reasoning_content` is merged into its content as `<thought>…</thought>`
 * (Lingma carries thoughts inside content). Authentication is not made here:
 * Lingma signs each request over its encoded body, which is the caller's to
 * do (the gateway's `prepareUpstream`).
 */
import { isRecord } from '../records.ts'
import { encodeLingmaBody } from './body-encoding.ts'
import { agentId, isAgentCommonModel, modelConfigSource, normalizeAssistantToolCallContent } from './messages.ts'

/** The Lingma streaming chat endpoint, without its query. */
export const LINGMA_CHAT_PATH = '/algo/api/v2/service/pro/sse/agent_chat_generation'

export interface LingmaRequestOptions {
  /** The request's id (and its `chat_record_id`). @default a random UUID */
  requestId?: string
  /** The conversation's id. @default 32 random hex digits */
  sessionId?: string
  /** The model key when the request names none. @default 'auto' */
  defaultModel?: string
}

export interface LingmaRequest {
  /** The endpoint path with its query, to append to the upstream's base URL. */
  path: string
  /** The body before encoding. */
  body: Record<string, unknown>
  /** The body as sent (`Encode=1`). */
  encodedBody: string
}

/** `<thought>reasoning</thought>` before an assistant message's content (or as its first text part). */
function withThought(message: Record<string, unknown>): Record<string, unknown> {
  const reasoning = message.reasoning_content
  if (message.role !== 'assistant' || typeof reasoning !== 'string' || reasoning === '') return message
  const { reasoning_content: _reasoning, ...rest } = message
  const thought = `<thought>${reasoning}</thought>\n`
  const content = message.content
  if (Array.isArray(content)) return { ...rest, content: [{ type: 'text', text: thought }, ...content] }
  return { ...rest, content: thought + (typeof content === 'string' ? content : '') }
}

/** The Lingma `parameters` a request's sampling fields give. */
function parametersOf(request: Record<string, unknown>): Record<string, unknown> {
  const parameters: Record<string, unknown> = { temperature: typeof request.temperature === 'number' ? request.temperature : 0.1 }
  for (const key of ['top_p', 'max_tokens', 'stop']) if (request[key] !== undefined && request[key] !== null) parameters[key] = request[key]
  if (parameters.max_tokens === undefined && typeof request.max_completion_tokens === 'number') parameters.max_tokens = request.max_completion_tokens
  return parameters
}

function hexOf(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}

function randomHex(digits: number): string {
  return hexOf(crypto.getRandomValues(new Uint8Array(Math.ceil(digits / 2)))).slice(0, digits)
}

/**
 * A random UUID (version 4) from `crypto.getRandomValues`, which every runtime
 * offers; `crypto.randomUUID` is missing from browser pages served over plain
 * HTTP (it needs a secure context).
 */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = hexOf(bytes)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * A Chat Completions request body as a Lingma request: its path (with query), body and `Encode=1`
 * encoded body (sign it before sending).
 */
export function lingmaRequestOf(request: Record<string, unknown>, options: LingmaRequestOptions = {}): LingmaRequest {
  if (!isRecord(request)) throw new TypeError('Cannot build a Lingma request: expected a Chat Completions request object')
  const model = typeof request.model === 'string' && request.model.trim() !== '' ? request.model.trim() : (options.defaultModel ?? 'auto')
  const messages = Array.isArray(request.messages) ? normalizeAssistantToolCallContent(request.messages).map((message) => (isRecord(message) ? withThought(message) : message)) : []
  const requestId = options.requestId ?? randomUuid()
  const agent = agentId(model)
  const body: Record<string, unknown> = {
    request_id: requestId,
    request_set_id: '',
    chat_record_id: requestId,
    stream: true,
    image_urls: null,
    is_reply: false,
    is_retry: false,
    session_id: options.sessionId ?? randomHex(32),
    code_language: '',
    source: 0,
    version: '3',
    chat_prompt: '',
    agent_id: agent,
    task_id: 'question_refine',
    model_config: { key: model, is_vl: false, is_reasoning: !isAgentCommonModel(model), source: modelConfigSource(model) },
    messages,
    business: { product: 'ide', type: 'chat', id: requestId, begin_at: 0, stage: 'start', name: 'dsml-streams', relation: {} },
    parameters: parametersOf(request),
  }
  if (Array.isArray(request.tools) && request.tools.length > 0) body.tools = request.tools
  if (request.tool_choice !== undefined) body.tool_choice = request.tool_choice
  return {
    path: `${LINGMA_CHAT_PATH}?FetchKeys=llm_model_result&AgentId=${agent}&Encode=1`,
    body,
    encodedBody: encodeLingmaBody(JSON.stringify(body)),
  }
}
