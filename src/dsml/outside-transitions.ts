/**
 * The transitions outside markup: a markered tag begins a region (a lone
 * block, an invoke, an orphan parameter, a tool-name tag, special-token
 * calls) or is removed as stray markup; a markerless one begins a candidate
 * where the rescues allow it, or is text.
 */
import { isMarkerLostOpener } from './grammar.ts'
import { inInvoke, inOrphanParameter, inSpecialCall, inSpecialCalls, inToolNameTag, loneBlock, newInvoke, newParameter, newRegion } from './states.ts'
import type { Tag } from './tag.ts'
import { describeRemoval, isToolNameTag, nameOf, type TagMeaning } from './tag-meaning.ts'
import type { InvokeState, TransitionContext } from './transition-context.ts'

/** A tag outside markup. */
export function outsideTag(context: TransitionContext, tag: Tag, meaning: TagMeaning, text: string): void {
  const output = context.output
  if (tag.marker === 'none') {
    outsideMarkerlessTag(context, tag, meaning, text)
    return
  }
  if (tag.closing && (meaning === 'parameter' || meaning === 'invoke')) {
    // A stray inner closer: the model is inside markup whose opener was lost.
    // What follows is held like a lone block's content: removed if a block
    // closer confirms it, released as text otherwise (fixture gameforge-256).
    context.state = context.markup.begin(loneBlock(newRegion(true, true)), text)
    return
  }
  if (tag.selfClosing && meaning === 'invoke') {
    // `<‹DSML›invoke name="x"/>`: a complete invoke with no arguments (a call only if the declared schema requires none).
    const invoke = newInvoke(nameOf(tag), false)
    context.state = context.markup.begin(inInvoke(newRegion(true, false), invoke), text)
    context.state = context.markup.finishInvoke((context.state as InvokeState).region, invoke, false)
    return
  }
  if (meaning === 'special' && tag.specialToken === 'calls-begin') {
    context.state = context.markup.begin(inSpecialCalls(newRegion(true, true)), text)
    return
  }
  if (meaning === 'special' && tag.specialToken === 'call-begin') {
    context.state = context.markup.begin(inSpecialCall(newRegion(true, false), newInvoke(undefined, false)), text)
    return
  }
  if (tag.closing || tag.selfClosing || meaning === 'special' || meaning === 'fragment' || meaning === 'empty') {
    output.diagnose('dropped-markup', text, describeRemoval(tag, meaning))
    return
  }
  switch (meaning) {
    case 'block':
      context.state = context.markup.begin(loneBlock(newRegion(true, true, nameOf(tag))), text)
      return
    case 'invoke':
      context.state = context.markup.begin(inInvoke(newRegion(true, false), newInvoke(nameOf(tag), false)), text)
      return
    case 'parameter':
      context.state = context.markup.begin(inOrphanParameter(newRegion(true, false), newParameter(tag)), text)
      return
    case 'unknown':
      if (isToolNameTag(tag, meaning)) {
        context.state = context.markup.begin(inToolNameTag(newRegion(true, false), newInvoke(tag.name, false)), text)
      } else {
        output.diagnose('dropped-markup', text, describeRemoval(tag, meaning))
      }
      return
  }
}

/** A markerless tag outside: a candidate begins (held until a marker or the allowed names confirm it), or it is text. */
function outsideMarkerlessTag(context: TransitionContext, tag: Tag, meaning: TagMeaning, text: string): void {
  const output = context.output
  const rescues = context.rescues
  if (tag.closing) {
    if (output.isAfterRemoval()) output.diagnose('dropped-markup', text, 'Stray closer right after removed DSML markup')
    else output.emitTag(tag, text)
  } else if (tag.selfClosing) {
    output.emitTag(tag, text)
  } else if (meaning === 'block' && isMarkerLostOpener(tag.name)) {
    // V4.1's opener with its marker lost (`< calls>`): markup only on its own line, right before a marked tag.
    if (output.fences.atLineStart) context.state = context.markup.begin(loneBlock(newRegion(false, true, undefined, true)), text)
    else output.emitTag(tag, text)
  } else if (meaning === 'block' && rescues.markerlessTags) {
    context.state = context.markup.begin(loneBlock(newRegion(false, true, nameOf(tag))), text)
  } else if (meaning === 'invoke' && rescues.markerlessTags) {
    context.state = context.markup.begin(inInvoke(newRegion(false, false), newInvoke(nameOf(tag), true)), text)
  } else if (meaning === 'parameter' && (rescues.wrappedTool || rescues.markerlessTags)) {
    context.state = context.markup.begin(inOrphanParameter(newRegion(false, false), newParameter(tag)), text)
  } else {
    output.emitTag(tag, text)
  }
}
