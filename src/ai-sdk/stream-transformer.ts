/**
 * `wrapStream`: a `LanguageModelV4StreamPart` stream translated into parts
 * and run through the one part pipeline (`createPartRepair`: one engine per
 * channel, recovered calls settled at the finish), then translated back.
 *
 * - Clean text goes out as soon as the engine releases it. A `text-start` is
 *   held back until the first clean text of its id, so a text part that ends
 *   up empty emits neither `text-start` nor `text-end`.
 * - Text and reasoning are independent channels: a part of one never
 *   resolves what the other holds. Within a channel, the engine's text
 *   belongs to the id whose delta it came with; a delta of another id of the
 *   same channel first ends the channel (the first id's text resolved and
 *   sent under its id). `text-end` / `reasoning-end` end the channel of
 *   their id, `finish` both. Any other part (native tool parts, files,
 *   sources; not `raw` or `ping`) interrupts both channels, so order is kept
 *   — all but a tag start whose marker is still undecided, which waits for
 *   the channel's next delta (`DsmlPartSanitizer.flush`).
 * - Recovered calls are kept until the `finish` part (or the end of the
 *   stream), then settled (`settleRecoveredCalls`: native calls win, fail
 *   closed, a reasoning draft and its copy in the text give one call) and
 *   emitted as `tool-input-start` / `tool-input-delta` / `tool-input-end` /
 *   `tool-call`. A finish `stop` after emitted calls becomes `tool-calls`
 *   (`{ unified: 'tool-calls', raw }`; a V2 model's string, `finish-reason.ts`).
 * - A part that cannot be read is passed on unchanged (`malformed-chunk`); the
 *   stream never throws.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { madeFinish, unifiedFinishReason, withUnifiedFinishReason } from './finish-reason.ts'
import type { Channel, Part as NeutralPart } from '../parts/part.ts'
import { createPartRepair } from '../parts/part-repair.ts'
import { partRepairOptions, type DsmlMiddlewareDiagnostic, type ResolvedMiddlewareOptions } from './options.ts'
import { StandardTransformStream } from '../standard-stream.ts'

type Part = LanguageModelV4StreamPart

interface OpenPart {
  channel: Channel
  id: string
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
  /** The runaway guard ended the stream (`runawayRepeat`): its finish went out; nothing pushed from now on comes out. */
  readonly stopped: boolean
}

/** The synchronous core of the stream stage: parts in, parts out. */
export function createStreamRepair(
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
  /** The wrapped model's `specificationVersion`: the shape of a finish the middleware makes. */
  specificationVersion?: unknown,
): StreamRepair {
  const open = new Map<string, OpenPart>()
  /** The id whose text each channel's engine holds. */
  const owner: Record<Channel, OpenPart | undefined> = { text: undefined, reasoning: undefined }
  /** Recovered call id (unique in the stream: the settlement's) → the part it was recovered from. */
  const sourcePart = new Map<string, string>()
  /** Native call ids → the index their neutral parts use. */
  const nativeIndex = new Map<string, number>()
  /** The upstream part being translated, and the neutral part made from it (passed through untouched: the upstream part goes out). */
  let upstream: Part | undefined
  let translated: NeutralPart | undefined
  let out: Part[] = []

  const keyOf = (channel: Channel, id: string): string => `${channel}\u0000${id}`

  const repair = createPartRepair(partRepairOptions(resolved, params), {
    emit: translateBack,
    recovered: (part) => sourcePart.set(part.call.id, owner[part.channel ?? 'text']?.id ?? ''),
  })

  function report(diagnostic: Omit<DsmlMiddlewareDiagnostic, 'operation'>): void {
    resolved.report({ ...diagnostic, operation: 'stream' })
  }

  function openPart(channel: Channel, id: string, startPart: Part | undefined): OpenPart {
    const entry: OpenPart = { channel, id, startPart, started: startPart === undefined, received: 0 }
    open.set(keyOf(channel, id), entry)
    return entry
  }

  function start(entry: OpenPart): void {
    if (entry.started) return
    out.push(entry.startPart!)
    entry.started = true
  }

  /** A part of the pipeline, back in the AI SDK's shape. */
  function translateBack(part: NeutralPart): void {
    if (part === translated) {
      // Untouched: the upstream part itself goes on (its start first, for a delta).
      if (part.type === 'text' || part.type === 'reasoning') start(owner[part.type]!)
      out.push(upstream!)
      return
    }
    switch (part.type) {
      case 'text':
      case 'reasoning': {
        const entry = owner[part.type]
        if (entry === undefined || part.text === '') return
        start(entry)
        const delta = { type: part.type === 'text' ? 'text-delta' : 'reasoning-delta', id: entry.id, delta: part.text } as Part & { providerMetadata?: unknown }
        // The clean text of the delta being translated keeps its provider metadata.
        const metadata = (upstream as { providerMetadata?: unknown } | undefined)?.providerMetadata
        if (translated?.type === part.type && metadata !== undefined) delta.providerMetadata = metadata
        out.push(delta)
        return
      }
      case 'synthesized-tool-call': {
        const { call } = part
        const id = call.id
        const input = JSON.stringify(call.arguments)
        out.push(
          { type: 'tool-input-start', id, toolName: call.name },
          { type: 'tool-input-delta', id, delta: input },
          { type: 'tool-input-end', id },
          { type: 'tool-call', toolCallId: id, toolName: call.name, input },
        )
        return
      }
      case 'synthesized-tool-call-start':
        // A call streamed as it forms: its input as it comes, as a native call's.
        out.push({ type: 'tool-input-start', id: part.id, toolName: part.name })
        return
      case 'synthesized-tool-call-delta':
        out.push({ type: 'tool-input-delta', id: part.id, delta: part.delta })
        return
      case 'synthesized-tool-call-end': {
        const { call } = part
        out.push({ type: 'tool-input-end', id: call.id }, { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.arguments) })
        return
      }
      case 'diagnostic': {
        const channel = part.channel ?? 'text'
        const callId = part.diagnostic.toolCallId
        const diagnostic: Omit<DsmlMiddlewareDiagnostic, 'operation'> = { ...part.diagnostic, channel }
        if (callId === undefined) {
          const partId = owner[channel]?.id
          if (partId !== undefined) diagnostic.partId = partId
        } else {
          diagnostic.partId = sourcePart.get(callId) ?? ''
        }
        report(diagnostic)
        return
      }
      case 'finish': {
        if (upstream?.type !== 'finish') {
          // Made by the pipeline: a runaway ended the message. The open parts end, then the finish, in the model's spec.
          for (const entry of open.values()) if (entry.started) out.push({ type: entry.channel === 'text' ? 'text-end' : 'reasoning-end', id: entry.id } as Part)
          open.clear()
          out.push({ type: 'finish', ...madeFinish(part.reason, specificationVersion) } as Part)
          return
        }
        // A finish read from an upstream `finish` part, rewritten to tool calls.
        const finish = upstream
        out.push({ ...finish, finishReason: withUnifiedFinishReason(finish.finishReason, part.reason) })
        return
      }
      default:
        // chunk-end and the other neutral parts say nothing to the AI SDK.
        return
    }
  }

  /** Feeds the neutral part made from the upstream part being translated. */
  function feed(part: NeutralPart, from: Part): void {
    upstream = from
    translated = part
    repair.feed(part)
    upstream = undefined
    translated = undefined
  }

  /** The channel's text now belongs to `entry`: what another id of the channel holds is resolved under that id first. */
  function own(entry: OpenPart): void {
    const current = owner[entry.channel]
    if (current === entry) return
    if (current !== undefined) repair.endChannel(entry.channel)
    owner[entry.channel] = entry
  }

  function delta(channel: Channel, part: Extract<Part, { type: 'text-delta' | 'reasoning-delta' }>): void {
    const entry = open.get(keyOf(channel, part.id)) ?? openPart(channel, part.id, undefined)
    if (typeof (part.delta as unknown) !== 'string') return invalid(part, `${part.type} without a string delta`)
    own(entry)
    entry.received += part.delta.length
    if (part.delta === '') return
    feed({ type: channel, text: part.delta }, part)
  }

  function endPart(channel: Channel, part: Part & { id: string }): void {
    const key = keyOf(channel, part.id)
    const entry = open.get(key)
    if (entry === undefined) {
      out.push(part)
      return
    }
    open.delete(key)
    if (owner[channel] === entry) {
      repair.endChannel(channel)
      owner[channel] = undefined
    }
    if (entry.started) out.push(part)
    else if (entry.received === 0) out.push(entry.startPart!, part) // the upstream part was empty already
    // else: everything was removed; neither start nor end goes out.
  }

  function startPart(channel: Channel, part: Part & { id: string }): void {
    const existing = open.get(keyOf(channel, part.id))
    // A second start for an open id closes what the first one held.
    if (existing !== undefined && owner[channel] === existing) {
      repair.endChannel(channel)
      owner[channel] = undefined
    }
    if (channel === 'reasoning') {
      // Reasoning parts may carry provider data (signatures, encrypted content) even when empty: never held back.
      openPart(channel, part.id, undefined)
      out.push(part)
    } else {
      openPart(channel, part.id, part)
    }
  }

  function native(part: Extract<Part, { type: 'tool-call' | 'tool-input-start' }>): void {
    const id = part.type === 'tool-call' ? part.toolCallId : part.id
    let index = nativeIndex.get(id)
    if (index === undefined) nativeIndex.set(id, (index = nativeIndex.size))
    const neutral: NeutralPart = { type: 'native-tool-call', index, id }
    if (typeof part.toolName === 'string') neutral.name = part.toolName
    if (part.type === 'tool-call' && typeof part.input === 'string') neutral.arguments = part.input
    feed(neutral, part)
  }

  function finish(part: Extract<Part, { type: 'finish' }>): void {
    const reason = unifiedFinishReason(part.finishReason)
    if (reason === undefined) {
      // Unreadable: the channels end, and the calls are settled as if no finish came.
      repair.endChannel('text')
      repair.endChannel('reasoning')
      out.push(part)
      return
    }
    feed({ type: 'finish', reason }, part)
  }

  function invalid(part: unknown, message: string): void {
    report({ kind: 'malformed-chunk', text: '', message: `Stream part passed on unchanged: ${message}` })
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
      case 'tool-input-start':
        return native(part)
      case 'finish':
        return finish(part)
      default:
        repair.flush()
        out.push(part)
    }
  }

  return {
    push(part) {
      out = []
      if (repair.stopped) return out
      // Malformed parts are reported and passed on by `dispatch`; an internal error is a bug, and surfaces.
      dispatch(part)
      return out
    },

    end() {
      out = []
      // Calls recovered without a finish part (or after it) are settled at the end of the stream.
      repair.end()
      open.clear()
      return out
    },

    get stopped() {
      return repair.stopped
    },
  }
}

/** `createStreamRepair` as a `TransformStream`. */
export function createDsmlStreamTransform(
  resolved: ResolvedMiddlewareOptions,
  params: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'> | undefined,
  specificationVersion?: unknown,
): TransformStream<Part, Part> {
  const repair = createStreamRepair(resolved, params, specificationVersion)
  return new StandardTransformStream<Part, Part>({
    transform(part, controller) {
      for (const output of repair.push(part)) controller.enqueue(output)
      // A runaway ended the stream: the readable side closes, and the writable side errors, which cancels the model's stream.
      if (repair.stopped) controller.terminate()
    },
    flush(controller) {
      for (const output of repair.end()) controller.enqueue(output)
    },
  })
}
