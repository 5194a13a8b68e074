/**
 * `FenceBacklog`: a fence tracker that reads the text given to it when it is
 * next asked, not as it arrives. A sanitizer with no engine yet (nothing in
 * its stream could hold markup) asks about fences only when the engine is
 * built, when it is asked whether it is idle, and never at the end of a text;
 * until then its chunks are kept, joined, and read in one pass. An engine
 * asks whether each tag start is in a fence, which is answered without
 * reading while what waits could open none (no fence open or being opened,
 * no backtick or tilde in it). The tracker's searches over one long text cost
 * about as much as one over each short chunk (a call each), so a stream fed
 * a few characters at a time pays for fence tracking about once per
 * `FENCE_BACKLOG_CHARS`, not once per chunk (measured in `bench/`: the fed-64
 * rows).
 */
import { FenceTracker, holdsFenceCharacter } from './fence-tracker.ts'

/** Text kept unread up to this many characters: past them it is read, so what is kept stays capped. */
export const FENCE_BACKLOG_CHARS = 4096

export class FenceBacklog {
  #tracker = new FenceTracker()
  /**
   * Text given but not read yet, in order (ropes: joined by V8 when first
   * searched): `#looked` was looked at for a fence's character and holds
   * none (`inFenceAt`), `#unread` came after it.
   */
  #looked = ''
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
    if (text.length < FENCE_BACKLOG_CHARS && this.unreadChars + (end - start) < FENCE_BACKLOG_CHARS) {
      const piece = start === 0 && end === text.length ? text : text.slice(start, end)
      this.#unread = this.#unread.length === 0 ? piece : this.#unread + piece
      return
    }
    this.#readUnread()
    this.#tracker.track(text, start, end)
  }

  /** Characters given and not read yet (fewer than `FENCE_BACKLOG_CHARS`). */
  get unreadChars(): number {
    return this.#looked.length + this.#unread.length
  }

  /**
   * `tracker().inFenceAt(code)`, answered without reading what waits while
   * it can open no fence: none is open or being opened before it
   * (`FenceTracker.fenceOpenOrOpening`), and it holds no fence character
   * (each piece looked at once).
   */
  inFenceAt(code: number): boolean {
    if (this.#tracker.fenceOpenOrOpening || holdsFenceCharacter(this.#unread)) return this.tracker().inFenceAt(code)
    if (this.#unread.length > 0) {
      this.#looked = this.#looked.length === 0 ? this.#unread : this.#looked + this.#unread
      this.#unread = ''
    }
    return false
  }

  /** The tracker, having read everything given to it. */
  tracker(): FenceTracker {
    if (this.unreadChars > 0) this.#readUnread()
    return this.#tracker
  }

  #readUnread(): void {
    const unread = this.#looked.length === 0 ? this.#unread : this.#looked + this.#unread
    if (unread.length === 0) return
    this.#looked = ''
    this.#unread = ''
    this.#tracker.trackWhole(unread)
  }
}
