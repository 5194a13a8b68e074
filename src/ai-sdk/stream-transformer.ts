/**
 * `wrapStream`: the engine over the `text-delta` and `reasoning-delta` parts
 * of a `LanguageModelV4StreamPart` stream, one engine per text or reasoning id.
 *
 * - Clean text goes out as soon as the engine releases it. A `text-start` is
 *   held back until the first clean text of its id, so a text part that ends
 *   up empty emits neither `text-start` nor `text-end`.
 * - Text and reasoning are independent channels: a part of one never
 *   resolves what an id of the other holds. Within a channel, a part of
 *   another id, and any other part (native tool parts; not `raw` or `ping`),
 *   first resolves what an id holds, so order is kept — all but a tag start
 *   whose marker is still undecided, which waits for the id's next delta
 *   (`DsmlSanitizer.flush`). `text-end` / `reasoning-end` resolve their own
 *   id, `finish` every id.
 * - Recovered calls are kept until the `finish` part (or the end of the
 *   stream), then emitted as `tool-input-start` / `tool-input-delta` /
 *   `tool-input-end` / `tool-call`, unless the upstream sent a native tool call
 *   (native calls win) or the finish reason is not `stop` / `tool-calls`
 *   (fail closed). A finish `stop` after emitted calls becomes
 *   `{ unified: 'tool-calls', raw }`.
 * - A part that cannot be read is passed on unchanged (`malformed-chunk`); the
 *   stream never throws.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4FinishReason, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import type { DsmlSanitizer } from '../dsml/index.ts'
import type { ResolvedMiddlewareOptions } from './options.ts'
import { createRecovery, type Channel } from './recovery.ts'

type Part = LanguageModelV4StreamPart

interface OpenPart {
  channel: Channel
  id: string
  engine: DsmlSanitizer | undefined
  /** The upstream `text-start`, held back until the first clean text. */
  startPart: Part | undefined
  /** Whether the start part went out (or there is none to send). */
  started: boolean
  /** Characters received for this id. */
  received: number
}

/** Parts that never interrupt held text: they are not part of the message's content. */
const TRANSPARENT = new Set(['raw', 'ping'])

export interface StreamRepair {
  push(part: Part): Part[]
  end(): Part[]
}

/** The synchronous core of the stream stage: parts in, parts out. */
export function createStreamRepair(
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
): StreamRepair {
  const recovery = createRecovery(resolved, params, 'stream')
  const open = new Map<string, OpenPart>()
  let finishReason: LanguageModelV4FinishReason | undefined
  let out: Part[] = []

  const keyOf = (channel: Channel, id: string): string => `${channel}\u0000${id}`

  function openPart(channel: Channel, id: string, startPart: Part | undefined): OpenPart {
    const entry: OpenPart = { channel, id, engine: undefined, startPart, started: startPart === undefined, received: 0 }
    open.set(keyOf(channel, id), entry)
    return entry
  }

  /** Sends clean text of a part (its held-back start first); `source` lends its provider metadata. */
  function emitText(entry: OpenPart, text: string, source?: { providerMetadata?: unknown }): void {
    if (text === '') return
    if (!entry.started) {
      out.push(entry.startPart!)
      entry.started = true
    }
    const part = { type: entry.channel === 'text' ? 'text-delta' : 'reasoning-delta', id: entry.id, delta: text } as Part & { providerMetadata?: unknown }
    if (source?.providerMetadata !== undefined) part.providerMetadata = source.providerMetadata
    out.push(part)
  }

  /**
   * Another part interrupts an id's text: resolves what its engine holds
   * (`flush`: a tag start whose marker is undecided waits for the id's next
   * delta or its end, so no marker can be joined across the interruption).
   */
  function interrupt(entry: OpenPart): void {
    const engine = entry.engine
    if (engine === undefined || engine.heldChars === 0) return
    emitText(entry, recovery.absorb(engine.flush(), entry.channel, entry.id))
  }

  function interruptAllBut(except: OpenPart | undefined): void {
    for (const entry of open.values()) if (entry !== except) interrupt(entry)
  }

  /** Another part of `channel` interrupts that channel's other ids; the other channel is independent and goes on holding. */
  function interruptChannel(channel: Channel, except: OpenPart | undefined): void {
    for (const entry of open.values()) if (entry !== except && entry.channel === channel) interrupt(entry)
  }

  /** The message ends (its finish): resolves everything every id holds; a later delta of an id starts a new engine. */
  function endAll(): void {
    for (const entry of open.values()) {
      const engine = entry.engine
      if (engine === undefined || engine.heldChars === 0) continue
      entry.engine = undefined
      emitText(entry, recovery.absorb(recovery.end(engine), entry.channel, entry.id))
    }
  }

  function delta(channel: Channel, part: Extract<Part, { type: 'text-delta' | 'reasoning-delta' }>): void {
    const key = keyOf(channel, part.id)
    const entry = open.get(key) ?? openPart(channel, part.id, undefined)
    interruptChannel(channel, entry)
    if (typeof (part.delta as unknown) !== 'string') return invalid(part, `${part.type} without a string delta`)
    entry.received += part.delta.length
    const engine = (entry.engine ??= recovery.engine(channel))
    const text = recovery.absorb(engine.feed(part.delta), channel, part.id)
    if (text === part.delta && text !== '') {
      // Nothing removed or held: the upstream part itself goes on.
      if (!entry.started) {
        out.push(entry.startPart!)
        entry.started = true
      }
      out.push(part)
    } else {
      emitText(entry, text, part)
    }
  }

  function endPart(channel: Channel, part: Part & { id: string }): void {
    const key = keyOf(channel, part.id)
    const entry = open.get(key)
    interruptChannel(channel, entry)
    if (entry === undefined) {
      out.push(part)
      return
    }
    open.delete(key)
    if (entry.engine !== undefined) {
      const engine = entry.engine
      entry.engine = undefined
      emitText(entry, recovery.absorb(recovery.end(engine), channel, part.id))
    }
    if (entry.started) out.push(part)
    else if (entry.received === 0) out.push(entry.startPart!, part) // the upstream part was empty already
    // else: everything was removed; neither start nor end goes out.
  }

  function startPart(channel: Channel, part: Part & { id: string }): void {
    const existing = open.get(keyOf(channel, part.id))
    interruptChannel(channel, undefined)
    if (existing !== undefined) {
      // A second start for an open id: close the first one's engine.
      if (existing.engine !== undefined) {
        const engine = existing.engine
        existing.engine = undefined
        emitText(existing, recovery.absorb(recovery.end(engine), channel, part.id))
      }
    }
    if (channel === 'reasoning') {
      // Reasoning parts may carry provider data (signatures, encrypted content) even when empty: never held back.
      openPart(channel, part.id, undefined)
      out.push(part)
    } else {
      openPart(channel, part.id, part)
    }
  }

  function emitCalls(reason: LanguageModelV4FinishReason | undefined): LanguageModelV4FinishReason | undefined {
    const settled = recovery.settle(reason)
    for (const call of settled.calls) {
      out.push(
        { type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName },
        { type: 'tool-input-delta', id: call.toolCallId, delta: call.input },
        { type: 'tool-input-end', id: call.toolCallId },
        call,
      )
    }
    return settled.finishReason
  }

  function finish(part: Extract<Part, { type: 'finish' }>): void {
    endAll()
    const reason = isFinishReason(part.finishReason) ? part.finishReason : undefined
    finishReason = reason
    const rewritten = emitCalls(reason)
    out.push(rewritten === reason ? part : { ...part, finishReason: rewritten! })
  }

  function invalid(part: unknown, message: string): void {
    recovery.report({ kind: 'malformed-chunk', text: '', message: `Stream part passed on unchanged: ${message}` })
    out.push(part as Part)
  }

  function dispatch(part: Part): void {
    if (part === null || typeof part !== 'object' || typeof part.type !== 'string') return invalid(part, 'not a stream part')
    if (TRANSPARENT.has(part.type)) {
      out.push(part)
      return
    }
    const hasId = 'id' in part && typeof part.id === 'string'
    switch (part.type) {
      case 'text-delta':
      case 'reasoning-delta':
        if (!hasId) return invalid(part, `${part.type} without an id`)
        return delta(part.type === 'text-delta' ? 'text' : 'reasoning', part)
      case 'text-start':
      case 'reasoning-start':
        if (!hasId) return invalid(part, `${part.type} without an id`)
        return startPart(part.type === 'text-start' ? 'text' : 'reasoning', part)
      case 'text-end':
      case 'reasoning-end':
        if (!hasId) return invalid(part, `${part.type} without an id`)
        return endPart(part.type === 'text-end' ? 'text' : 'reasoning', part)
      case 'tool-call':
        interruptAllBut(undefined)
        recovery.noteNative(part, true)
        out.push(part)
        return
      case 'tool-input-start':
        interruptAllBut(undefined)
        recovery.noteNative({ toolCallId: part.id }, false)
        out.push(part)
        return
      case 'finish':
        return finish(part)
      default:
        interruptAllBut(undefined)
        out.push(part)
    }
  }

  return {
    push(part) {
      out = []
      // Malformed parts are reported and passed on by `dispatch`; an internal error is a bug, and surfaces.
      dispatch(part)
      return out
    },

    end() {
      out = []
      for (const entry of open.values()) {
        if (entry.engine === undefined) continue
        const engine = entry.engine
        entry.engine = undefined
        emitText(entry, recovery.absorb(recovery.end(engine), entry.channel, entry.id))
      }
      open.clear()
      // Calls recovered without a finish part (or after it) go out at the end of the stream.
      if (recovery.pending > 0) emitCalls(finishReason)
      return out
    },
  }
}

function isFinishReason(value: unknown): value is LanguageModelV4FinishReason {
  return value !== null && typeof value === 'object' && typeof (value as { unified?: unknown }).unified === 'string'
}

/** `createStreamRepair` as a `TransformStream`. */
export function createDsmlStreamTransform(
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
): TransformStream<Part, Part> {
  const repair = createStreamRepair(resolved, params)
  return new TransformStream<Part, Part>({
    transform(part, controller) {
      for (const output of repair.push(part)) controller.enqueue(output)
    },
    flush(controller) {
      for (const output of repair.end()) controller.enqueue(output)
    },
  })
}
