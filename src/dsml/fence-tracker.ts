/**
 * `FenceTracker`: are we inside a Markdown fenced code block? Markup in a fence
 * is documentation: neither run nor removed (DESIGN.md §5.4).
 *
 * The CommonMark rules it follows, read one character at a time:
 * - a fence line is a run of three or more backticks or tildes, indented up to
 *   three spaces from its container's content (top level, a list item's
 *   content column, or after `>` quote markers);
 * - an opening fence may carry an info string (for a backtick fence, one
 *   with no backtick); the fence opens at the end of that line;
 * - it closes at the end of a line that holds only a run of the same
 *   character at least as long (and spaces), or where its container ends: a
 *   line with fewer quote markers, or a non-blank line indented less than
 *   the list item's content;
 * - a run anywhere else in a line (inline code) is not a fence.
 *
 * The sanitizer tracks the text it emits, so removed markup between two
 * pieces of a line joins them exactly as a reader of the output sees them.
 * Every decision waits for the end of the line it depends on, so the answer
 * never depends on where the text was split.
 * @see https://spec.commonmark.org/0.31.2/#fenced-code-blocks
 */
import { isLineBreak, SPACE, TAB } from './grammar.ts'

const BACKTICK = 0x60 // "`"
const TILDE = 0x7e // "~"
const GREATER_THAN = 0x3e // ">", a block quote marker
const ASTERISK = 0x2a
const PLUS = 0x2b
const HYPHEN = 0x2d
const FULL_STOP = 0x2e
const RIGHT_PARENTHESIS = 0x29
const DIGIT_ZERO = 0x30
const DIGIT_NINE = 0x39

/** Deepest list nesting followed; deeper items are read as text. */
const MAX_LIST_DEPTH = 16
/** Indentation beyond a container's content column that still allows a fence. */
const MAX_FENCE_INDENT = 3
/** Digits of an ordered list marker (`123.`). */
const MAX_ORDERED_DIGITS = 9

type Phase =
  /** Reading the line's prefix: indentation, quote markers, list markers. */
  | 'prefix'
  /** Digits of an ordered list marker. */
  | 'ordered-marker'
  /** After a list marker: counting the spaces before the item's content. */
  | 'after-list-marker'
  /** A run of backticks or tildes at the start of the line's content. */
  | 'run'
  /** After an opening run: the info string, up to the end of the line. */
  | 'info'
  /** After a closing run: only spaces may follow. */
  | 'closing-tail'
  /** Nothing else on this line matters. */
  | 'rest'

/** Characters that may begin a line's structure: indentation, quote and list markers, fence runs, line breaks. */
const LINE_STRUCTURE = new Uint8Array(128)
for (const character of ' \t>-+*0123456789`~\n\r') LINE_STRUCTURE[character.charCodeAt(0)] = 1

function startsLineStructure(code: number): boolean {
  return code < 128 && LINE_STRUCTURE[code] === 1
}

/** Texts this short are searched one character at a time; longer ones with `indexOf`, cached (see `#nextLineBreak`). */
const SHORT_TEXT = 256

function lineBreakIn(text: string, start: number, end: number): number {
  for (let index = start; index < end; index++) if (isLineBreak(text.charCodeAt(index))) return index
  return -1
}

function isDigit(code: number): boolean {
  return code >= DIGIT_ZERO && code <= DIGIT_NINE
}

export class FenceTracker {
  #inFence = false
  #fenceCharacter = 0
  #fenceLength = 0
  /** The content column of the list item the fence is in (0 at top level). */
  #fenceColumn = 0
  #fenceQuotes = 0
  /** How many open list items the fence is inside. */
  #fenceLists = 0

  #phase: Phase = 'prefix'
  /** Column in the line, counted from after its last quote marker (tabs to the next multiple of 4). */
  #column = 0
  #quotes = 0
  /** Right after a quote marker, whose one following space belongs to it. */
  #afterQuote = false
  /** Content columns of the open list items, innermost last. */
  #lists: number[] | undefined
  #listsOpen = 0
  /** The list items checked against this line's indentation. */
  #listsChecked = false
  #markerColumn = 0
  #markerDigits = 0
  #spacesAfterMarker = 0
  #runCharacter = 0
  #runLength = 0

  // Ranges of one long text arrive in order (short texts may come between
  // them): remember where its next line feed and carriage return are, so
  // each search runs past any character once.
  #searchedText: string | undefined
  #searchedFrom = 0
  /** Next `\n` and `\r` at or after `#searchedFrom`; -1 when there is none. */
  #nextFeed = -1
  #nextCarriage = -1

  /** Inside a fenced code block, after everything tracked so far. */
  get inFence(): boolean {
    return this.#inFence
  }

  /**
   * Would the character `code`, read next, be inside a fence? Usually the
   * same as `inFence`; but at the start of a line in a fence inside a block
   * quote or a list item, a character that is not the container's prefix
   * ends the container, and the fence with it, before itself.
   */
  inFenceAt(code: number): boolean {
    if (!this.#inFence) return false
    if (this.#phase !== 'prefix' || code === SPACE || code === TAB || isLineBreak(code)) return true
    if (code === GREATER_THAN && this.#quotes < this.#fenceQuotes) return true
    return this.#quotes >= this.#fenceQuotes && this.#column >= this.#fenceColumn
  }

  /**
   * In the middle of a line that can no longer open or close a fence: a text
   * without a line break would leave the tracker exactly as it is.
   */
  get quiet(): boolean {
    return this.#phase === 'rest'
  }

  /** Reads more emitted text: `text`, or its part from `start` to `end`. */
  track(text: string, start = 0, end = text.length): void {
    let index = start
    while (index < end) {
      if (this.#phase !== 'rest') {
        this.#step(text.charCodeAt(index))
        index++
        continue
      }
      // Mid-line: only the next line break matters.
      const next = text.length <= SHORT_TEXT ? lineBreakIn(text, index, end) : this.#nextLineBreak(text, index)
      if (next === -1 || next >= end) return
      this.#endLine()
      index = next + 1
      // A line that starts with an ordinary character, outside a fence, is plain to its end:
      // it opens no fence, and ends every list item and quote it is not indented into.
      if (index < end && !this.#inFence && !startsLineStructure(text.charCodeAt(index))) {
        this.#listsOpen = 0
        this.#phase = 'rest'
      }
    }
  }

  #nextLineBreak(text: string, from: number): number {
    if (text !== this.#searchedText || from < this.#searchedFrom) {
      this.#searchedText = text
      this.#searchedFrom = from
      this.#nextFeed = text.indexOf('\n', from)
      this.#nextCarriage = text.indexOf('\r', from)
    }
    this.#searchedFrom = from
    if (this.#nextFeed !== -1 && this.#nextFeed < from) this.#nextFeed = text.indexOf('\n', from)
    if (this.#nextCarriage !== -1 && this.#nextCarriage < from) this.#nextCarriage = text.indexOf('\r', from)
    const feed = this.#nextFeed
    const carriage = this.#nextCarriage
    return carriage === -1 ? feed : feed === -1 ? carriage : Math.min(feed, carriage)
  }

  #step(code: number): void {
    if (isLineBreak(code)) {
      this.#endLine()
      return
    }
    switch (this.#phase) {
      case 'prefix':
        this.#prefix(code)
        return
      case 'ordered-marker':
        if (isDigit(code) && this.#markerDigits < MAX_ORDERED_DIGITS) {
          this.#markerDigits++
          this.#column++
        } else if (code === FULL_STOP || code === RIGHT_PARENTHESIS) {
          this.#column++
          this.#afterMarker()
        } else {
          this.#phase = 'rest'
        }
        return
      case 'after-list-marker':
        if (code === SPACE || code === TAB) {
          this.#spacesAfterMarker++
          this.#advance(code)
          return
        }
        if (this.#spacesAfterMarker === 0) {
          this.#phase = 'rest' // `-x`, `1.x`: not a list item
          return
        }
        this.#openListItem(this.#spacesAfterMarker > 4 ? this.#markerColumn + 1 : this.#column)
        this.#phase = 'prefix'
        this.#prefix(code)
        return
      case 'run':
        if (code === this.#runCharacter) {
          this.#runLength++
          return
        }
        this.#afterRun(code)
        return
      case 'info':
        if (code === BACKTICK && this.#runCharacter === BACKTICK) this.#phase = 'rest' // not an opening fence
        return
      case 'closing-tail':
        if (code !== SPACE && code !== TAB) this.#phase = 'rest' // a content line after all
        return
      case 'rest':
        return
    }
  }

  #advance(code: number): void {
    this.#column = code === TAB ? this.#column + 4 - (this.#column % 4) : this.#column + 1
  }

  /** The content column of the innermost list item still open at this line (0 at top level). */
  #base(): number {
    return this.#listsOpen === 0 ? 0 : this.#lists![this.#listsOpen - 1]!
  }

  #prefix(code: number): void {
    const afterQuote = this.#afterQuote
    this.#afterQuote = false
    if (code === SPACE || code === TAB) {
      if (!afterQuote) this.#advance(code)
      return
    }
    if (this.#inFence) {
      this.#fencePrefix(code)
      return
    }
    if (code === GREATER_THAN && this.#column - this.#base() <= MAX_FENCE_INDENT) {
      this.#quote()
      return
    }
    if (!this.#listsChecked) {
      // A non-blank line ends the list items it is not indented into.
      while (this.#listsOpen > 0 && this.#lists![this.#listsOpen - 1]! > this.#column) this.#listsOpen--
      this.#listsChecked = true
    }
    const indent = this.#column - this.#base()
    if (indent > MAX_FENCE_INDENT) {
      this.#phase = 'rest'
      return
    }
    if (code === HYPHEN || code === PLUS || code === ASTERISK) {
      this.#markerColumn = this.#column
      this.#column++
      this.#afterMarker()
      return
    }
    if (isDigit(code)) {
      this.#markerColumn = this.#column
      this.#markerDigits = 1
      this.#column++
      this.#phase = 'ordered-marker'
      return
    }
    if (code === BACKTICK || code === TILDE) {
      this.#startRun(code)
      return
    }
    this.#phase = 'rest'
  }

  /** A line inside a fence: its containers' prefix, then a closing run or content. */
  #fencePrefix(code: number): void {
    if (code === GREATER_THAN && this.#quotes < this.#fenceQuotes) {
      this.#quote()
      return
    }
    if (this.#quotes < this.#fenceQuotes || this.#column < this.#fenceColumn) {
      // The fence's container ended on this line: so did the fence.
      this.#inFence = false
      this.#listsOpen = Math.min(this.#listsOpen, this.#fenceLists)
      this.#prefix(code)
      return
    }
    if (code === this.#fenceCharacter && this.#column - this.#fenceColumn <= MAX_FENCE_INDENT) {
      this.#startRun(code)
      return
    }
    this.#phase = 'rest'
  }

  /** A block quote marker: columns count again from after it (and its one optional space). */
  #quote(): void {
    this.#quotes++
    this.#column = 0
    this.#afterQuote = true
  }

  #afterMarker(): void {
    this.#spacesAfterMarker = 0
    this.#phase = 'after-list-marker'
  }

  #openListItem(contentColumn: number): void {
    if (this.#listsOpen >= MAX_LIST_DEPTH) return
    this.#lists ??= []
    this.#lists[this.#listsOpen++] = contentColumn
  }

  #startRun(code: number): void {
    this.#runCharacter = code
    this.#runLength = 1
    this.#phase = 'run'
  }

  #afterRun(code: number): void {
    if (this.#inFence) {
      this.#phase = this.#runLength >= this.#fenceLength && (code === SPACE || code === TAB) ? 'closing-tail' : 'rest'
    } else if (this.#runLength >= 3) {
      this.#phase = code === BACKTICK && this.#runCharacter === BACKTICK ? 'rest' : 'info'
    } else {
      this.#phase = 'rest'
    }
  }

  /** What the line just ended decided, and a fresh line. */
  #endLine(): void {
    switch (this.#phase) {
      case 'run':
        if (this.#inFence) {
          if (this.#runLength >= this.#fenceLength) this.#inFence = false
        } else if (this.#runLength >= 3) {
          this.#open()
        }
        break
      case 'info':
        this.#open()
        break
      case 'closing-tail':
        this.#inFence = false
        break
      case 'after-list-marker':
        // `-` alone on a line: an empty list item; its content column is one past the marker.
        if (!this.#inFence) this.#openListItem(this.#markerColumn + 2)
        break
      default:
        break
    }
    this.#phase = 'prefix'
    this.#column = 0
    this.#quotes = 0
    this.#afterQuote = false
    this.#listsChecked = false
  }

  #open(): void {
    this.#inFence = true
    this.#fenceCharacter = this.#runCharacter
    this.#fenceLength = this.#runLength
    this.#fenceColumn = this.#base()
    this.#fenceQuotes = this.#quotes
    this.#fenceLists = this.#listsOpen
  }
}

/** Can `code` change a quiet tracker? Only a line break can. */
export function wakesFenceTracker(code: number): boolean {
  return isLineBreak(code)
}

export function createFenceTracker(): FenceTracker {
  return new FenceTracker()
}
