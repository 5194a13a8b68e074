/**
 * `FragmentRereads`: where a tag the lexer rejected is read again. A bar
 * inside it may begin a fragment (a marker that lost its `<`) the tag hid;
 * each bar is tried by reading ahead from it with a lexer of its own, over
 * the rest of the tag's text and the character it was rejected at. What
 * comes before the place found is a partial tag cut short there.
 */
import { isBar, SPACE } from './grammar.ts'
import { canFollowFragmentBar, type TagContext } from './markup-starts.ts'
import { STEP_CONTINUE, STEP_REJECT } from './tag.ts'
import { TagLexer } from './tag-lexer.ts'

export class FragmentRereads {
  /** Reads ahead from a bar inside a rejected tag; made when first needed. */
  #probe: TagLexer | undefined
  #maxTagChars: number

  constructor(maxTagChars: number) {
    this.#maxTagChars = maxTagChars
  }

  /**
   * Where a tag rejected at `next` (not a tag start) is read again: the first
   * bar inside it from which a tag commits within its text and `next` (the
   * text before it a partial tag cut short there, as `<‹ ‹invoke` before
   * `‹DSMLtool_use>`), else its first bar; -1 when it holds none.
   */
  rereadFrom(tagText: string, next: number, context: TagContext): number {
    let first = -1
    for (let offset = 1; offset < tagText.length; offset++) {
      if (!isBar(tagText.charCodeAt(offset))) continue
      if (first === -1) first = offset
      if (next !== -1 && this.#readFrom(tagText, offset, next, context) === 'commits') return offset
    }
    return first
  }

  /**
   * A rejected tag is cut short by the tag start `next`: the first bar
   * inside it where a fragment begins that the tag hid, or -1 (then the tag
   * is pending, its fate that of the tag at `next`). Such a fragment commits
   * within the tag's text and `next` (`<|DS‹DSML›` read in a block, where the
   * drifted word ran past it), or `next` is a bar whose fragment may not have
   * spaces (ASCII or box drawing, outside a block) where one that may begins
   * before it and is still open at `next` (`‹ ‹| DSML`; not `<‹│name|DSML|`,
   * whose `‹│` the name ends).
   */
  innerFragmentStart(tagText: string, next: number, context: TagContext): number {
    const spacedOnlyBefore = isBar(next) && !canFollowFragmentBar(next, SPACE, context)
    let canBegin = -1
    for (let offset = 1; offset < tagText.length; offset++) {
      if (!isBar(tagText.charCodeAt(offset))) continue
      const read = this.#readFrom(tagText, offset, next, context)
      if (read === 'commits') return offset
      if (read === 'open' && canBegin === -1) canBegin = offset
    }
    return spacedOnlyBefore ? canBegin : -1
  }

  /**
   * A tag read from `tagText[offset]` (a bar) over the rest of it and `next`:
   * it commits or completes there, it is rejected there, or it is still open.
   */
  #readFrom(tagText: string, offset: number, next: number, context: TagContext): 'commits' | 'rejected' | 'open' {
    const probe = (this.#probe ??= new TagLexer(this.#maxTagChars))
    probe.begin(tagText.charCodeAt(offset), context)
    for (let index = offset + 1; index <= tagText.length; index++) {
      const step = probe.step(index < tagText.length ? tagText.charCodeAt(index) : next)
      if (step === STEP_REJECT) return 'rejected'
      if (step !== STEP_CONTINUE || probe.committed) return 'commits'
    }
    return 'open'
  }
}
