/**
 * The transitions inside an invoke: its parameters, its closer, the next
 * invoke or the block's closer ending it; inside a parameter: its closer, the
 * next parameter or field, or text (a markerless tag, a tag of no meaning);
 * and inside a tag named after its tool (`<‹DSML›execute_command>`).
 */
import { setArgument, typeValue } from './arguments.ts'
import { isStringFlag, isToolNameElement } from './grammar.ts'
import { inParameter, inWrappedTool, type Invoke, newField, newInvoke, newParameter } from './states.ts'
import type { Tag } from './tag.ts'
import { closeBodyElement } from './tool-name-body.ts'
import { isToolNameTag, type TagMeaning } from './tag-meaning.ts'
import type { InvokeState, ParameterState, ToolNameTagState, TransitionContext } from './transition-context.ts'

/** A tag inside an invoke (or inside a wrapped tool, V26). */
export function invokeTag(context: TransitionContext, state: InvokeState, tag: Tag, meaning: TagMeaning, text: string): boolean {
  const { region, invoke } = state
  const markup = context.markup
  const wrapped = state.kind === 'wrapped-tool'
  if (!tag.closing && meaning === 'parameter') {
    markup.hold(state, text)
    if (tag.selfClosing) {
      selfClosingParameter(invoke, tag)
    } else {
      if (tag.marker === 'none' && !invoke.markerless) invoke.loose = true
      context.state = inParameter(region, invoke, state.kind, newParameter(tag))
    }
    return true
  }
  if (!tag.closing && meaning === 'invoke') {
    if (tag.selfClosing && tag.marker !== 'none' && tag.nameAttribute !== undefined) {
      // A parameter written as a self-closing invoke with its value in an attribute.
      markup.hold(state, text)
      selfClosingParameter(invoke, tag)
      return true
    }
    // The next invoke: this one ended without its closer. A call if every parameter closed.
    context.state = invoke.cut ? markup.abandonInvoke(region, invoke, 'DSML invoke without its closer removed') : markup.finishInvoke(region, invoke, wrapped, true)
    return false
  }
  if (tag.closing && (meaning === 'invoke' || meaning === 'empty')) {
    markup.hold(state, text)
    context.state = markup.finishInvoke(region, invoke, wrapped)
    return true
  }
  if (tag.closing && meaning === 'parameter') {
    markup.hold(state, text)
    if (wrapped) context.state = markup.finishInvoke(region, invoke, wrapped)
    return true
  }
  if (invoke.implied && !tag.closing && tag.marker !== 'none' && meaning === 'unknown' && isToolNameElement(tag.name)) {
    // The next tool's name: the implied invoke before it is complete.
    context.state = markup.finishInvoke(region, invoke, wrapped)
    return false
  }
  if (meaning === 'block') {
    // A block closer ends an invoke that lost its closer: a call if every parameter closed (as vLLM's parsers expect).
    if (tag.closing && (wrapped || invoke.implied)) context.state = markup.finishInvoke(region, invoke, wrapped)
    else if (tag.closing && !invoke.cut) context.state = markup.finishInvoke(region, invoke, wrapped, true)
    else context.state = markup.abandonInvoke(region, invoke, 'DSML invoke without its closer removed')
    return false
  }
  if (tag.marker === 'none') context.consumeText(text)
  else markup.hold(state, text) // special tokens, fragments, unknown tags inside an invoke: junk, removed with it
  return true
}

/** A tag inside a parameter's value. */
export function parameterTag(context: TransitionContext, state: ParameterState, tag: Tag, meaning: TagMeaning, text: string): boolean {
  const markup = context.markup
  const parameter = state.parameter
  if (tag.closerWithJunk || (!tag.closing && meaning === 'block')) {
    // Not the value's end: a closer with junk after its name is no closer, and no block begins inside an invoke.
    context.consumeText(text)
    return true
  }
  // A field (`<‹DSML›command>…`) is closed by a closer of its own name too, and ended by the next field.
  const ownName = parameter.field && tag.marker !== 'none' && meaning === 'unknown' && tag.name === parameter.name
  if (tag.closing) {
    if (meaning === 'parameter' || (meaning === 'empty' && tag.marker !== 'none') || ownName) {
      markup.hold(state, text)
      context.state = markup.closeParameter(state, meaning === 'empty')
      return true
    }
    if (meaning === 'invoke' || meaning === 'block') {
      context.state = markup.closeParameter(state, true, !parameter.field)
      return false
    }
    context.consumeText(text)
    return true
  }
  const nextField = parameter.field && isToolNameTag(tag, meaning)
  // In a confirmed block, a markerless parameter ends at the next markerless parameter or invoke (read by shape).
  const nextMarkerless = tag.marker === 'none' && parameter.markerless && state.region.confirmed && (meaning === 'parameter' || meaning === 'invoke')
  if (!nextField && !nextMarkerless && (tag.marker === 'none' || meaning === 'special' || meaning === 'unknown' || meaning === 'empty' || meaning === 'fragment')) {
    context.consumeText(text)
    return true
  }
  if (meaning === 'parameter' && state.kind === 'orphan-parameter') {
    // V26: the outer parameter names the tool; its inner parameters are the arguments.
    const outer = state.parameter
    context.state = inWrappedTool(state.region, newInvoke(outer.name, outer.markerless))
    return false
  }
  // The next parameter (or field) ends this one; an invoke opener cuts it short.
  context.state = markup.closeParameter(state, true, meaning === 'invoke')
  return false
}

/**
 * Inside a tag named after the tool (`<‹DSML›execute_command>`): its fields
 * are DSML-marked elements (`<‹DSML›command>…`), parameters, or plain
 * elements (`<timeout>600</timeout>`) in its text; an invoke closer or a
 * closer of its own name ends it. A block, invoke or special token beginning
 * inside it means it was junk before real markup.
 */
export function toolNameTag(context: TransitionContext, state: ToolNameTagState, tag: Tag, meaning: TagMeaning, text: string): boolean {
  const { region, invoke } = state
  const markup = context.markup
  const marked = tag.marker !== 'none'
  if (marked && !tag.closing && (meaning === 'block' || meaning === 'invoke' || meaning === 'special')) {
    context.state = markup.abandonInvoke(region, invoke, 'DSML tag removed: DSML markup began inside it')
    return false
  }
  if (marked && tag.closing && (meaning === 'invoke' || meaning === 'block' || (meaning === 'unknown' && tag.name === invoke.name))) {
    if (meaning !== 'block') markup.hold(state, text)
    context.state = markup.finishToolNameTag(region, invoke)
    return meaning !== 'block'
  }
  markup.hold(state, text)
  if (!marked) {
    if (!invoke.overflowed) invoke.body.push(text)
  } else if (!tag.closing && meaning === 'parameter') {
    if (tag.selfClosing) selfClosingParameter(invoke, tag)
    else context.state = inParameter(region, invoke, 'tool-name-tag', newParameter(tag))
  } else if (!tag.closing && !tag.selfClosing && isToolNameTag(tag, meaning)) {
    context.state = inParameter(region, invoke, 'tool-name-tag', newField(tag))
  } else if (tag.closing && (meaning === 'parameter' || meaning === 'empty')) {
    closeBodyElement(invoke)
  }
  // Anything else marked (fragments, stray closers) is junk, removed with it.
  return true
}

/** A parameter written as a self-closing tag, its value in an attribute (`value="…"`, or `string` used as the value). */
function selfClosingParameter(invoke: Invoke, tag: Tag): void {
  invoke.loose = true
  const name = tag.nameAttribute
  if (name === undefined || name === '') return
  const stringAttribute = tag.stringAttribute
  const raw = tag.valueAttribute ?? (isStringFlag(stringAttribute) ? '' : (stringAttribute ?? ''))
  const typed = typeValue(raw, tag.valueAttribute !== undefined ? stringAttribute : undefined)
  setArgument(invoke.args, name, typed.value)
  invoke.argumentCount++
  invoke.markeredArgumentCount++
}
