/**
 * `createDsmlSanitizer`: the incremental DSML engine. Text goes in, in chunks
 * of any size; `text`, `tool-call` and `diagnostic` events come out. Feeding a
 * text whole or in any split gives the same events, once adjacent text events
 * are merged (call ids come from `generateId`, so they match when it does).
 *
 * Layers, bottom up: `grammar.ts` (characters, names, what can open markup),
 * `tag-lexer.ts` (one tag), `scanner.ts` (the loop over the text),
 * `structure.ts` (the named states: what tags mean), `acceptance.ts` (which
 * calls are made), `engine.ts` (the three wired together). See docs/layout.md
 * and docs/accepts-and-policy.md.
 */
import { CallAcceptance } from './acceptance.ts'
import { Engine } from './engine.ts'
import { FenceBacklog } from './fence-backlog.ts'
import { wakesFenceTracker } from './fence-tracker.ts'
import { isBar, LESS_THAN } from './grammar.ts'
import { couldHoldMarkup } from './partial-tags.ts'
import { type DsmlSanitizerOptions, type ResolvedDsmlSanitizerOptions, type ResolvedOptions, resolveOptions } from './options.ts'
import type { DsmlSanitizer, NativeToolCall, SanitizerEvent } from './types.ts'
import { UnrecoveredNotes } from './unrecovered-notes.ts'
import { DiagnosticReporter } from './diagnostic-counters.ts'
import { keepForProcess } from '../kept-for-process.ts'

/**
 * Creates a sanitizer. Until a chunk could hold markup, it is a few fields
 * (text passes straight through, kept for the fence tracker to read when asked: `fence-backlog.ts`); the engine is built on
 * the first chunk that could. So an idle sanitizer — one per open stream and
 * channel in a gateway — costs little memory.
 *
 * @example
 * ```ts
 * const sanitizer = createDsmlSanitizer({ knownTools: ['bash'] })
 * const events = [...sanitizer.feed(chunk), ...sanitizer.end()]
 * ```
 */
export function createDsmlSanitizer(options: DsmlSanitizerOptions | ResolvedDsmlSanitizerOptions = {}): DsmlSanitizer {
  return new LazySanitizer(resolveOptions(options))
}

/**
 * The sanitizer with what the fused repairs ask it (internal; not exported
 * from the package): a text they read without parsing may go by as it came
 * when the sanitizer would pass it as it is.
 */
export interface DsmlSanitizerCore extends DsmlSanitizer {
  /**
   * Would `chunk`, fed now, come out as it is, as one text event, with
   * nothing held before or after it? Unlike `idle`, it reads the chunk, so a
   * chunk at a line start, or with a line break or a `<` decided as text
   * within it, may pass. Changes nothing.
   */
  passesAsItIs(chunk: string): boolean
  /** `chunk`, which `passesAsItIs` just accepted, went by as it is: the sanitizer reads it as `feed` would, and gives nothing out. */
  passed(chunk: string): void
}

/** `createDsmlSanitizer`, with the fused repairs' questions (`DsmlSanitizerCore`). */
export function createDsmlSanitizerCore(options: DsmlSanitizerOptions | ResolvedDsmlSanitizerOptions = {}): DsmlSanitizerCore {
  return new LazySanitizer(resolveOptions(options))
}

/**
 * Can this character disturb an idle sanitizer? A text holding none of these
 * passes an idle sanitizer unchanged and leaves it exactly as it was (see
 * `DsmlSanitizer.idle`): a `<`, a bar, or what the fence tracker follows
 * (`wakesFenceTracker`: a line break, and a backtick or a backslash of
 * inline code spans).
 */
export function disturbsIdleSanitizer(code: number): boolean {
  return code === LESS_THAN || isBar(code) || wakesFenceTracker(code)
}

/** A sanitizer whose engine is built on demand (a class: its methods cost nothing per instance). */
class LazySanitizer implements DsmlSanitizerCore {
  #resolved: ResolvedOptions
  #engine: Engine | undefined
  /**
   * The code fences and spans of the text so far, read when the engine is built or `idle` is asked; undefined
   * before any text (an idle stream waiting for its first text holds none).
   */
  #fences: FenceBacklog | undefined
  #acceptance: CallAcceptance | undefined
  #ended = false

  /** Neither a note written nor a diagnostic reported: events go out as the engine gives them. */
  #plain: boolean
  #notes: UnrecoveredNotes | undefined
  /** Where diagnostics go out: the `onDiagnostic` hook and the `meter`'s counters. */
  #reporter: DiagnosticReporter | undefined

  constructor(resolved: ResolvedOptions) {
    this.#resolved = resolved
    this.#notes = resolved.unrecoveredNote && resolved.mode !== 'off' ? new UnrecoveredNotes() : undefined
    this.#reporter = resolved.onDiagnostic === undefined && resolved.counters === undefined ? undefined : new DiagnosticReporter(resolved.onDiagnostic, resolved.counters)
    this.#plain = this.#notes === undefined && this.#reporter === undefined
  }

  feed(chunk: string): SanitizerEvent[] {
    return this.#plain ? this.#feed(chunk) : this.#givenOut(this.#feed(chunk), false)
  }

  end(): SanitizerEvent[] {
    return this.#plain ? this.#end() : this.#givenOut(this.#end(), true)
  }

  endText(): SanitizerEvent[] {
    return this.#plain ? this.#endText() : this.#givenOut(this.#endText(), true)
  }

  flush(): SanitizerEvent[] {
    return this.#plain ? this.#flush() : this.#givenOut(this.#flush(), false)
  }

  /** Events as given out: with the notes of `unrecoveredNote`, and each diagnostic reported (`onDiagnostic`, `meter`). `atEnd`: the text ends. */
  #givenOut(events: SanitizerEvent[], atEnd: boolean): SanitizerEvent[] {
    const out = this.#notes === undefined ? events : this.#notes.read(events, atEnd)
    const reporter = this.#reporter
    if (reporter === undefined) return out
    for (const event of out) {
      if (event.type === 'diagnostic') {
        reporter.removed(event.diagnostic.text.length)
        reporter.report(event.diagnostic)
      } else if (event.type === 'tool-call') {
        reporter.removed(event.source.length)
      }
    }
    return out
  }

  #feed(chunk: string): SanitizerEvent[] {
    if (this.#ended) throw new TypeError('Cannot feed the DSML sanitizer: end() was already called')
    if (typeof chunk !== 'string') throw new TypeError(`Cannot feed the DSML sanitizer: expected a string, got ${typeof chunk}`)
    if (this.#resolved.mode === 'off') return chunk.length > 0 ? [{ type: 'text', text: chunk }] : []
    if (this.#engine !== undefined) return this.#engine.feed(chunk)
    if (chunk.length === 0) return []
    if (this.#passesWithoutEngine(chunk)) {
      this.passed(chunk)
      return [{ type: 'text', text: chunk }]
    }
    return this.#buildEngine().feed(chunk)
  }

  passesAsItIs(chunk: string): boolean {
    // A note waiting for the next text would be written before this one.
    if (this.#ended || this.#resolved.mode === 'off' || chunk.length === 0 || this.#notes?.waiting === true) return false
    return this.#engine === undefined ? this.#passesWithoutEngine(chunk) : this.#engine.passesAsItIs(chunk)
  }

  passed(chunk: string): void {
    if (this.#engine !== undefined) this.#engine.passed(chunk)
    else (this.#fences ??= new FenceBacklog()).add(chunk)
  }

  /** With no engine built yet: a chunk that could hold no markup passes as it is (the engine is built for the first that could). */
  #passesWithoutEngine(chunk: string): boolean {
    return !couldHoldMarkup(chunk, this.#resolved.maxPendingChars)
  }

  /** Builds the engine, on the fences read so far and the calls already accepted. */
  #buildEngine(): Engine {
    const fences = (this.#fences ??= new FenceBacklog())
    return (this.#engine = new Engine(this.#resolved, fences, (this.#acceptance ??= new CallAcceptance(this.#resolved))))
  }

  #end(): SanitizerEvent[] {
    if (this.#ended) throw new TypeError('Cannot end the DSML sanitizer: end() was already called')
    const events = this.#endText()
    this.#ended = true
    return events
  }

  #endText(): SanitizerEvent[] {
    if (this.#ended) throw new TypeError('Cannot end a text of the DSML sanitizer: end() was already called')
    const engine = this.#engine
    // The next text starts as a new sanitizer would: no engine until it could hold markup, no fence or span open.
    this.#fences = undefined
    if (engine === undefined) return []
    const events = this.#resolved.mode === 'off' ? [] : engine.end()
    this.#engine = undefined
    return events
  }

  #flush(): SanitizerEvent[] {
    if (this.#ended) throw new TypeError('Cannot flush the DSML sanitizer: end() was already called')
    return this.#engine === undefined || this.#resolved.mode === 'off' ? [] : this.#engine.flush()
  }

  noteNativeToolCall(call: NativeToolCall): void {
    if (call === null || typeof call !== 'object' || typeof call.name !== 'string') {
      throw new TypeError('Cannot note a native tool call: expected { name: string, arguments }')
    }
    ;(this.#acceptance ??= new CallAcceptance(this.#resolved)).noteNativeToolCall(call)
  }

  get heldChars(): number {
    return this.#engine === undefined ? 0 : this.#engine.heldChars()
  }

  get idle(): boolean {
    if (this.#ended) return false
    // A text not begun is at the start of a line, where any character may begin a block: not quiet.
    return this.#engine === undefined ? (this.#fences?.tracker().quiet ?? false) : this.#engine.idle()
  }

  /**
   * One sanitizer kept for the process (`keepForProcess`), having built its
   * engine and read a tag start, so that a full collection between streams
   * keeps the sanitizer's and the engine's shapes (see `keepForProcess`).
   */
  static {
    const kept = keepForProcess(new LazySanitizer(resolveOptions()))
    kept.#buildEngine()
    // A `<` at the end of one chunk, decided by the next.
    kept.feed('a <')
    kept.feed(' b')
  }
}
