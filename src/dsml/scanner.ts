/**
 * The scanner: the engine's loop over the input. It skips text that cannot
 * open markup with `indexOf`, runs the tag lexer from each character that
 * could (a `<`, or a bar where bars matter), carries a tag across chunks, and
 * hands text and completed tags to the structure layer.
 *
 * - **Fast paths, asked of their owners.** Outside markup, the stretch
 *   `PlainStretch` clears is emitted whole; a `<` the grammar says is text
 *   by the characters after it (`isTextTagStart`: the lexer's own first
 *   checks) is text at once; a run of `<` is added as its partial tags at once.
 * - **Pending partial tags.** A partial tag cut short by the start of another
 *   tag is held, its fate that next tag's (`PendingTags`).
 * - **Code spans.** A tag that starts after a backtick run that may open an
 *   inline code span is asked about (`CodeSpanReading`): in a span, it comes
 *   out as it is or is read as documentation; not, it is read as usual.
 * - **Re-reads.** A rejected tag is read again from a bar inside it (a bar
 *   may start a fragment: `FragmentRereads` says which); what comes before
 *   is a partial tag cut short there. A fragment followed by a word that is
 *   not a tag name is read again after its marker. Re-reads go through a
 *   queue (`ReadQueue`), never through a nested call. Each character is read
 *   a bounded number of times: only the few characters before a tag commits
 *   can be re-read, and text a code-span gate held is read again once (the
 *   runs the gate read answer for the tags in it, so no other gate holds it
 *   again).
 */
import { CodeSpanReading } from './code-span-reading.ts'
import { isBar, LESS_THAN } from './grammar.ts'
import { FragmentRereads } from './fragment-rereads.ts'
import { canFollowLessThan, SHORT_TEXT } from './markup-starts.ts'
import type { Output } from './output.ts'
import type { Structure } from './structure.ts'
import { STEP_COMPLETE, STEP_CONTINUE, STEP_REJECT, type StepResult, Tag } from './tag.ts'
import { TagLexer } from './tag-lexer.ts'
import { isTextTagStart, plainPieceUntil } from './partial-tags.ts'
import { PendingTags } from './pending-tags.ts'
import { PlainStretch } from './plain-stretch.ts'
import { ReadQueue } from './read-queue.ts'
import { endOfRun } from './positions.ts'
import { TagStartSearch } from './tag-start-search.ts'

export class Scanner {
  #lexer: TagLexer
  /** The view of each completed tag handed to the structure layer (which reads it at once). */
  #tag: Tag | undefined
  #structure: Structure
  #output: Output
  #lexing = false
  /** Where the current text's part of the tag being read begins (-1: between texts). */
  #tagStart = -1
  /** The tag's text from earlier texts. */
  #tagParts: string[] = []
  /** The eager-stop budget when the tag began. */
  #tagBudget = Infinity
  /** Partial tags cut short by the tag being read, which may still join into markup. */
  #pending: PendingTags
  /** Texts still to read, in order: a re-read piece, then the rest of the text it came from; and how the text being read now is read. */
  #queue = new ReadQueue()
  /** Where the next tag may start. */
  #tagStarts = new TagStartSearch()
  /** How far a text outside markup is certainly plain. */
  #plain: PlainStretch
  /** Where a tag may stand in an inline code span. */
  #spans: CodeSpanReading
  /** Where a rejected tag is read again from a bar inside it. */
  #rereads: FragmentRereads

  constructor(structure: Structure, output: Output, maxTagChars: number, maxPendingChars: number, maxGateChars: number) {
    this.#structure = structure
    this.#output = output
    this.#lexer = new TagLexer(maxTagChars)
    this.#pending = new PendingTags(structure, output, maxPendingChars)
    this.#spans = new CodeSpanReading(structure, output, this.#queue, maxGateChars)
    this.#plain = new PlainStretch(maxPendingChars)
    this.#rereads = new FragmentRereads(maxTagChars)
  }

  /** Characters held: the tag being read, the pending partial tags, the text the code-span gate holds. */
  get heldChars(): number {
    return this.#pending.length + (this.#lexing ? this.#lexer.length : 0) + this.#spans.heldChars
  }

  /** Not inside a tag, nothing pending, nothing at the gate. */
  get idle(): boolean {
    return !this.#lexing && this.#pending.length === 0 && !this.#spans.holding
  }

  scan(input: string): void {
    this.#queue.runs = undefined
    this.#tagStarts.reset()
    this.#plain.reset()
    this.#read(input, 0)
    this.#drainQueue()
  }

  /**
   * The text is interrupted (by the other channel, a native call) and may go
   * on: decide what is held as at the end, except a tag whose marker is still
   * undecided and the partial tags pending before it. Released, they could
   * join the text that follows into a marker; held, that text decides them.
   */
  interrupt(): void {
    this.#endGate()
    if (this.#lexing && this.#lexer.markerUndecided) return
    this.end()
  }

  /** After the structure layer resolved what it held: a tag still read goes on in the context and under the budget of where it now stands. */
  regionResolved(): void {
    if (!this.#lexing) return
    this.#lexer.setContext(this.#structure.context())
    this.#tagBudget = this.#structure.budgetLeft()
  }

  /** End of input: decide the tag being read, and whatever its re-reads begin. */
  end(): void {
    for (;;) {
      // What the gate held, and what a tag's re-reads begin, may hold again: until nothing does.
      this.#endGate()
      if (!this.#lexing) break
      const step = this.#lexer.finish()
      this.#lexing = false
      this.#decide(step, '', 0, 0)
      this.#drainQueue()
    }
    this.#pending.release()
  }

  #drainQueue(): void {
    const queue = this.#queue
    for (;;) {
      if (queue.documentation && queue.next?.documentation !== true) {
        this.#endDocumentation()
        continue
      }
      const next = queue.take()
      if (next === undefined) break
      this.#readAs(next.documentation)
      queue.runs = next.runs
      this.#read(next.text, next.start)
    }
    queue.runs = undefined
  }

  /**
   * Documentation was read: what it opened ends with it, as at the end of
   * the input but with no call made — a tag its end cut short (whose re-reads
   * are documentation too, read first), the pending partial tags, then the
   * markup — and reading goes on as usual.
   */
  #endDocumentation(): void {
    if (this.#lexing) {
      const step = this.#lexer.finish()
      this.#lexing = false
      this.#decide(step, '', 0, 0)
      return
    }
    this.#pending.release()
    this.#structure.endOfInput()
    this.#readAs(false)
  }

  /** Reading goes on as documentation, or not. */
  #readAs(documentation: boolean): void {
    this.#queue.documentation = documentation
    this.#structure.documentation = documentation
  }

  /** Reads `text` from `index`; stops early when a re-read was queued (the rest of `text` is queued after it). */
  #read(text: string, index: number): void {
    const length = text.length
    // A tag begun in an earlier text goes on here.
    if (this.#lexing) this.#tagStart = index
    while (index < length) {
      index = this.#spans.holding ? this.#spans.read(text, index) : this.#lexing ? this.#lex(text, index) : this.#readText(text, index)
      if (index < 0) return
    }
    // A tag begun at this text's last character goes on in the next one.
    if (this.#lexing && this.#tagStart !== -1) {
      this.#tagParts.push(text.slice(this.#tagStart))
      this.#tagStart = -1
    }
  }

  // ── text ──────────────────────────────────────────────────────────────

  /** Reads text up to the next tag start and begins the tag there. Returns where reading goes on. */
  #readText(text: string, index: number): number {
    const structure = this.#structure
    const output = this.#output
    const length = text.length
    const context = structure.context()
    if (structure.idle && this.#pending.length === 0) {
      // A long rest is planned by its searches (remembered while ahead); a short one (the rest of a small chunk after
      // a tag the last one cut short) by reading each tag start in it ahead, as `Engine.feed` reads a short chunk.
      const plain = length - index > SHORT_TEXT ? this.#plain.until(text, index, context) : plainPieceUntil(text, context, index)
      if (plain > index) {
        output.emitRange(text, index, plain)
        if (plain === length) return plain
        index = plain
      }
      // The stretch stopped at a tag start that is text at once (a bar in `A | B`): it is passed, and the stretch
      // is planned again after it, rather than walking from one `<` to the next up to the next tag.
      if (isTextTagStart(text, index, context)) {
        output.emitRange(text, index, index + 1)
        return index + 1
      }
    }
    // After partial tags (pending), reading stands at the next tag's start: the lexer decides
    // it, and with it the chain, as it does when the text is split right there. A `<` that is
    // not text is where the next tag starts too (a needle the plain-text pass stopped at).
    const next =
      this.#pending.length !== 0 || (text.charCodeAt(index) === LESS_THAN && index + 1 < length && !isTextTagStart(text, index, context))
        ? index
        : this.#tagStarts.next(text, index, structure.barsMatter(), context)
    const budget = structure.budgetLeft()
    if (next - index >= budget) {
      // Eager stop: the region may not hold this much plain text.
      const take = Math.max(budget, 0)
      if (take > 0) this.#consume(text, index, index + take)
      structure.giveUp()
      return index + take
    }
    if (next > index) {
      this.#consume(text, index, next)
      return next
    }
    const code = text.charCodeAt(index)
    if (structure.fencedAt(code)) {
      this.#pending.release()
      output.emitRange(text, index, index + 1)
      return index + 1
    }
    if (code === LESS_THAN && structure.state.kind === 'outside' && !canFollowLessThan(LESS_THAN, context)) {
      // A run of `<` outside markup: each but the last is a tag start the next one cuts short (a `<` cannot follow
      // one), pending as `#decide` makes it, one character at a time; the run is added as those tags at once.
      const runEnd = endOfRun(text, index, '<')
      if (runEnd - index > 1) {
        this.#pending.addLessThans(text, index, runEnd - 1)
        index = runEnd - 1
      }
    }
    this.#lexer.begin(code, context)
    this.#lexing = true
    this.#tagStart = index
    this.#tagBudget = budget
    return index + 1
  }

  /** Text that is not a tag: emitted as a range of the input outside markup, else given to the region. */
  #consume(text: string, start: number, end: number): void {
    if (this.#structure.state.kind === 'outside') this.#output.emitRange(text, start, end)
    else this.#structure.consumeText(text.slice(start, end))
  }

  // ── tags ──────────────────────────────────────────────────────────────

  /** Feeds the lexer until the tag is decided or the text ends. */
  #lex(text: string, index: number): number {
    const lexer = this.#lexer
    const structure = this.#structure
    const length = text.length
    while (index < length) {
      index = lexer.run(text, index, length, this.#tagBudget)
      const step = lexer.lastStep
      if (step === STEP_CONTINUE) {
        if (index >= length) break
        // Eager stop inside a tag: the region is given up; the tag is read on where it now stands.
        structure.giveUp()
        lexer.setContext(structure.context())
        this.#tagBudget = structure.budgetLeft()
        continue
      }
      if (step === STEP_COMPLETE) index++
      this.#lexing = false
      return this.#decide(step, text, this.#tagStart, index)
    }
    this.#tagParts.push(this.#tagStart === 0 ? text : text.slice(this.#tagStart))
    this.#tagStart = -1
    return length
  }

  /**
   * The tag read from `text[start]` (after any earlier parts) up to `index`
   * was decided. Returns where reading `text` goes on, or -1 when a re-read
   * was queued.
   */
  #decide(step: StepResult, text: string, start: number, index: number): number {
    const whole = this.#tagParts.length === 0
    let tagText: string
    if (whole) {
      tagText = text.slice(start, index)
    } else {
      tagText = this.#tagParts.join('') + text.slice(start, index)
      this.#tagParts = []
    }
    /** How many of the tag's last characters are in `text`. */
    const inText = index - start
    if (step !== STEP_REJECT) return this.#complete(tagText, inText, whole ? start : -1, text, index)
    const structure = this.#structure
    const code = index < text.length ? text.charCodeAt(index) : -1
    if ((code === LESS_THAN || (isBar(code) && structure.barsMatter())) && structure.producesText()) {
      // Cut short by another tag start: pending, its fate that tag's. But a bar inside it that
      // can begin a fragment (whose first bar decides how it may be spelled) is tried first.
      const inner = this.#rereads.innerFragmentStart(tagText, code, structure.context())
      if (inner === -1) {
        this.#pending.add(tagText)
        return index
      }
      this.#pending.add(tagText.slice(0, inner))
      return this.#reread(tagText, inner, inText, text, index)
    }
    if (whole && this.#pending.length === 0 && structure.state.kind === 'outside' && !hasBar(tagText)) {
      // The usual case: a `<` in prose. Its text is a range of this input.
      this.#output.emitRange(text, start, index)
      return index
    }
    if (structure.barsMatter()) {
      const offset = this.#rereads.rereadFrom(tagText, code, structure.context())
      if (offset !== -1) {
        // Read again from the bar, which may start a fragment: what comes before
        // it is a partial tag cut short by that start, pending like any other.
        const before = tagText.slice(0, offset)
        if (structure.producesText()) {
          this.#pending.add(before)
        } else {
          this.#pending.release()
          structure.consumeText(before)
        }
        return this.#reread(tagText, offset, inText, text, index)
      }
    }
    this.#pending.release()
    structure.consumeText(tagText)
    return index
  }

  #complete(tagText: string, inText: number, start: number, text: string, index: number): number {
    const lexed = this.#lexer.tag()
    const prefix = this.#pending.take()
    const input = start === -1 ? undefined : text
    const tag = this.#tag === undefined ? (this.#tag = new Tag(lexed, tagText, input, start)) : this.#tag.read(lexed, tagText, input, start)
    const taken = lexed.length < tagText.length ? tagText.slice(0, lexed.length) : tagText
    let outcome = this.#structure.handleTag(tag, prefix + taken)
    if (outcome === 'code-span') {
      // The tag stands where an inline code span may be open: decided before it is read as markup.
      const resumed = this.#spans.atTag(prefix, tagText, start, text, index)
      if (resumed !== undefined) return resumed
      // Not in a span (the runs before it are literal backticks now): read as usual.
      outcome = this.#structure.handleTag(tag, prefix + taken)
    }
    if (outcome === 'fenced') {
      // Released text before the tag opened a fence: its first character is text, and reading goes on after it.
      this.#structure.consumeText(prefix + tagText.charAt(0))
      return this.#reread(tagText, 1, inText, text, index)
    }
    if (taken !== tagText) return this.#reread(tagText, lexed.length, inText, text, index)
    return index
  }

  /**
   * `tagText.slice(from)` must be read again before `text` goes on at
   * `index`. When that piece lies in `text` itself (its last `inText`
   * characters before `index` are the tag's), reading simply steps back;
   * otherwise the piece and the rest of `text` are queued.
   */
  #reread(tagText: string, from: number, inText: number, text: string, index: number): number {
    const back = tagText.length - from
    if (back <= inText) return index - back
    this.#queue.first(this.#queue.piece(tagText.slice(from)), this.#queue.rest(text, index))
    return -1
  }

  /** The text ends (or is interrupted) while a code-span gate holds: it decides, and what it held is read. */
  #endGate(): void {
    while (this.#spans.holding) {
      this.#spans.finish()
      this.#drainQueue()
    }
  }
}

function hasBar(text: string): boolean {
  for (let index = 1; index < text.length; index++) if (isBar(text.charCodeAt(index))) return true
  return false
}
