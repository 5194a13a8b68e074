/**
 * The transitions between a block's elements: an invoke or a parameter
 * begins, the block's closer ends it (a JSON-in-tag call right after a lone
 * opener), a tool-name element names the tool of the arguments after it;
 * anything else is junk, removed with the block.
 */
import { isToolNameElement } from './grammar.ts'
import { block, inInvoke, inNameElement, inOrphanParameter, newInvoke, newParameter, type State } from './states.ts'
import type { Tag } from './tag.ts'
import { nameOf, type TagMeaning, toolNameOf } from './tag-meaning.ts'
import type { BlockState, TransitionContext } from './transition-context.ts'

/** A tag between a block's elements (a lone block's, or a confirmed one's). */
export function blockTag(context: TransitionContext, state: BlockState, tag: Tag, meaning: TagMeaning, text: string): void {
  const region = state.region
  const markup = context.markup
  if (tag.marker === 'none') {
    const opener = !tag.closing && !tag.selfClosing
    if (opener && meaning === 'invoke') {
      markup.startElement(state, text)
      // Markerless inner tags in a markered block need the looseParameters rescue.
      const invoke = newInvoke(nameOf(tag), true)
      if (region.confirmed) invoke.loose = true
      context.state = inInvoke(region, invoke)
    } else if (opener && meaning === 'parameter') {
      markup.startElement(state, text)
      context.state = inOrphanParameter(region, newParameter(tag))
    } else if (tag.closing && meaning === 'block') {
      context.state = closeBlock(context, state, text)
    } else {
      context.consumeText(text)
    }
    return
  }
  if (tag.closing && meaning === 'block') {
    context.state = closeBlock(context, state, text)
    return
  }
  context.state = markup.startElement(state, text)
  if (tag.closing) {
    // a stray inner closer between elements: removed with the block
  } else if (tag.selfClosing && meaning === 'invoke') {
    // `<‹DSML›invoke name="x"/>`: a complete invoke with no arguments (a call only if the declared schema requires none).
    context.state = markup.finishInvoke(region, newInvoke(nameOf(tag), false), false)
  } else if (tag.selfClosing) {
    // a self-closing tag between elements: junk, removed with the block
  } else if (meaning === 'invoke') {
    context.state = inInvoke(region, newInvoke(nameOf(tag), false))
  } else if (meaning === 'parameter') {
    context.state = inOrphanParameter(region, newParameter(tag))
  } else if (meaning === 'unknown' && isToolNameElement(tag.name)) {
    context.state = inNameElement(region)
  }
  // Anything else inside a block (special tokens, fragments, nested openers) is junk, removed with the block.
}

/**
 * A tag inside a tool-name element: its closer ends it, and the text inside
 * names the tool of the arguments after it; any other tag ends it too, and
 * is read again in the block (false).
 */
export function nameElementTag(context: TransitionContext, state: Extract<State, { kind: 'name-element' }>, tag: Tag, text: string): boolean {
  const own = tag.closing && tag.marker !== 'none' && isToolNameElement(tag.name)
  if (own) context.markup.hold(state, text)
  const name = state.invoke.overflowed ? undefined : toolNameOf(state.invoke.body.join(''))
  if (name !== undefined) state.region.named = name
  context.state = block(state.region)
  return own
}

/** A block closer: a JSON-in-tag call right after a lone opener, else the block's end. */
function closeBlock(context: TransitionContext, state: BlockState, text: string): State {
  const markup = context.markup
  if (state.kind === 'lone-block') {
    const call = markup.closeJsonInTag(state.region, text)
    if (call !== undefined) return call
  }
  markup.startElement(state, text)
  return markup.closeBlock(state.region)
}
