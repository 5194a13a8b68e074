/**
 * The engine behind a sanitizer: the scanner (`scanner.ts`) reads the text,
 * the structure layer (`structure.ts`) gives tags meaning, and `Output`
 * collects the events. Built from resolved options, around a fence tracker
 * and a call acceptance that outlive it (see `sanitizer.ts`).
 */
import { CallAcceptance } from './acceptance.ts'
import { FenceBacklog } from './fence-backlog.ts'
import { SHORT_TEXT } from './markup-starts.ts'
import { plainPieceUntil } from './partial-tags.ts'
import { type ResolvedOptions, resolveOptions } from './options.ts'
import { Output } from './output.ts'
import { Scanner } from './scanner.ts'
import { Structure } from './structure.ts'
import type { SanitizerEvent } from './types.ts'

export class Engine {
  /**
   * One engine that lives as long as the process, having read a tag: while
   * it lives, so do the object shapes V8 built the engine's optimized code
   * on. With no engine alive (a gateway between requests), a full collection
   * drops that code, and the next stream runs two to four times slower until
   * it is optimized again (measured in `bench/`).
   */
  static #keeper: Engine
  static {
    const resolved = resolveOptions()
    Engine.#keeper = new Engine(resolved, new FenceBacklog(), new CallAcceptance(resolved))
    Engine.#keeper.feed('a < b')
  }

  #output: Output
  #structure: Structure
  #scanner: Scanner

  constructor(resolved: ResolvedOptions, fences: FenceBacklog, acceptance: CallAcceptance) {
    this.#output = new Output(fences)
    this.#structure = new Structure(resolved, this.#output, acceptance)
    this.#scanner = new Scanner(this.#structure, this.#output, resolved.maxTagChars, resolved.maxPendingChars, resolved.maxHoldChars)
  }

  feed(chunk: string): SanitizerEvent[] {
    if (chunk.length <= SHORT_TEXT && this.#structure.idle && this.#scanner.idle) {
      // A short chunk, outside markup, nothing held: the part of it nothing could be held in is text as it is, and
      // the scanner reads only the rest (as if the chunk had been split there). Longer chunks are cleared as fast
      // by the scanner's own search.
      const plain = plainPieceUntil(chunk, this.#structure.context())
      if (plain === chunk.length) {
        if (chunk.length === 0) return []
        this.#output.passed(chunk)
        return [{ type: 'text', text: chunk }]
      }
      if (plain > 0) {
        this.#output.emitRange(chunk, 0, plain)
        chunk = chunk.slice(plain)
      }
    }
    this.#scanner.scan(chunk)
    return this.#output.take()
  }

  /** See `DsmlSanitizer.flush`: resolves what is held but a tag start not yet decided. The engine goes on. */
  flush(): SanitizerEvent[] {
    this.#scanner.interrupt()
    this.#structure.endOfInput()
    this.#scanner.regionResolved()
    return this.#output.take()
  }

  /** End of input: resolves everything held. */
  end(): SanitizerEvent[] {
    this.#scanner.end()
    this.#structure.endOfInput()
    this.#output.endOfInput()
    return this.#output.take()
  }

  heldChars(): number {
    return this.#structure.heldChars + this.#scanner.heldChars
  }

  /** See `DsmlSanitizer.idle`. */
  idle(): boolean {
    return this.#structure.idle && this.#scanner.idle && this.#output.fences.quiet
  }
}
