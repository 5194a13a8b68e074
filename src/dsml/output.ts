/**
 * `Output`: the events one `feed` (or `end`, `flush`) produces, and what the
 * text emitted so far says about the text to come — whether it sits in a code
 * fence (`FenceTracker`), and whether markup was removed just before it.
 *
 * Prose comes out as slices of the input: consecutive ranges of one input are
 * kept as one range and sliced once, so a long text is a few slices, not many
 * small pieces the collector would have to walk.
 */
import type { FenceBacklog } from './fence-backlog.ts'
import type { FenceTracker } from './fence-tracker.ts'
import { isWhitespace } from './grammar.ts'
import type { Tag } from './tag.ts'
import type { Diagnostic, DiagnosticKind, SanitizerEvent } from './types.ts'

/** Most pieces one text event takes: past it, a long text is several adjacent text events. */
const TEXT_BATCH = 256
/** Characters per diagnostic of the text removed after a runaway stopped the engine. */
const STOPPED_PIECE = 4096

export class Output {
  /**
   * Markup was removed and nothing but whitespace was emitted since: a
   * markerless closer here is the tail of that markup (PATTERNS.md §5).
   */
  #afterRemoval = false
  #fences: FenceBacklog
  #events: SanitizerEvent[] = []
  /** Pieces appended to the last text event. */
  #textPieces = 0
  /** Emitted text not yet sliced: `#rangeInput.slice(#rangeStart, #rangeEnd)`. */
  #rangeInput: string | undefined
  #rangeStart = 0
  #rangeEnd = 0
  /** How much of that range the fence tracker (and the after-removal check) has read. */
  #rangeNoted = 0
  /** The engine stopped (a runaway): everything it would give out from now on is removed. */
  #stopped = false
  /** Removed since the stop and not reported yet: reported `STOPPED_PIECE` characters at a time, counted from the stop. */
  #stoppedText = ''

  constructor(fences: FenceBacklog) {
    this.#fences = fences
  }

  /** The fence tracker, up to date with everything emitted. */
  get fences(): FenceTracker {
    this.#noteRange()
    return this.#fences.tracker()
  }

  /** Would a tag starting here with `code` be in a code fence? (`FenceBacklog.inFenceAt`: the tracker read only when it must be.) */
  inFenceAt(code: number): boolean {
    this.#noteRange()
    return this.#fences.inFenceAt(code)
  }

  /** Text the engine gave out as it is, past these events (a chunk with nothing to read: `Engine.feed`). */
  passed(text: string): void {
    this.#noteRange()
    this.#fences.add(text)
  }

  /** Was markup removed with nothing but whitespace emitted since? (Notes the emitted range first.) */
  isAfterRemoval(): boolean {
    if (this.#afterRemoval) this.#noteRange()
    return this.#afterRemoval
  }

  /** Markup was removed here without a diagnostic of its own (a call was made of it, or a region ended). */
  noteRemoval(): void {
    this.#noteRange()
    this.#afterRemoval = true
  }

  /**
   * The engine stops here (the runaway guard): from now on, text and calls
   * are removed, reported as `runaway-markup` with the text they held.
   */
  stop(): void {
    this.#flushRange()
    this.#stopped = true
  }

  get stopped(): boolean {
    return this.#stopped
  }

  /** The events since the last call, in order. */
  take(): SanitizerEvent[] {
    this.#flushRange()
    const events = this.#events
    this.#events = []
    this.#textPieces = 0
    return events
  }

  /**
   * Emits `input.slice(start, end)` as text. Consecutive ranges of one input
   * are kept as one range, noted by the fence tracker and sliced only when
   * needed.
   */
  emitRange(input: string, start: number, end: number): void {
    if (end <= start) return
    if (this.#rangeInput === input && this.#rangeEnd === start) {
      this.#rangeEnd = end
      return
    }
    this.#flushRange()
    this.#rangeInput = input
    this.#rangeStart = start
    this.#rangeEnd = end
    this.#rangeNoted = start
  }

  emitText(text: string): void {
    if (text.length === 0) return
    this.#flushRange()
    this.#note(text, 0, text.length)
    this.#append(text)
  }

  /** Emits a tag that turned out to be text (`text`: the tag's, perhaps after pending partial tags). */
  emitTag(tag: Tag, text: string): void {
    if (tag.input !== undefined && text.length === tag.length) this.emitRange(tag.input, tag.inputStart, tag.inputStart + tag.length)
    else this.emitText(text)
  }

  push(event: SanitizerEvent): void {
    this.#flushRange()
    if (this.#stopped) {
      // Whatever the engine reads after the stop is removed, and reported only as the text it was.
      if (event.type === 'tool-call') this.#removeStopped(event.source)
      else if (event.type === 'text') this.#removeStopped(event.text)
      else if (event.type === 'diagnostic') this.#removeStopped(event.diagnostic.text)
      return
    }
    this.#events.push(event)
  }

  /** Reports a diagnostic; `text` is the exact input it removed (empty when it removed nothing). */
  diagnose(kind: DiagnosticKind, text: string, message: string, tool?: string): void {
    const diagnostic: Diagnostic = tool === undefined ? { kind, text, message } : { kind, text, tool, message }
    this.push({ type: 'diagnostic', diagnostic })
    if (text.length > 0) this.#afterRemoval = true
  }

  /** What the emitted text says about what follows: its fences, and the end of an after-removal stretch. */
  #note(text: string, start: number, end: number): void {
    this.#fences.add(text, start, end)
    if (this.#afterRemoval) {
      for (let index = start; index < end; index++) {
        if (!isWhitespace(text.charCodeAt(index))) {
          this.#afterRemoval = false
          break
        }
      }
    }
  }

  /** Notes the part of the pending range not noted yet. */
  #noteRange(): void {
    const input = this.#rangeInput
    if (input === undefined || this.#rangeNoted === this.#rangeEnd) return
    this.#note(input, this.#rangeNoted, this.#rangeEnd)
    this.#rangeNoted = this.#rangeEnd
  }

  #flushRange(): void {
    const input = this.#rangeInput
    if (input === undefined) return
    this.#noteRange()
    this.#rangeInput = undefined
    this.#append(input.slice(this.#rangeStart, this.#rangeEnd))
  }

  /**
   * Text given out after the stop: removed, reported as `runaway-markup`
   * diagnostics of `STOPPED_PIECE` characters counted from the stop, so they
   * are the same however the input was cut (the last, shorter one at the end).
   */
  #removeStopped(text: string): void {
    let held = this.#stoppedText + text
    while (held.length >= STOPPED_PIECE) {
      this.#reportStopped(held.slice(0, STOPPED_PIECE))
      held = held.slice(STOPPED_PIECE)
    }
    this.#stoppedText = held
  }

  #reportStopped(text: string): void {
    this.#events.push({ type: 'diagnostic', diagnostic: { kind: 'runaway-markup', text, message: 'Text after a runaway removed: the engine stopped' } })
  }

  /** The end of input: what was removed since the stop and not reported yet is. */
  endOfInput(): void {
    if (this.#stoppedText.length === 0) return
    this.#reportStopped(this.#stoppedText)
    this.#stoppedText = ''
  }

  #append(text: string): void {
    if (this.#stopped) {
      this.#removeStopped(text)
      return
    }
    // Appending with `+=` shares the pieces instead of copying them; but one
    // rope of many thousand tiny pieces is what the collector then walks and
    // copies over and over. So a text event takes at most TEXT_BATCH pieces.
    const events = this.#events
    const last = events[events.length - 1]
    if (last?.type === 'text' && this.#textPieces < TEXT_BATCH) {
      last.text += text
      this.#textPieces++
    } else {
      events.push({ type: 'text', text })
      this.#textPieces = 1
    }
  }
}
