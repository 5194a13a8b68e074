/**
 * `createDsmlPartSanitizer`: the engine on the neutral part stream. One engine
 * cleans the answer text, another the reasoning (markup leaks into
 * reasoning too). The two channels are independent: a delta of one
 * never resolves or cuts what the other holds, so a block that a reasoning
 * delta interrupts is still one block (text held as possible markup may then
 * reach the client after reasoning that came later upstream).
 * A native tool call interrupts both channels (`flush`, which keeps a tag
 * start not yet decided for the channel's next text); a finish, an error or
 * the end of the stream ends them. `chunk-end`, comments, usage and
 * unreadable chunks do not resolve anything: a block may span them.
 *
 * An adapter whose stream knows more boundaries than the part model (the AI
 * SDK's text ids, its file and source parts) resolves a channel itself with
 * `flush()` (both channels interrupted, as by a native call) and
 * `endChannel()` (the channel's text ends, as at a finish).
 */
import type { Channel, Part } from './part.ts'
import { type DsmlSanitizerOptions, type ResolvedDsmlSanitizerOptions, type ResolvedOptions, resolveOptions } from '../dsml/options.ts'
import { createDsmlSanitizer, createDsmlSanitizerCore, type DsmlSanitizerCore } from '../dsml/sanitizer.ts'
import type { DsmlSanitizer, NativeToolCall, SanitizerEvent } from '../dsml/types.ts'

export interface DsmlPartSanitizerOptions extends DsmlSanitizerOptions {
  /**
   * Recover calls from reasoning too (same rules as the answer). `false`:
   * markup in reasoning is removed, never turned into a call.
   * @default true
   */
  recoverFromReasoning?: boolean
}

export interface DsmlPartSanitizer {
  feed(part: Part): Part[]
  /** End of input: resolves both channels; what that gives is closed by a `chunk-end`. */
  end(): Part[]
  /** Both channels are interrupted, as by a native call: what they hold is resolved, but an undecided tag start. */
  flush(): Part[]
  /** The channel's text ends, as at a finish: everything it holds is resolved; its next text starts afresh. */
  endChannel(channel: Channel): Part[]
  /** Notes a native call on both channels, so an identical recovered call is removed. */
  noteNativeToolCall(call: NativeToolCall): void
  /** Characters held back by both channels together. */
  readonly heldChars: number
  /**
   * Both channels idle (see `DsmlSanitizer.idle`): an answer-text part with
   * no character `disturbsIdleSanitizer` names would pass through as it is
   * and change nothing.
   */
  readonly idle: boolean
}

/**
 * The part sanitizer as a synchronous core: neutral parts in, the same with text and reasoning
 * cleaned (one engine per channel) and recovered calls as `tool-call` parts.
 */
export function createDsmlPartSanitizer(options: DsmlPartSanitizerOptions | ResolvedDsmlSanitizerOptions = {}): DsmlPartSanitizer {
  return createDsmlPartSanitizerCore(options)
}

/**
 * The part sanitizer with what the fused repairs ask it (internal; not
 * exported from the package): an answer text read without parsing may go
 * by as it came (`DsmlSanitizerCore.passesAsItIs`).
 */
export interface DsmlPartSanitizerCore extends DsmlPartSanitizer {
  /** Would an answer-text part of `text`, fed now, come out as it is, with nothing held on either channel? Changes nothing. */
  passesAsItIs(text: string): boolean
  /** An answer text `passesAsItIs` just accepted went by as it is: read as `feed` would read its part. */
  passedText(text: string): void
}

/** `createDsmlPartSanitizer`, with the fused repairs' questions (`DsmlPartSanitizerCore`). */
export function createDsmlPartSanitizerCore(options: DsmlPartSanitizerOptions | ResolvedDsmlSanitizerOptions = {}): DsmlPartSanitizerCore {
  const recoverFromReasoning = (options as DsmlPartSanitizerOptions).recoverFromReasoning ?? true
  if (typeof recoverFromReasoning !== 'boolean') {
    throw new TypeError(`Cannot use option "recoverFromReasoning": expected a boolean, got ${typeof recoverFromReasoning}`)
  }
  const resolved = resolveOptions(options)
  const reasoning = recoverFromReasoning || resolved.mode !== 'recover' ? resolved : resolveOptions({ ...options, mode: 'strip' })
  return new PartSanitizer(resolved, reasoning)
}

/** A class, so that one per open stream pays for its fields only and every instance shares one map. */
class PartSanitizer implements DsmlPartSanitizerCore {
  #textEngine: DsmlSanitizerCore
  #reasoningEngine: DsmlSanitizer


  constructor(resolved: ResolvedOptions, reasoningResolved: ResolvedOptions) {
    this.#textEngine = createDsmlSanitizerCore(resolved)
    this.#reasoningEngine = createDsmlSanitizer(reasoningResolved)
  }

  feed(part: Part): Part[] {
    const out: Part[] = []
    switch (part.type) {
      case 'text':
        // Channels are independent: text never resolves held reasoning, nor reasoning held text.
        this.#clean(part, 'text', out)
        return out
      case 'reasoning':
        this.#clean(part, 'reasoning', out)
        return out
      case 'chunk-end':
      case 'comment':
      case 'diagnostic':
      case 'tool-call':
      case 'tool-call-start':
      case 'tool-call-delta':
      // Usage on every chunk (vLLM continuous usage) and unreadable chunks say nothing about the
      // message's text: they must not cut a block that spans them.
      case 'usage':
      case 'passthrough':
        out.push(part)
        return out
      case 'channel-end':
        // A block-structured dialect's text block ends (Anthropic's content_block_stop, a Responses text part's done).
        this.#end(part.channel, out)
        out.push(part)
        return out
      case 'finish':
      case 'error':
      case 'done':
        // The message ends here: nothing held can go on.
        this.#end('text', out)
        this.#end('reasoning', out)
        out.push(part)
        return out
      case 'native-tool-call':
      case 'synthesized-tool-call':
      case 'synthesized-tool-call-start':
      case 'synthesized-tool-call-delta':
      case 'synthesized-tool-call-end':
        this.#interrupt('text', out)
        this.#interrupt('reasoning', out)
        out.push(part)
        return out
    }
  }

  end(): Part[] {
    const out: Part[] = []
    this.#end('text', out)
    this.#end('reasoning', out)
    // Parts downstream are written per chunk: a group closes what the end resolved.
    if (out.length > 0) out.push({ type: 'chunk-end' })
    return out
  }

  flush(): Part[] {
    const out: Part[] = []
    this.#interrupt('text', out)
    this.#interrupt('reasoning', out)
    return out
  }

  endChannel(channel: Channel): Part[] {
    const out: Part[] = []
    this.#end(channel, out)
    return out
  }

  noteNativeToolCall(call: NativeToolCall): void {
    this.#textEngine.noteNativeToolCall(call)
    this.#reasoningEngine.noteNativeToolCall(call)
  }

  get heldChars(): number {
    return this.#textEngine.heldChars + this.#reasoningEngine.heldChars
  }

  get idle(): boolean {
    return this.#textEngine.idle && this.#reasoningHoldsNothing()
  }

  passesAsItIs(text: string): boolean {
    return this.#reasoningHoldsNothing() && this.#textEngine.passesAsItIs(text)
  }

  /** What an answer text may pass by as it is asks of the other channel: that it holds nothing. */
  #reasoningHoldsNothing(): boolean {
    return this.#reasoningEngine.heldChars === 0
  }

  passedText(text: string): void {
    this.#textEngine.passed(text)
  }

  /** The channel is interrupted: resolves what it holds (`flush`: a tag start not yet decided waits for its next text). */
  #interrupt(channel: Channel, out: Part[]): void {
    const engine = channel === 'text' ? this.#textEngine : this.#reasoningEngine
    if (engine.heldChars === 0) return
    toParts(engine.flush(), channel, out)
  }

  /** The channel's text ends: resolves everything it holds. Text after that (after a finish) starts afresh. */
  #end(channel: Channel, out: Part[]): void {
    const engine = channel === 'text' ? this.#textEngine : this.#reasoningEngine
    toParts(engine.endText(), channel, out)
  }

  #clean(part: Part & { type: 'text' | 'reasoning' }, channel: Channel, out: Part[]): void {
    const events = (channel === 'text' ? this.#textEngine : this.#reasoningEngine).feed(part.text)
    const only = events[0]
    // Unchanged text keeps the decoder's part, so its chunk can be forwarded as it came.
    if (events.length === 1 && only?.type === 'text' && only.text === part.text) out.push(part)
    else if (events.length === 0 && part.text === '') out.push(part)
    else toParts(events, channel, out)
  }
}

function toParts(events: readonly SanitizerEvent[], channel: Channel, out: Part[]): void {
  for (const event of events) {
    if (event.type === 'text') out.push(channel === 'text' ? event : { type: 'reasoning', text: event.text })
    else if (channel === 'text') out.push(event)
    else out.push({ ...event, channel })
  }
}
