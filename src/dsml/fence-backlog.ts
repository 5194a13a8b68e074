/**
 * `FenceBacklog`: a fence tracker that reads the text given to it when it is
 * next asked, not as it arrives. A sanitizer with no engine yet (nothing in
 * its stream could hold markup) asks about fences only when the engine is
 * built, when it is asked whether it is idle, and never at the end of a text;
 * until then its chunks are kept, joined, and read in one pass. The tracker's
 * searches over one long text cost about as much as one over each short chunk
 * (a call each), so a stream fed a few characters at a time pays for fence
 * tracking about once per `FENCE_BACKLOG_CHARS`, not once per chunk (measured
 * in `bench/`: the fed-64 rows).
 */
import { FenceTracker } from './fence-tracker.ts'

/** Text kept unread up to this many characters: past them it is read, so what is kept stays capped. */
export const FENCE_BACKLOG_CHARS = 4096

export class FenceBacklog {
  #tracker = new FenceTracker()
  /** Text given but not read yet, in order (a rope: joined by V8 when the tracker first searches it). */
  #unread = ''

  /**
   * Text emitted after everything given so far (`text`, or its part from
   * `start` to `end`): kept while what waits stays under
   * `FENCE_BACKLOG_CHARS`, else read now (what waits first, then this). A
   * range of a text that long is read at once, in place: its ranges arrive
   * in order, and the tracker's searches in it carry from one to the next,
   * which a copy would start over (and a slice of it kept would keep all of
   * it alive).
   */
  add(text: string, start = 0, end = text.length): void {
    if (text.length < FENCE_BACKLOG_CHARS && this.#unread.length + (end - start) < FENCE_BACKLOG_CHARS) {
      const piece = start === 0 && end === text.length ? text : text.slice(start, end)
      this.#unread = this.#unread.length === 0 ? piece : this.#unread + piece
      return
    }
    this.#readUnread()
    this.#tracker.track(text, start, end)
  }

  /** Characters given and not read yet (fewer than `FENCE_BACKLOG_CHARS`). */
  get unreadChars(): number {
    return this.#unread.length
  }

  /** The tracker, having read everything given to it. */
  tracker(): FenceTracker {
    if (this.#unread.length > 0) this.#readUnread()
    return this.#tracker
  }

  #readUnread(): void {
    const unread = this.#unread
    if (unread.length === 0) return
    this.#unread = ''
    this.#tracker.trackWhole(unread)
  }
}
