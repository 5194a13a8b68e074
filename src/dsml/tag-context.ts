/**
 * What a tag starting in a state may be (`Structure.context`): the
 * markerless names it may carry there, and, inside markup a real marker
 * opened, whether it is read by its shape (`TagContext.drift`).
 */
import { ALL_NAMES, CLOSERS, drifting, NO_NAMES, OPENERS, type TagContext } from './markup-starts.ts'
import type { Output } from './output.ts'
import type { State } from './states.ts'

/** `outsideOpeners`: a rescue reads markerless openers outside markup (`markerlessTags`, `wrappedTool`). */
export function tagContextOf(state: State, outsideOpeners: boolean, output: Output): TagContext {
  const names = namesOf(state, outsideOpeners, output)
  return state.kind !== 'outside' && state.region.confirmed ? drifting(names) : names
}

/** The markerless names a tag starting in `state` may carry. */
function namesOf(state: State, outsideOpeners: boolean, output: Output): TagContext {
  switch (state.kind) {
    case 'outside':
      return outsideNames(outsideOpeners, output)
    case 'parameter':
    case 'orphan-parameter':
      // A markerless parameter's value ends at markerless closers; in a confirmed block, at the next opener too.
      if (!state.parameter.markerless) return NO_NAMES
      return state.region.confirmed ? ALL_NAMES : CLOSERS
    case 'tool-name-tag':
    case 'name-element':
    case 'special-calls':
    case 'special-call':
      return NO_NAMES
    case 'lone-block':
      // V4.1's opener that lost its marker goes on only with a marked tag right after it (`needsMarker`): any other
      // tag releases it, and is read as it would be had the opener been text.
      return state.region.needsMarker ? outsideNames(outsideOpeners, output) : ALL_NAMES
    case 'block':
    case 'invoke':
    case 'wrapped-tool':
      return ALL_NAMES
    default:
      return state satisfies never
  }
}

/** The markerless names a tag outside markup may carry: openers where a rescue reads them, closers right after removed markup. */
function outsideNames(outsideOpeners: boolean, output: Output): TagContext {
  if (output.isAfterRemoval()) return outsideOpeners ? ALL_NAMES : CLOSERS
  return outsideOpeners ? OPENERS : NO_NAMES
}
