/**
 * `FenceBacklog`: a fence tracker that reads the text given to it when it is
 * next asked, not as it arrives. Text a sanitizer emits waits here, joined,
 * and is read in one pass at the first question that needs it (where a tag
 * starts, whether the stream is idle), or once `FENCE_BACKLOG_CHARS`
 * characters or `FENCE_BACKLOG_PIECES` pieces wait. Whether a tag start is in
 * a fence is answered without reading while what waits could open none (no
 * fence open or being opened before it, no backtick or tilde in it). The
 * tracker's searches over one text cost about as much as one over each short
 * chunk (a call each), so a stream fed a few dozen characters at a time pays
 * for fence tracking once per backlog, not once per chunk (measured in
 * `bench/`: the fed-64 rows).
 */
import { FenceTracker, holdsFenceCharacter } from './fence-tracker.ts'

/**
 * Text kept unread up to this many characters: past them it is read, so what
 * is kept stays capped (what an idle stream retains beyond its sanitizer's
 * few hundred bytes; `bench/`, the memory table).
 */
export const FENCE_BACKLOG_CHARS = 1024
/**
 * Pieces kept unread, fewer than this many: each is a node of the rope that
 * waits (and the collector walks every node on each collection), so a stream
 * fed a character at a time keeps a few dozen objects, not thousands.
 */
export const FENCE_BACKLOG_PIECES = 16

export class FenceBacklog {
  #tracker = new FenceTracker()
  /**
   * Text given but not read yet, in order (ropes: joined by V8 when first
   * searched): `#looked` was looked at for a fence's character and holds
   * none (`inFenceAt`), `#unread` came after it.
   */
  #looked = ''
  #unread = ''
  #unreadPieces = 0

  /**
   * Text emitted after everything given so far (`text`, or its part from
   * `start` to `end`): kept while what waits stays under
   * `FENCE_BACKLOG_CHARS` and `FENCE_BACKLOG_PIECES`, else read now (what
   * waits first, then this). A range of a text of `FENCE_BACKLOG_CHARS` or
   * more is read at once, in place: its ranges arrive in order, and the
   * tracker's searches in it carry from one to the next, which a copy would
   * start over (and a slice of it kept would keep all of it alive).
   */
  add(text: string, start = 0, end = text.length): void {
    if (text.length < FENCE_BACKLOG_CHARS && this.unreadChars + (end - start) < FENCE_BACKLOG_CHARS && this.#unreadPieces < FENCE_BACKLOG_PIECES - 1) {
      const piece = start === 0 && end === text.length ? text : text.slice(start, end)
      this.#unread = this.#unread.length === 0 ? piece : this.#unread + piece
      this.#unreadPieces++
      return
    }
    this.#readUnread()
    this.#tracker.track(text, start, end)
  }

  /** Characters given and not read yet (fewer than `FENCE_BACKLOG_CHARS`). */
  get unreadChars(): number {
    return this.#looked.length + this.#unread.length
  }

  /** Pieces given and not read yet (fewer than `FENCE_BACKLOG_PIECES`). */
  get unreadPieces(): number {
    return this.#unreadPieces
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
    this.#unreadPieces = 0
    this.#tracker.trackWhole(unread)
  }
}
