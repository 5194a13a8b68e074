/**
 * `createChatCompletionsEncoder`: neutral parts → SSE messages. Parts are
 * gathered up to each `chunk-end`; a group that is exactly what the decoder
 * made for its chunk is forwarded as it came (no re-serialising). Otherwise
 * the chunk is rebuilt from its original object: only `delta.content`,
 * `delta.reasoning_content`, `delta.tool_calls` and `finish_reason` of choice
 * 0 change; every other field (id, model, created, system_fingerprint,
 * logprobs, usage, unknown keys, other choices) is kept.
 */
import type { ChunkOrigin, Part } from '../parts/part.ts'
import type { SseMessage } from '../sse/types.ts'
import { primaryChoice } from './decoder.ts'
import { type ChatChoice, type ChatCompletionChunk, type ChatToolCallDelta, DONE_DATA, isChatCompletionChunk } from './types.ts'
import { sameParts, ShapedOrigin, withOrigin } from '../dialect-kit/chunk-origin.ts'
import type { DialectEncoder } from '../dialect-kit/dialect-hooks.ts'
import type { ForwardedMessage } from '../dialect-kit/forwarded-message.ts'
import { LastShape, type TextShape } from '../dialect-kit/text-shape.ts'

export interface ChatCompletionsEncoder {
  feed(part: Part): SseMessage[]
  /** Writes any parts left without a `chunk-end` as one last chunk. */
  end(): SseMessage[]
}

/** The encoder with what the fused repair may ask it (internal; not exported from the package). */
export interface ChatCompletionsEncoderCore extends ChatCompletionsEncoder, DialectEncoder {
  /**
   * A chat chunk (valid JSON with a `choices` array) went by without being
   * decoded, forwarded as it came: it becomes the envelope, parsed only if
   * a made-up chunk needs it. Always yes.
   */
  forwarded(message: ForwardedMessage): boolean
  /** Can every chunk of this shape be written as `head` + its content + `tail` (`shapeFacts`)? */
  writesShape(shape: TextShape): boolean
}

/**
 * What the encoder knows of every chunk of one shape (a plain chunk cut
 * around its content string, `TextShape`): written again with other
 * content, such a chunk is `head` + the content as a JSON string + `tail`;
 * with no content left, it is dropped if `droppable`.
 */
export interface ShapeFacts {
  readonly head: string
  readonly tail: string
  readonly droppable: boolean
}

/** Content no plain chunk holds (plain strings have no `<`), to find where the content sits. */
const PROBE = '<probe>'

/**
 * The encoder's own answer to "can every chunk of this shape be written as
 * `head` + the content as a JSON string + `tail`": it writes the shape once,
 * through the same `rebuildChoice` and `JSON.stringify` as `writeGroup`, with
 * a content no plain chunk holds, and the answer is yes when that output is
 * the shape's text itself with the content in its place (then any other
 * content lands in the same place, for a JSON string has no effect on what
 * surrounds it). Undefined (no) when the content is not
 * `choices[0].delta.content` of the only choice, or the chunk's text is not
 * as the encoder writes it.
 */
export function shapeFacts(shape: TextShape): ShapeFacts | undefined {
  if (shape.counted) return undefined
  const probe = shape.before + PROBE + shape.middle
  let chunk: unknown
  try {
    chunk = JSON.parse(probe)
  } catch {
    return undefined
  }
  if (!isChatCompletionChunk(chunk) || chunk.choices.length !== 1) return undefined
  const original = primaryChoice(chunk)
  if (original === undefined || original !== chunk.choices[0] || original.delta === null || typeof original.delta !== 'object') return undefined
  if (original.delta.content !== PROBE) return undefined
  const changes = (text: string | undefined): Changes => ({
    text,
    reasoning: undefined,
    synthesized: [],
    finishReason: undefined,
    foreignNative: [],
    content: text !== undefined,
    terminator: false,
  })
  // The very object writeGroup would write, with the probe as content.
  if (JSON.stringify({ ...chunk, choices: [rebuildChoice(original, changes(PROBE))] }) !== probe) return undefined
  const usage = chunk.usage
  return {
    head: shape.before.slice(0, -1),
    tail: shape.middle.slice(1),
    droppable: isEmptyChoice(rebuildChoice(original, changes(undefined))) && (usage === undefined || usage === null),
  }
}

/** Envelope fields a chunk the encoder makes up copies from the last real chunk. */
const ENVELOPE_KEYS = ['id', 'object', 'created', 'model', 'system_fingerprint', 'service_tier'] as const

interface Changes {
  text: string | undefined
  reasoning: string | undefined
  synthesized: ChatToolCallDelta[]
  finishReason: string | undefined
  /** Native tool-call parts whose chunk is not their origin (not expected; kept anyway). */
  foreignNative: ChatToolCallDelta[]
  /** Parts of the group that belong in a chat chunk. */
  content: boolean
  /** The stages ended the stream (a runaway): the terminator follows the chunk. */
  terminator: boolean
}

function gather(group: readonly Part[], origin: ChunkOrigin | undefined): Changes {
  const changes: Changes = { text: undefined, reasoning: undefined, synthesized: [], finishReason: undefined, foreignNative: [], content: false, terminator: false }
  for (const part of group) {
    switch (part.type) {
      case 'text':
        changes.text = (changes.text ?? '') + part.text
        changes.content = true
        break
      case 'reasoning':
        changes.reasoning = (changes.reasoning ?? '') + part.text
        changes.content = true
        break
      case 'synthesized-tool-call':
        changes.synthesized.push({
          index: part.index,
          id: part.call.id,
          type: 'function',
          function: { name: part.call.name, arguments: JSON.stringify(part.call.arguments) },
        })
        changes.content = true
        break
      case 'synthesized-tool-call-start':
        // A call streamed as it forms: its first delta names it, as a native call's does.
        changes.synthesized.push({ index: part.index, id: part.id, type: 'function', function: { name: part.name, arguments: '' } })
        changes.content = true
        break
      case 'synthesized-tool-call-delta': {
        // Its arguments' pieces: those of one chunk in one delta.
        const last = changes.synthesized[changes.synthesized.length - 1]
        if (last?.index === part.index && last.function !== undefined) last.function.arguments = (last.function.arguments ?? '') + part.delta
        else changes.synthesized.push({ index: part.index, function: { arguments: part.delta } })
        changes.content = true
        break
      }
      case 'finish':
        changes.finishReason = part.reason
        changes.content = true
        break
      case 'done':
        if (part.origin === undefined) changes.terminator = true
        break
      case 'native-tool-call':
        if (part.origin !== origin) {
          const call: ChatToolCallDelta = { index: part.index }
          if (part.id !== undefined) call.id = part.id
          call.function = {}
          if (part.name !== undefined) call.function.name = part.name
          if (part.arguments !== undefined) call.function.arguments = part.arguments
          changes.foreignNative.push(call)
          changes.content = true
        }
        break
      default:
        break
    }
  }
  return changes
}

function rebuildChoice(original: ChatChoice | undefined, changes: Changes): ChatChoice {
  const base: ChatChoice = original ?? { index: 0, delta: {}, finish_reason: null }
  const delta = { ...base.delta }
  if (changes.text !== undefined) delta.content = changes.text
  else if (original !== undefined && typeof delta.content === 'string') delta.content = ''
  if (changes.reasoning !== undefined) delta.reasoning_content = changes.reasoning
  else if (original !== undefined && typeof delta.reasoning_content === 'string') delta.reasoning_content = ''
  if (changes.synthesized.length > 0 || changes.foreignNative.length > 0) {
    delta.tool_calls = [...(Array.isArray(base.delta.tool_calls) ? base.delta.tool_calls : []), ...changes.foreignNative, ...changes.synthesized]
  }
  return { ...base, delta, finish_reason: changes.finishReason ?? base.finish_reason ?? null }
}

/**
 * Neutral parts → Chat Completions SSE messages, as a synchronous core (what
 * `ChatCompletionsEncoderStream` runs).
 */
export function createChatCompletionsEncoder(): ChatCompletionsEncoder {
  return createChatCompletionsEncoderCore()
}

export function createChatCompletionsEncoderCore(): ChatCompletionsEncoderCore {
  return new Encoder()
}

/** A class, so that one per open stream pays for its fields only and every instance shares one map. */
class Encoder implements ChatCompletionsEncoderCore {
  #group: Part[] = []
  #envelope: ChatCompletionChunk | undefined = undefined
  /** The data of the last chunk, when it was forwarded without being parsed (see `forwarded`): a span of this text. */
  #envelopeData: string | undefined = undefined
  #envelopeStart = 0
  #envelopeEnd = 0
  /** The facts of the last shape asked about (`writesShape`). */
  #shapes = new LastShape<ShapeFacts>(shapeFacts)

  feed(part: Part): SseMessage[] {
    if (part.type === 'chunk-end') return this.#writeGroup(part.origin)
    if (part.type === 'comment') return [{ comment: part.comment }]
    if (part.type === 'diagnostic' || part.type === 'tool-call') return []
    this.#group.push(part)
    return []
  }

  end(): SseMessage[] {
    if (this.#group.length === 0) return []
    return this.#writeGroup(undefined)
  }

  forwarded(message: ForwardedMessage): boolean {
    this.#envelopeData = message.source
    this.#envelopeStart = message.start
    this.#envelopeEnd = message.end
    return true
  }

  writesShape(shape: TextShape): boolean {
    return this.#shapes.of(shape) !== undefined
  }

  #madeUpChunk(changes: Changes): string {
    if (this.#envelopeData !== undefined) {
      this.#envelope = JSON.parse(this.#envelopeData.slice(this.#envelopeStart, this.#envelopeEnd)) as ChatCompletionChunk
      this.#envelopeData = undefined
    }
    const envelope = this.#envelope
    const chunk: Record<string, unknown> = {}
    for (const key of ENVELOPE_KEYS) if (envelope?.[key] !== undefined) chunk[key] = envelope[key]
    if (chunk.object === undefined) chunk.object = 'chat.completion.chunk'
    chunk.choices = [rebuildChoice(undefined, changes)]
    return JSON.stringify(chunk)
  }

  #writeGroup(origin: ChunkOrigin | undefined): SseMessage[] {
    const parts = this.#group
    this.#group = []
    if (origin instanceof ShapedOrigin) {
      // A chat chunk of a known shape: what follows, without parsing it.
      this.#envelopeData = origin.data
      this.#envelopeStart = 0
      this.#envelopeEnd = origin.data.length
      if (sameParts(parts, origin)) return [rawMessage(origin)]
      const changes = gather(parts, origin)
      const facts = this.#shapes.of(origin.shape)
      if (facts !== undefined && changes.reasoning === undefined && changes.synthesized.length === 0 && changes.finishReason === undefined && changes.foreignNative.length === 0) {
        const text = changes.text ?? ''
        if (text === '' && facts.droppable) return []
        return [withOrigin(origin, facts.head + JSON.stringify(text) + facts.tail)]
      }
      return this.#rebuildGroup(origin, changes)
    }
    if (origin !== undefined && isChatCompletionChunk(origin.chunk)) {
      this.#envelope = origin.chunk
      this.#envelopeData = undefined
    }
    if (origin !== undefined && sameParts(parts, origin)) return [rawMessage(origin)]
    return this.#rebuildGroup(origin, gather(parts, origin))
  }

  #rebuildGroup(origin: ChunkOrigin | undefined, changes: Changes): SseMessage[] {
    if (origin !== undefined && isChatCompletionChunk(origin.chunk)) {
      const chunk = origin.chunk
      const original = primaryChoice(chunk)
      const choices = chunk.choices.slice()
      const position = original === undefined ? -1 : choices.indexOf(original)
      if (position === -1) {
        if (!changes.content) return [rawMessage(origin)]
        choices.unshift(rebuildChoice(undefined, changes))
      } else {
        const choice = rebuildChoice(original, changes)
        // A chunk that carried only markup, now removed, is not written at all.
        if (choices.length === 1 && isEmptyChoice(choice) && (chunk.usage === undefined || chunk.usage === null)) return []
        choices[position] = choice
      }
      return [withOrigin(origin, JSON.stringify({ ...chunk, choices }))]
    }
    // Not a chat chunk ([DONE], an error, something unreadable) or no origin:
    // the stages' output goes first, in a chunk of its own, then the message as it came.
    const messages: SseMessage[] = []
    if (changes.content) messages.push({ data: this.#madeUpChunk(changes) })
    if (origin !== undefined) messages.push(rawMessage(origin))
    if (changes.terminator) messages.push({ data: DONE_DATA })
    return messages
  }
}

/** Nothing left to say: no finish, and a delta with at most an empty `content` / `reasoning_content`. */
function isEmptyChoice(choice: ChatChoice): boolean {
  if (choice.finish_reason !== null && choice.finish_reason !== undefined) return false
  for (const key in choice.delta) {
    if ((key === 'content' || key === 'reasoning_content') && choice.delta[key] === '') continue
    return false
  }
  return true
}

function rawMessage(origin: ChunkOrigin): SseMessage {
  return withOrigin(origin, origin.data)
}
