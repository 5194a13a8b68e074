/**
 * `ChunkGroups`: how the Lingma decoder writes its parts. Every group of
 * parts is closed by a `chunk-end` whose origin is a standard
 * `chat.completion.chunk` that says exactly what the group says (the frame's
 * chat chunk unwrapped from its envelope, with `id`, `object`, `created` and
 * `model` filled in), so the Chat Completions encoder writes an untouched
 * group as that chunk and rebuilds a changed one from it. Text of the two
 * channels goes in separate groups, in stream order, so a chunk never has to
 * say "answer, then reasoning, then answer" in one delta.
 */
import type { ChatCompletionChunk, ChatDelta, ChatToolCallDelta } from '../chat-completions/types.ts'
import { generatePrefixedId } from '../dsml/options.ts'
import type { ChunkOrigin, Part } from '../parts/part.ts'
import type { ChatCompletionsStreamError } from './errors.ts'
import type { ChannelText } from './thought-tags.ts'
import type { ChatCompletionsUsage } from './usage.ts'

/** The envelope a chunk gets when the upstream never said (Lingma's first chunk usually gives `id` and `model`). */
export interface LingmaEnvelopeDefaults {
  /** @default `chatcmpl-` + 24 random alphanumerics */
  id?: string
  /** @default 'auto' (what Lingma answers for its routed models) */
  model?: string
  /** Unix seconds. @default the time of the first chunk */
  created?: number
}

/** A chunk-end origin of the Lingma decoder: the chat chunk it stands for, and the frame's payload as received. */
export interface LingmaChunkOrigin extends ChunkOrigin<unknown> {
  /** The frame's data (after `data:`), as it came; `data` is the chat chunk written out. */
  frame: string
}

/** What the last group of a frame carries besides its text. */
export interface GroupTail {
  toolCalls?: ChatToolCallDelta[]
  finishReason?: string
  usage?: ChatCompletionsUsage
}

export class ChunkGroups {
  #id: string | undefined
  #model: string | undefined
  #created: number | undefined
  #defaults: LingmaEnvelopeDefaults
  #roleSent = false

  constructor(defaults: LingmaEnvelopeDefaults) {
    this.#defaults = defaults
  }

  /** Takes `id`, `model` and `created` from an upstream chunk that has them. */
  note(chunk: Record<string, unknown>): void {
    if (typeof chunk.id === 'string' && chunk.id !== '') this.#id = chunk.id
    if (typeof chunk.model === 'string' && chunk.model !== '') this.#model = chunk.model
    if (typeof chunk.created === 'number') this.#created = chunk.created
  }

  #envelope(): { id: string; object: 'chat.completion.chunk'; created: number; model: string } {
    this.#id ??= this.#defaults.id ?? generatePrefixedId('chatcmpl-')
    this.#created ??= this.#defaults.created ?? Math.floor(Date.now() / 1000)
    this.#model ??= this.#defaults.model ?? 'auto'
    return { id: this.#id, object: 'chat.completion.chunk', created: this.#created, model: this.#model }
  }

  #close(out: Part[], frame: string, chunk: unknown, parts: Part[]): void {
    const origin: LingmaChunkOrigin = { event: undefined, id: undefined, data: JSON.stringify(chunk), chunk, parts: [], frame }
    for (const part of parts) {
      ;(part as { origin?: ChunkOrigin }).origin = origin
      out.push(part)
    }
    origin.parts = parts.slice()
    out.push({ type: 'chunk-end', origin })
  }

  #chatChunk(delta: ChatDelta, finishReason: string | undefined, usage: ChatCompletionsUsage | undefined, emptyChoices: boolean): ChatCompletionChunk {
    if (!this.#roleSent && !emptyChoices) {
      this.#roleSent = true
      delta = { role: 'assistant', ...delta }
    }
    const chunk: ChatCompletionChunk = { ...this.#envelope(), choices: emptyChoices ? [] : [{ index: 0, delta, finish_reason: finishReason ?? null }] }
    if (usage !== undefined) chunk.usage = usage
    return chunk
  }

  /** The assistant's first chunk (`role: assistant`), for a frame that only says which message this is. */
  start(out: Part[], frame: string): void {
    if (this.#roleSent) return
    this.#close(out, frame, this.#chatChunk({ content: '' }, undefined, undefined, false), [])
  }

  /**
   * A frame's content: each run of one channel in a group of its own, the
   * last run together with the native calls, the finish and the usage.
   */
  write(out: Part[], frame: string, runs: readonly ChannelText[], tail: GroupTail): void {
    const toolCalls = tail.toolCalls ?? []
    const hasTail = toolCalls.length > 0 || tail.finishReason !== undefined || tail.usage !== undefined
    for (let index = 0; index < runs.length; index++) {
      const run = runs[index]!
      if (index === runs.length - 1 && hasTail) break
      const part: Part = run.channel === 'text' ? { type: 'text', text: run.text } : { type: 'reasoning', text: run.text }
      const delta: ChatDelta = run.channel === 'text' ? { content: run.text } : { reasoning_content: run.text }
      this.#close(out, frame, this.#chatChunk(delta, undefined, undefined, false), [part])
    }
    if (!hasTail) return
    const parts: Part[] = []
    const delta: ChatDelta = {}
    const last = runs[runs.length - 1]
    if (last !== undefined) {
      if (last.channel === 'text') {
        parts.push({ type: 'text', text: last.text })
        delta.content = last.text
      } else {
        parts.push({ type: 'reasoning', text: last.text })
        delta.reasoning_content = last.text
      }
    }
    if (toolCalls.length > 0) {
      delta.tool_calls = toolCalls
      for (const call of toolCalls) {
        const part: Part = { type: 'native-tool-call', index: call.index }
        if (typeof call.id === 'string') part.id = call.id
        if (typeof call.function?.name === 'string') part.name = call.function.name
        if (typeof call.function?.arguments === 'string') part.arguments = call.function.arguments
        parts.push(part)
      }
    }
    if (tail.finishReason !== undefined) parts.push({ type: 'finish', reason: tail.finishReason })
    if (tail.usage !== undefined) parts.push({ type: 'usage', usage: tail.usage })
    // Usage alone is OpenAI's usage chunk: no choices.
    const usageOnly = last === undefined && toolCalls.length === 0 && tail.finishReason === undefined
    this.#close(out, frame, this.#chatChunk(delta, tail.finishReason, tail.usage, usageOnly), parts)
  }

  /** The terminator, always written as `[DONE]`. */
  done(out: Part[], frame: string): void {
    const origin: LingmaChunkOrigin = { event: undefined, id: undefined, data: '[DONE]', chunk: undefined, parts: [], frame }
    const part: Part = { type: 'done', origin }
    origin.parts = [part]
    out.push(part, { type: 'chunk-end', origin })
  }

  /** An error, as the chunk a Chat Completions client reads: `{"error": {…}}`. */
  error(out: Part[], frame: string, error: ChatCompletionsStreamError): void {
    this.#close(out, frame, { error }, [{ type: 'error', error }])
  }

  /** A frame this decoder does not read, kept as it came. */
  passthrough(out: Part[], frame: string, chunk: unknown): void {
    const origin: LingmaChunkOrigin = { event: undefined, id: undefined, data: frame, chunk, parts: [], frame }
    const part: Part = { type: 'passthrough', origin }
    origin.parts = [part]
    out.push(part, { type: 'chunk-end', origin })
  }
}
