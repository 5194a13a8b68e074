/**
 * `FenceTracker`: are we inside a Markdown fenced code block? Markup in a fence
 * is documentation: neither run nor removed (the policy, docs/accepts-and-policy.md).
 *
 * A fence lives inside containers, so the tracker follows CommonMark's block
 * structure, one line at a time and one character at a time:
 * - containers: block quotes (`>`) and list items (bullet `-` `+` `*`, or
 *   ordered `1.` `1)`), each line continuing them by its prefix, a blank line
 *   ending quotes and empty items, a paragraph line continuing them lazily;
 * - leaves: paragraphs (which some starts cannot interrupt: an empty item,
 *   an ordered item not numbered 1), fenced code, and the leaves that only
 *   end a paragraph (indented code, ATX and setext headings, thematic breaks);
 * - a fence is a run of three or more backticks or tildes indented up to three
 *   columns in its container, with an info string (no backtick in a backtick
 *   fence's); it opens at the end of its line, and closes at the end of a line
 *   holding only a run of its character at least as long, or where its
 *   container ends.
 * HTML blocks are not followed (a fence line after an HTML line opens a fence),
 * nor containers nested deeper than MAX_DEPTH (deeper starts are paragraph
 * text). Tabs advance to the next multiple of four columns.
 *
 * Inside the inline text of paragraphs and headings it follows backtick runs
 * (`CodeSpans`, `code-spans.ts`): whether a place may be in a code span, and,
 * from a clone watching ahead, whether it is (`CodeSpanGate`).
 *
 * The sanitizer tracks the text it emits, so removed markup between two
 * pieces of a line joins them exactly as a reader of the output sees them.
 * Every decision is made on the character it depends on, or at the end of
 * its line, so the answer never depends on where the text was split.
 * @see https://spec.commonmark.org/0.31.2/#container-blocks-and-leaf-blocks
 */
import { BACKSLASH, BACKTICK, CodeSpans, type CodeSpanSettlement } from './code-spans.ts'
import { CARRIAGE_RETURN, GREATER_THAN, isLineBreak, LINE_FEED, SPACE, TAB } from './grammar.ts'
import { Positions, SHORT_SEARCH } from './positions.ts'

const TILDE = 0x7e // "~"
const NUMBER_SIGN = 0x23 // "#", an ATX heading
const ASTERISK = 0x2a
const PLUS = 0x2b
const HYPHEN = 0x2d
const UNDERSCORE = 0x5f
const EQUALS = 0x3d
const FULL_STOP = 0x2e
const RIGHT_PARENTHESIS = 0x29
const DIGIT_ZERO = 0x30
const DIGIT_NINE = 0x39

/** Deepest container nesting followed; deeper starts are read as paragraph text. */
const MAX_DEPTH = 16
/** Indentation (columns) beyond which a line is indented code, not a block start. */
const MAX_BLOCK_INDENT = 3
/** Spaces after a list marker beyond which the item's content is indented code. */
const MAX_ITEM_PADDING = 4
/** Digits of an ordered list marker (`123.`). */
const MAX_ORDERED_DIGITS = 9
/** Number signs of an ATX heading. */
const MAX_HEADING_LEVEL = 6
/** A container that is a block quote; a list item is its content indent (≥ 2). */
const QUOTE = -1


type Phase =
  /** Matching the open containers' prefixes: indentation, `>`. */
  | 'continue'
  /** Past them: indentation before a block start or content. */
  | 'starts'
  /** Digits of an ordered list marker. */
  | 'ordered'
  /** After a list marker: the spaces before the item's content. */
  | 'after-marker'
  /** The number signs of an ATX heading. */
  | 'hashes'
  /** Backticks or tildes that may open a fence. */
  | 'opening-run'
  /** The opening fence's info string, to the end of the line. */
  | 'info'
  /** A line inside the fence, past its containers: indentation. */
  | 'fence-line'
  /** A run that may close the fence. */
  | 'closing-run'
  /** After a closing run: only spaces may follow. */
  | 'closing-tail'
  /** The rest of the line is content: nothing on it matters but its kind. */
  | 'content'

/** What a content line is, applied at its end. Paragraphs and headings hold inline text (code spans). */
type LineKind = 'paragraph' | 'heading' | 'fence-content' | 'leaf'

/** What the innermost open leaf is. */
type Tip = 'none' | 'paragraph' | 'fence'

function isDigit(code: number): boolean {
  return code >= DIGIT_ZERO && code <= DIGIT_NINE
}

function isIndent(code: number): boolean {
  return code === SPACE || code === TAB
}

/** Characters whose runs may make a thematic break or a setext underline. */
function isBreakCharacter(code: number): boolean {
  return code === HYPHEN || code === ASTERISK || code === UNDERSCORE || code === EQUALS
}

function lineBreakIn(text: string, start: number, end: number): number {
  for (let index = start; index < end; index++) if (isLineBreak(text.charCodeAt(index))) return index
  return -1
}

export class FenceTracker {
  // ── the document ──────────────────────────────────────────────────────
  /** Open containers, outermost first: QUOTE, or a list item's content indent. */
  #containers: number[] | undefined
  #depth = 0
  /** The innermost container is a list item with nothing in it yet. */
  #innermostEmpty = false
  #tip: Tip = 'none'
  #fenceCharacter = 0
  #fenceLength = 0

  // ── the line ──────────────────────────────────────────────────────────
  #phase: Phase = 'starts'
  #lineKind: LineKind = 'paragraph'
  /** Column in the line (tabs to the next multiple of 4). */
  #column = 0
  /** The column indentation is counted from: after the containers matched so far. */
  #indentStart = 0
  /** Containers this line has continued (and opened). */
  #matched = 0
  /** Right after a `>`, whose one following space or tab column belongs to it. */
  #afterQuote = false
  #afterCarriageReturn = false
  #runCharacter = 0
  #runLength = 0
  #markerIndentStart = 0
  #markerEnd = 0
  #ordered = false
  /** The ordered marker's number, up to 10 (all that matters is whether it is 1). */
  #orderedNumber = 0
  /** A thematic break or setext underline being read: its character, or 0. */
  #breakCharacter = 0
  #breakCount = 0
  #breakSpaceSeen = false
  #breakSpaced = false
  /** Containers kept if the line is a break. */
  #breakBase = 0
  #setextAllowed = false
  /** Backslashes right before the next character of a backtick fence's info string. */
  #infoBackslashes = 0
  /** Characters of that info string read so far. */
  #infoLength = 0
  /** A watched span's closing run ended this many characters before the last one read (`takeCodeSpanClose`). */
  #spanCloseBack = 0
  /** Backtick runs in the current paragraph's inline text. */
  #spans = new CodeSpans()
  /** The run at this line's start, not yet in the code spans, was made literal (`clearCodeSpans`). */
  #literalOpening = false

  /**
   * A clone reading ahead for a code-span gate (`clone`): it reads a
   * character at a time, so it reads no further than the gate holds (the
   * next line break of a long input may be far, and each gate searching to
   * it would read the input again and again).
   */
  #watching = false
  /**
   * Where the next characters that can wake a quiet tracker are in the texts
   * read (`WAKING_CHARACTERS`, the line breaks first; ranges of one long text
   * arrive in order): one search for each, whether a quiet stretch or a line's
   * end is asked for.
   */
  #wakes: Positions | undefined

  /** Inside a fenced code block, after everything tracked so far. */
  get inFence(): boolean {
    return this.#tip === 'fence'
  }

  /**
   * Would the character `code`, read next, be inside a fence? Usually the
   * same as `inFence`; but at the start of a line in a fence inside a block
   * quote or a list item, a character that does not continue the container
   * ends it, and the fence with it, before itself.
   */
  inFenceAt(code: number): boolean {
    if (this.#tip !== 'fence') return false
    if (this.#phase !== 'continue' || isIndent(code) || isLineBreak(code)) return true
    return this.#continuesQuote(code)
  }

  /**
   * A fence is open, or being opened on the current line (its opening run or
   * info string read so far). When not, reading on opens none unless the
   * text holds a fence's character (`holdsFenceCharacter`).
   */
  get fenceOpenOrOpening(): boolean {
    return this.#tip === 'fence' || this.#phase === 'opening-run' || this.#phase === 'info'
  }

  /** Nothing but container prefixes and indentation on the current line so far: a tag here starts its own line. */
  get atLineStart(): boolean {
    return this.#phase === 'continue' || this.#phase === 'starts' || this.#phase === 'after-marker'
  }

  /**
   * Could the character `code`, read next, be in a code span? Only where a
   * backtick run of this paragraph's inline text is unmatched so far (a run
   * being read ends at `code`): then it is in one exactly when a run closes
   * one of them before the paragraph ends, which a clone watching ahead
   * tells (`watchCodeSpan`). `code` is a character that starts no block
   * (the first of a tag), so at the start of a line the paragraph goes on —
   * but after a list item's marker a new paragraph may begin (`- <tag`): then
   * this says "may be open", and the watch settles at once.
   */
  codeSpanOpenAt(code: number): boolean {
    const run = this.#inlineRunAt(code)
    if (run < 0) return false
    return this.#freshParagraph() ? run > 0 : this.#spans.openAfter(run)
  }

  /** The lengths of the backtick runs unmatched where `code` would be read (see `codeSpanOpenAt`), in order. */
  codeSpanLengthsAt(code: number): number[] {
    const run = this.#inlineRunAt(code)
    if (run < 0) return []
    if (this.#freshParagraph()) return run > 0 ? [run] : []
    return this.#spans.unmatchedAfter(run)
  }

  /**
   * Is `code`, read next, inline text where a code span may be open? -1 if
   * not; else the backticks at the line's start that are not in the code
   * spans yet (0: none, or made literal). `code` is a character that starts
   * no block (the first of a tag), so at the start of a line a paragraph goes on.
   */
  #inlineRunAt(code: number): number {
    if (code === BACKTICK || isLineBreak(code)) return -1
    switch (this.#phase) {
      case 'content':
        return this.#inline() ? 0 : -1
      case 'opening-run':
      case 'info':
        // `` `<tag `` at a line's start: the run is the line's first inline text; so is ```` ```x<tag ```` if a backtick follows.
        if (!this.#runAhead()) return -1
        return this.#literalOpening ? 0 : this.#runLength
      case 'continue':
      case 'starts':
      case 'after-marker':
      case 'hashes':
      case 'ordered':
        return 0
      default:
        return -1
    }
  }

  /** At a line's start, before its content: does the content begin a new paragraph (the code spans there start afresh)? */
  #freshParagraph(): boolean {
    return this.#phase !== 'content' && this.#tip !== 'paragraph'
  }

  /**
   * The backtick runs unmatched so far are literal backticks (a code-span
   * gate found no closer for them before the paragraph ends); runs after
   * them open and close spans as usual.
   */
  clearCodeSpans(): void {
    this.#spans.clearUnmatched()
    if (this.#runAhead()) this.#literalOpening = true
  }

  /**
   * A backtick run at the line's start that is not in the code spans yet: it
   * may be inline text (`` `x ``; or, three or more, with a backtick later in
   * its info, ```` ```x` ````). Asked before the character after the run.
   */
  #runAhead(): boolean {
    return this.#runCharacter === BACKTICK && (this.#phase === 'opening-run' || this.#phase === 'info')
  }

  /**
   * Watches from here (a clone): the place is in a code span once a run
   * closes one unmatched there (`takeCodeSpanClose`; reading stops after each
   * such run), until where the span ends is settled (`codeSpanSettlement`);
   * it is in none if the paragraph ends first.
   */
  watchCodeSpan(): void {
    this.#spans.watch(this.#runAhead())
  }

  /**
   * Did a run closing the watched place's span end with the last character
   * read? How many characters before that one it ended (0: right before it;
   * more for a line's opening run, known to be inline text only at a backtick
   * in what would be a fence's info), or -1. Asked once: it is cleared.
   */
  takeCodeSpanClose(): number {
    if (!this.#spans.spanClosed) return -1
    this.#spans.spanClosed = false
    const back = this.#spanCloseBack
    this.#spanCloseBack = 0
    return back
  }

  /** Whether, and by what, where the watched place's span ends is known (or that it is in none). */
  get codeSpanSettlement(): CodeSpanSettlement {
    return this.#spans.settlement
  }

  /** Backtick runs of inline text read since the watched place, until it settled. */
  get watchedRuns(): number {
    return this.#spans.watchedRuns
  }

  /** The text ends (a clone watching): a run being read ends, and the paragraph with it. */
  endOfText(): void {
    this.#endLine()
    this.#spans.reset()
  }

  /**
   * In the middle of a content line: a text without a line break (nor, in
   * inline text, a backtick or a backslash) would leave the tracker exactly as it is.
   */
  get quiet(): boolean {
    return this.#phase === 'content' && this.#breakCharacter === 0 && ((this.#lineKind !== 'paragraph' && this.#lineKind !== 'heading') || this.#spans.quiet)
  }

  /** The current line's content is inline text (a paragraph's or a heading's). */
  #inline(): boolean {
    return this.#lineKind === 'paragraph' || this.#lineKind === 'heading'
  }

  /**
   * Reads a whole text no part of which is read again (a backlog's joined
   * chunks, `fence-backlog.ts`), and forgets the searches made in it: the
   * next such text, likely as long, would otherwise be compared with it
   * character by character to be told apart, on each search.
   */
  trackWhole(text: string): void {
    this.track(text)
    this.#wakes?.forget(text)
    this.#spans.forgetText(text)
  }

  /**
   * Reads more emitted text: `text`, or its part from `start` to `end`.
   * Returns `end`, or (a clone watching a code span) right after the
   * character that ended a run closing the span (`takeCodeSpanClose`), or
   * that ended the paragraph.
   */
  track(text: string, start = 0, end = text.length): number {
    let index = start
    if (this.quiet) {
      // Mid-line: nothing changes before a line break, or in inline text a backtick or a backslash. Where they are is
      // searched (in a long text, once: ranges of one input arrive in order); a watching clone reads no further than `end`.
      if (this.#watching || text.length <= SHORT_SEARCH) {
        while (index < end && !wakesFenceTracker(text.charCodeAt(index))) index++
      } else {
        // A backslash matters only by the character after it (a backtick it may escape), so it is not searched for:
        // reading goes on from the run of backslashes before the stop, if there is one (or before `end`).
        index = Math.min(end, (this.#wakes ??= new Positions(WAKING_CHARACTERS)).first(text, index, LINE_BREAKS_AND_BACKTICKS))
        while (index > start && text.charCodeAt(index - 1) === BACKSLASH) index--
      }
      if (index >= end) return end
    }
    return this.#trackFrom(text, index, end)
  }

  #trackFrom(text: string, start: number, end: number): number {
    let index = start
    while (index < end) {
      // A watching clone reads a character at a time: only as far as its gate holds, never searching ahead.
      if (this.#watching || this.#phase !== 'content' || this.#breakCharacter !== 0) {
        this.#step(text.charCodeAt(index))
        index++
      } else {
        // Mid-line: only the next line break matters, and in inline text its backtick runs.
        const inline = this.#inline()
        const next = this.#nextLineBreak(text, index, end)
        const lineEnd = next === -1 || next >= end ? end : next
        if (inline) this.#spans.scan(text, index, lineEnd)
        if (lineEnd === end) return end
        this.#step(text.charCodeAt(lineEnd))
        index = lineEnd + 1
      }
      if (this.#spans.spanClosed || this.#spans.settlement !== 'open') return index
    }
    return end
  }

  /** A copy reading on from here, its own (a code-span watch reads ahead on it). */
  clone(): FenceTracker {
    const copy = new FenceTracker()
    copy.#containers = this.#containers === undefined ? undefined : [...this.#containers]
    copy.#depth = this.#depth
    copy.#innermostEmpty = this.#innermostEmpty
    copy.#tip = this.#tip
    copy.#fenceCharacter = this.#fenceCharacter
    copy.#fenceLength = this.#fenceLength
    copy.#phase = this.#phase
    copy.#lineKind = this.#lineKind
    copy.#column = this.#column
    copy.#indentStart = this.#indentStart
    copy.#matched = this.#matched
    copy.#afterQuote = this.#afterQuote
    copy.#afterCarriageReturn = this.#afterCarriageReturn
    copy.#runCharacter = this.#runCharacter
    copy.#runLength = this.#runLength
    copy.#markerIndentStart = this.#markerIndentStart
    copy.#markerEnd = this.#markerEnd
    copy.#ordered = this.#ordered
    copy.#orderedNumber = this.#orderedNumber
    copy.#breakCharacter = this.#breakCharacter
    copy.#breakCount = this.#breakCount
    copy.#breakSpaceSeen = this.#breakSpaceSeen
    copy.#breakSpaced = this.#breakSpaced
    copy.#breakBase = this.#breakBase
    copy.#setextAllowed = this.#setextAllowed
    copy.#infoBackslashes = this.#infoBackslashes
    copy.#infoLength = this.#infoLength
    copy.#spans = this.#spans.clone()
    copy.#watching = true
    copy.#literalOpening = this.#literalOpening
    return copy
  }

  /** The next line break at or after `from` (or -1; in a short text, only up to `end`). */
  #nextLineBreak(text: string, from: number, end: number): number {
    if (text.length <= SHORT_SEARCH) return lineBreakIn(text, from, end)
    const at = (this.#wakes ??= new Positions(WAKING_CHARACTERS)).first(text, from, LINE_BREAKS)
    return at === text.length ? -1 : at
  }

  #step(code: number): void {
    if (isLineBreak(code)) {
      // `\r\n` ends one line.
      if (!(code === LINE_FEED && this.#afterCarriageReturn)) this.#endLine()
      this.#afterCarriageReturn = code === CARRIAGE_RETURN
      return
    }
    this.#afterCarriageReturn = false
    if (this.#breakCharacter !== 0) this.#trackBreak(code)
    switch (this.#phase) {
      case 'continue':
        this.#continue(code)
        return
      case 'starts':
        this.#blockStart(code)
        return
      case 'ordered':
        this.#orderedDigit(code)
        return
      case 'after-marker':
        this.#afterMarker(code)
        return
      case 'hashes':
        if (code === NUMBER_SIGN && this.#runLength < MAX_HEADING_LEVEL) this.#runLength++
        else this.#setContent(isIndent(code) ? 'heading' : 'paragraph', code)
        return
      case 'opening-run':
        if (code === this.#runCharacter) this.#runLength++
        else if (this.#runLength < 3) this.#setContent('paragraph', code, this.#runCharacter === BACKTICK ? this.#runLength : 0)
        else this.#info(code)
        return
      case 'info':
        this.#info(code)
        return
      case 'fence-line':
        this.#fenceLine(code)
        return
      case 'closing-run':
        if (code === this.#fenceCharacter) this.#runLength++
        else if (isIndent(code) && this.#runLength >= this.#fenceLength) this.#phase = 'closing-tail'
        else this.#setContent('fence-content', code)
        return
      case 'closing-tail':
        if (!isIndent(code)) this.#setContent('fence-content', code)
        return
      case 'content':
        // Only while a break line is followed: the rest of the line is read by `track`.
        if (this.#inline()) this.#spans.step(code)
        return
      default:
        this.#phase satisfies never
    }
  }

  // ── the line's prefix ─────────────────────────────────────────────────

  /** Indentation: columns, and the one after a `>` that belongs to the quote. */
  #indent(code: number): void {
    if (this.#afterQuote) {
      this.#afterQuote = false
      this.#indentStart = this.#column + 1
    }
    this.#column = code === TAB ? this.#column + 4 - (this.#column % 4) : this.#column + 1
  }

  #continuesQuote(code: number): boolean {
    return code === GREATER_THAN && this.#containers![this.#matched] === QUOTE && this.#column - this.#indentStart <= MAX_BLOCK_INDENT
  }

  #continue(code: number): void {
    if (isIndent(code)) {
      this.#indent(code)
      this.#matchItems()
      return
    }
    this.#afterQuote = false
    if (this.#continuesQuote(code)) {
      this.#matched++
      this.#quoteMarker()
      this.#matchItems()
      return
    }
    // This character does not continue the next container: the line is a
    // block start or content in the last one it continued.
    if (this.#tip === 'fence') this.#tip = 'none'
    this.#phase = 'starts'
    this.#blockStart(code)
  }

  /** List items the indentation reaches; past every container, the line's own phase. */
  #matchItems(): void {
    while (this.#matched < this.#depth) {
      const indent = this.#containers![this.#matched]!
      if (indent === QUOTE || this.#column - this.#indentStart < indent) return
      this.#indentStart += indent
      this.#matched++
    }
    this.#phase = this.#tip === 'fence' ? 'fence-line' : 'starts'
  }

  #quoteMarker(): void {
    this.#column++
    this.#indentStart = this.#column
    this.#afterQuote = true
  }

  // ── block starts ──────────────────────────────────────────────────────

  #blockStart(code: number): void {
    if (isIndent(code)) {
      this.#indent(code)
      return
    }
    this.#afterQuote = false
    if (this.#column - this.#indentStart > MAX_BLOCK_INDENT) {
      // Indented code; a paragraph it would follow goes on instead.
      this.#setContent(this.#tip === 'paragraph' ? 'paragraph' : 'leaf', code)
      return
    }
    if (this.#breakCharacter === 0 && isBreakCharacter(code)) this.#startBreak(code)
    if (code === GREATER_THAN) {
      if (!this.#open(QUOTE)) return this.#setContent('paragraph', code)
      this.#quoteMarker()
    } else if (code === NUMBER_SIGN) {
      this.#runLength = 1
      this.#phase = 'hashes'
    } else if (isFenceCharacter(code)) {
      this.#runCharacter = code
      this.#runLength = 1
      this.#phase = 'opening-run'
    } else if (code === HYPHEN || code === PLUS || code === ASTERISK) {
      this.#listMarker(false)
    } else if (isDigit(code)) {
      this.#orderedNumber = code - DIGIT_ZERO
      this.#runLength = 1
      this.#listMarker(true)
    } else {
      this.#setContent('paragraph', code)
    }
  }

  #listMarker(ordered: boolean): void {
    this.#ordered = ordered
    this.#markerIndentStart = this.#indentStart
    this.#column++
    this.#markerEnd = this.#column
    this.#phase = ordered ? 'ordered' : 'after-marker'
  }

  #orderedDigit(code: number): void {
    if (isDigit(code) && this.#runLength < MAX_ORDERED_DIGITS) {
      this.#runLength++
      this.#orderedNumber = Math.min(this.#orderedNumber * 10 + code - DIGIT_ZERO, 10)
      this.#column++
    } else if (code === FULL_STOP || code === RIGHT_PARENTHESIS) {
      this.#column++
      this.#markerEnd = this.#column
      this.#phase = 'after-marker'
    } else {
      this.#setContent('paragraph', code)
    }
  }

  #afterMarker(code: number): void {
    if (isIndent(code)) {
      this.#indent(code)
      return
    }
    const padding = this.#column - this.#markerEnd
    // `-x`, `1.x`: no item; nor an ordered item not numbered 1 where a paragraph goes on.
    if (padding === 0 || (this.#ordered && this.#orderedNumber !== 1 && this.#continuesParagraph())) return this.#setContent('paragraph', code)
    const contentStart = padding > MAX_ITEM_PADDING ? this.#markerEnd + 1 : this.#column
    if (!this.#open(contentStart - this.#markerIndentStart)) return this.#setContent('paragraph', code)
    this.#indentStart = contentStart
    this.#phase = 'starts'
    this.#blockStart(code)
  }

  #info(code: number): void {
    if (this.#phase !== 'info') {
      this.#infoBackslashes = 0
      this.#infoLength = 0
    }
    this.#phase = 'info'
    if (code === BACKTICK && this.#runCharacter === BACKTICK) {
      // No fence: inline text, the opening run a backtick run of its own, then the info text (`` ```a` ``).
      this.#setContent('paragraph', code, this.#runLength, this.#infoBackslashes, true)
      // A watched span's closing run, if any, was the opening run, which ended before the info.
      if (this.#spans.spanClosed) this.#spanCloseBack = this.#infoLength
      return
    }
    this.#infoBackslashes = code === BACKSLASH ? this.#infoBackslashes + 1 : 0
    this.#infoLength++
  }

  #fenceLine(code: number): void {
    if (isIndent(code)) {
      this.#indent(code)
      return
    }
    this.#afterQuote = false
    if (code === this.#fenceCharacter && this.#column - this.#indentStart <= MAX_BLOCK_INDENT) {
      this.#runLength = 1
      this.#phase = 'closing-run'
    } else {
      this.#setContent('fence-content', code)
    }
  }

  /** A new paragraph (or heading, or leaf) begins: its code spans afresh. */
  #newInlineText(paragraph: boolean): void {
    if (paragraph) this.#spans.startParagraph()
    else this.#spans.reset()
  }

  /**
   * The line's content begins with `code`. Inline text (a paragraph's, a
   * heading's) goes to the code spans: after `leadingRun` backticks read
   * before it (a run at the line's start; `textAfterRun`: then other text),
   * and `backslashes` right before `code`. A new paragraph, a heading or any other leaf starts them afresh.
   */
  #setContent(kind: LineKind, code: number, leadingRun = 0, backslashes = 0, textAfterRun = false): void {
    this.#lineKind = kind
    this.#phase = 'content'
    if (kind !== 'paragraph' || this.#tip !== 'paragraph') this.#newInlineText(kind === 'paragraph')
    if (!this.#inline()) return
    this.#spans.run(leadingRun, this.#literalOpening)
    this.#literalOpening = false
    if (textAfterRun) this.#spans.other()
    for (let count = 0; count < backslashes; count++) this.#spans.step(BACKSLASH)
    this.#spans.step(code)
  }

  // ── thematic breaks and setext underlines ─────────────────────────────

  #startBreak(code: number): void {
    this.#breakCharacter = code
    this.#breakCount = 1
    this.#breakSpaceSeen = false
    this.#breakSpaced = false
    this.#breakBase = this.#matched
    this.#setextAllowed = this.#continuesParagraph()
  }

  #trackBreak(code: number): void {
    if (code === this.#breakCharacter) {
      this.#breakCount++
      if (this.#breakSpaceSeen) this.#breakSpaced = true
    } else if (isIndent(code)) {
      this.#breakSpaceSeen = true
    } else {
      this.#breakCharacter = 0
    }
  }

  /** A break line that ended: a setext underline or a thematic break. */
  #endBreak(): boolean {
    const character = this.#breakCharacter
    if (character === 0) return false
    const setext = this.#setextAllowed && (character === EQUALS || character === HYPHEN) && !this.#breakSpaced
    if (!setext && (character === EQUALS || this.#breakCount < 3)) return false
    this.#close(this.#breakBase)
    this.#tip = 'none'
    this.#innermostEmpty = false
    return true
  }

  // ── containers ────────────────────────────────────────────────────────

  /** Does a paragraph go on in this line: open, and every container continued? */
  #continuesParagraph(): boolean {
    return this.#tip === 'paragraph' && this.#matched === this.#depth
  }

  /** Closes the containers from `depth` on, and the leaf they held. */
  #close(depth: number): void {
    if (depth >= this.#depth) return
    this.#depth = depth
    this.#matched = Math.min(this.#matched, depth)
    this.#innermostEmpty = false
    this.#tip = 'none'
  }

  /** Opens a container where this line is: its unmatched ones and the open leaf close. */
  #open(container: number): boolean {
    if (this.#matched >= MAX_DEPTH) return false
    this.#close(this.#matched)
    this.#tip = 'none'
    this.#containers ??= []
    this.#containers[this.#depth++] = container
    this.#matched = this.#depth
    this.#innermostEmpty = false
    return true
  }

  // ── the end of a line ─────────────────────────────────────────────────

  /** What the line just ended decided, and a fresh line. */
  #endLine(): void {
    // The line's inline text ends (a run at its end too); a paragraph's code spans go on to its next line.
    if (this.#phase === 'content' && this.#inline()) this.#spans.endLine()
    else if (this.#phase === 'opening-run' && this.#runCharacter === BACKTICK && this.#runLength < 3) {
      if (this.#tip !== 'paragraph') this.#newInlineText(true)
      this.#spans.run(this.#runLength, this.#literalOpening)
      this.#spans.endLine()
    }
    this.#literalOpening = false
    if (!this.#endBreak()) {
      switch (this.#phase) {
        case 'continue':
        case 'starts':
        case 'fence-line':
          this.#endBlankLine()
          break
        case 'ordered':
          this.#endContentLine('paragraph')
          break
        case 'after-marker':
          this.#endEmptyItem()
          break
        case 'hashes':
          this.#endContentLine('heading')
          break
        case 'opening-run':
          if (this.#runLength >= 3) this.#openFence()
          else this.#endContentLine('paragraph')
          break
        case 'info':
          this.#openFence()
          break
        case 'closing-run':
          if (this.#runLength >= this.#fenceLength) this.#tip = 'none'
          break
        case 'closing-tail':
          this.#tip = 'none'
          break
        case 'content':
          this.#endContentLine(this.#lineKind)
          break
        default:
          this.#phase satisfies never
      }
    }
    if (this.#tip !== 'paragraph') this.#spans.reset()
    this.#phase = this.#depth === 0 ? (this.#tip === 'fence' ? 'fence-line' : 'starts') : 'continue'
    this.#column = 0
    this.#indentStart = 0
    this.#matched = 0
    this.#afterQuote = false
    this.#breakCharacter = 0
  }

  /** A blank line continues list items, but not quotes, nor an item with nothing in it yet. */
  #endBlankLine(): void {
    let matched = this.#matched
    if (this.#phase === 'continue') {
      while (matched < this.#depth && this.#containers![matched] !== QUOTE && !(matched === this.#depth - 1 && this.#innermostEmpty)) matched++
    } else if (matched === this.#depth && this.#innermostEmpty) {
      matched--
    }
    if (this.#tip === 'fence' && matched === this.#depth) return // a blank line in the fence
    this.#close(matched)
    this.#tip = 'none'
  }

  #endContentLine(kind: LineKind): void {
    switch (kind) {
      case 'paragraph':
        // A paragraph goes on, even where containers were not continued (a lazy line).
        if (this.#tip === 'paragraph') return
        this.#close(this.#matched)
        this.#tip = 'paragraph'
        this.#innermostEmpty = false
        return
      case 'fence-content':
        return
      case 'heading':
      case 'leaf':
        this.#close(this.#matched)
        this.#tip = 'none'
        this.#innermostEmpty = false
        return
      default:
        kind satisfies never
    }
  }

  /** A list marker alone on its line: an empty item, unless a paragraph goes on (it cannot interrupt one). */
  #endEmptyItem(): void {
    if (this.#continuesParagraph()) return
    if (!this.#open(this.#markerEnd + 1 - this.#markerIndentStart)) return this.#endContentLine('paragraph')
    this.#innermostEmpty = true
  }

  #openFence(): void {
    this.#close(this.#matched)
    this.#tip = 'fence'
    this.#fenceCharacter = this.#runCharacter
    this.#fenceLength = this.#runLength
    this.#innermostEmpty = false
  }
}

/** The characters a fence's opening run is made of. */
const FENCE_CHARACTERS: readonly number[] = [BACKTICK, TILDE]
const FENCE_CHARACTER_STRINGS: readonly string[] = FENCE_CHARACTERS.map((code) => String.fromCharCode(code))

function isFenceCharacter(code: number): boolean {
  return FENCE_CHARACTERS.includes(code)
}

/** Does `text` hold a character a fence's opening run is made of (`FenceTracker.fenceOpenOrOpening`)? */
export function holdsFenceCharacter(text: string): boolean {
  for (const character of FENCE_CHARACTER_STRINGS) if (text.indexOf(character) !== -1) return true
  return false
}

/** What can change a quiet tracker: a line break; and in inline text a backtick, or a backslash (which may escape one). */
const WAKING_CHARACTERS: readonly string[] = ['\n', '\r', '`', '\\']
/** How many of `WAKING_CHARACTERS`, from the first, are line breaks. */
const LINE_BREAKS = 2
/** How many of them, from the first, are line breaks and backticks. */
const LINE_BREAKS_AND_BACKTICKS = 3
const WAKING = new Uint8Array(128)
for (const character of WAKING_CHARACTERS) WAKING[character.charCodeAt(0)] = 1

/** Can `code` change a quiet tracker (`WAKING_CHARACTERS`)? */
export function wakesFenceTracker(code: number): boolean {
  return code < 128 && WAKING[code] === 1
}

export function createFenceTracker(): FenceTracker {
  return new FenceTracker()
}
