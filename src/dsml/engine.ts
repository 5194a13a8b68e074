/**
 * The engine behind a sanitizer: the scanner (`scanner.ts`) reads the text,
 * the structure layer (`structure.ts`) gives tags meaning, and `Output`
 * collects the events. Built from resolved options, around a fence tracker
 * and a call acceptance that outlive it (see `sanitizer.ts`).
 */
import type { CallAcceptance } from './acceptance.ts'
import type { FenceBacklog } from './fence-backlog.ts'
import { SHORT_TEXT, type TagContext } from './markup-starts.ts'
import { LESS_THAN } from './grammar.ts'
import { plainPieceUntil, tagStartAhead } from './partial-tags.ts'
import type { ResolvedOptions } from './options.ts'
import { Output } from './output.ts'
import { Scanner } from './scanner.ts'
import { Structure } from './structure.ts'
import type { SanitizerEvent } from './types.ts'

export class Engine {
  #output: Output
  #structure: Structure
  #scanner: Scanner
  /**
   * A tag start a short chunk ended in, undecided (`tagStartAhead`): a `<`
   * and the few characters after it, no bar, outside markup with nothing
   * held and not in a fence. The scanner has not read it: it is read with
   * the next chunk, as the start of it (or by the scanner, first, when that
   * chunk is long or the text is flushed or ends).
   */
  #tail = ''

  constructor(resolved: ResolvedOptions, fences: FenceBacklog, acceptance: CallAcceptance) {
    this.#output = new Output(fences)
    this.#structure = new Structure(resolved, this.#output, acceptance)
    this.#scanner = new Scanner(this.#structure, this.#output, resolved.maxTagChars, resolved.maxPendingChars, resolved.maxHoldChars)
  }

  feed(chunk: string): SanitizerEvent[] {
    // A short chunk: at most `SHORT_TEXT` characters, and the tag start the last one left (`#tail`) before them.
    const short = chunk.length <= SHORT_TEXT
    if (this.#tail.length > 0 && short) {
      chunk = this.#tail + chunk
      this.#tail = ''
    } else {
      this.#readTail()
    }
    const context = short ? this.#shortChunkContext() : undefined
    if (context !== undefined) {
      // A short chunk, outside markup, nothing held: the part of it nothing could be held in is text as it is, and
      // the scanner reads only the rest (as if the chunk had been split there); a rest that is only a tag start the
      // chunk's end left undecided waits for the next chunk (`#tail`). Longer chunks are cleared as fast by the
      // scanner's own search.
      const plain = plainPieceUntil(chunk, context)
      if (plain === chunk.length) {
        if (chunk.length === 0) return []
        this.#output.passed(chunk)
        return [{ type: 'text', text: chunk }]
      }
      if (plain > 0) this.#output.emitRange(chunk, 0, plain)
      if (chunk.charCodeAt(plain) === LESS_THAN && tagStartAhead(chunk, plain, context) === 'undecided' && !this.#structure.fencedAt(LESS_THAN)) {
        this.#tail = chunk.slice(plain)
        return this.#output.take()
      }
      if (plain > 0) chunk = chunk.slice(plain)
    }
    this.#scanner.scan(chunk)
    return this.#output.take()
  }

  /**
   * The context a short chunk (at most `SHORT_TEXT` characters) read now is
   * read in first, by `plainPieceUntil`: outside markup, with nothing held;
   * undefined when something is held (the scanner reads it all).
   */
  #shortChunkContext(): TagContext | undefined {
    return this.#structure.idle && this.#scanner.idle ? this.#structure.context() : undefined
  }

  /**
   * Would `chunk`, fed now, come out as it is, as one text event, with
   * nothing held before or after it? (See `DsmlSanitizerCore.passesAsItIs`.)
   * Changes nothing.
   */
  passesAsItIs(chunk: string): boolean {
    if (chunk.length === 0 || chunk.length > SHORT_TEXT || this.#tail.length > 0) return false
    const context = this.#shortChunkContext()
    return context !== undefined && plainPieceUntil(chunk, context) === chunk.length
  }

  /** `chunk`, which `passesAsItIs` accepted, went by as it is: read as `feed` reads it, its event not made. */
  passed(chunk: string): void {
    this.#output.passed(chunk)
  }

  /** The tag start the last short chunk ended in, read by the scanner now. */
  #readTail(): void {
    if (this.#tail.length === 0) return
    this.#scanner.scan(this.#tail)
    this.#tail = ''
  }

  /** See `DsmlSanitizer.flush`: resolves what is held but a tag start not yet decided. The engine goes on. */
  flush(): SanitizerEvent[] {
    this.#readTail()
    this.#scanner.interrupt()
    this.#structure.endOfInput()
    this.#scanner.regionResolved()
    return this.#output.take()
  }

  /** End of input: resolves everything held. */
  end(): SanitizerEvent[] {
    this.#readTail()
    this.#scanner.end()
    this.#structure.endOfInput()
    this.#output.endOfInput()
    return this.#output.take()
  }

  heldChars(): number {
    return this.#structure.heldChars + this.#scanner.heldChars + this.#tail.length
  }

  /** See `DsmlSanitizer.idle`. */
  idle(): boolean {
    return this.#tail.length === 0 && this.#structure.idle && this.#scanner.idle && this.#output.fences.quiet
  }
}
