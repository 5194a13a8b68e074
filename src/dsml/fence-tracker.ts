/**
 * `createFenceTracker`: are we inside a Markdown code fence? Markup in a fence
 * is documentation: neither run nor removed (DESIGN.md §5.4).
 *
 * A fence is a run of three or more backticks; it is closed by a run at least
 * as long as the one that opened it. The sanitizer tracks the text it emits, so
 * removed markup between two backtick runs joins them exactly as a reader of
 * the output sees them. A run toggles as soon as it is long enough (3 to open,
 * the opener's length to close), and a run that opened a fence keeps setting
 * the fence's length while it grows — so the answer never depends on where the
 * text was split.
 */

const BACKTICK = 0x60 // "`"

export interface FenceTracker {
  /** Reads more emitted text: `text`, or its part from `start` to `end`. */
  track(text: string, start?: number, end?: number): void
  /** Inside a fence, after everything tracked so far. */
  readonly inFence: boolean
}

export function createFenceTracker(): FenceTracker {
  let inFence = false
  let fenceLength = 0
  let backtickRun = 0
  let runOpenedFence = false

  // Ranges of one long text arrive in order: remember where its next backtick
  // is, so each search runs past any character once (indexOf has no end bound).
  let searchedText: string | undefined
  let searchedFrom = 0
  let searchedNext = -1

  function nextBacktick(text: string, from: number): number {
    if (text !== searchedText || (searchedNext !== -1 && searchedNext < from) || from < searchedFrom) {
      searchedText = text
      searchedFrom = from
      searchedNext = text.indexOf('`', from)
    }
    return searchedNext
  }

  function countBacktick(): void {
    backtickRun++
    if (runOpenedFence) {
      fenceLength = backtickRun
    } else if (!inFence && backtickRun === 3) {
      inFence = true
      runOpenedFence = true
      fenceLength = 3
    } else if (inFence && backtickRun === fenceLength) {
      inFence = false
    }
  }

  return {
    track(text, start = 0, end = text.length) {
      let index = start
      while (true) {
        while (index < end && text.charCodeAt(index) === BACKTICK) {
          countBacktick()
          index++
        }
        if (index >= end) return
        backtickRun = 0
        runOpenedFence = false
        index = nextBacktick(text, index)
        if (index === -1 || index >= end) return
      }
    },
    get inFence() {
      return inFence
    },
  }
}
