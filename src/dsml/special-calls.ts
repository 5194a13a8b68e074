/**
 * The transitions of DeepSeek's pre-DSML special-token calls (V3, R1, V3.1):
 * between the calls of a `‹tool▁calls▁begin›` block, and inside one call,
 * whose text the separator splits. Each takes a special token and returns
 * the next state.
 */
import type { Markup } from './markup.ts'
import { inSpecialCall, inSpecialCalls, newInvoke, type State } from './states.ts'
import type { Tag } from './tag.ts'

/** Between pre-DSML calls: a call begins, the block ends; anything else is held with the block. */
export function specialCallsTag(markup: Markup, state: Extract<State, { kind: 'special-calls' }>, tag: Tag, text: string): State {
  markup.hold(state, text)
  if (!tag.special) return state
  if (tag.specialToken === 'call-begin') return inSpecialCall(state.region, newInvoke(undefined, false))
  if (tag.specialToken === 'calls-end') return markup.closeBlock(state.region)
  return state
}

/**
 * A special token inside a pre-DSML call: the separator splits its text, the
 * end token makes the call; another token cuts the call off.
 */
export function specialCallTag(markup: Markup, state: Extract<State, { kind: 'special-call' }>, tag: Tag, text: string): State {
  const { region, invoke } = state
  markup.hold(state, text)
  switch (tag.specialToken) {
    case 'separator':
      if (invoke.header === undefined) {
        invoke.header = invoke.body.join('')
        invoke.body = []
      } else if (!invoke.overflowed) {
        invoke.body.push(text)
      }
      return state
    case 'call-end':
      return markup.finishSpecialCall(region, invoke)
    case 'calls-end': {
      // The call's own end token is missing: the block's ends both.
      const next = markup.finishSpecialCall(region, invoke)
      return next.kind === 'special-calls' ? markup.closeBlock(region) : next
    }
    case 'call-begin':
      // The call before never ended: removed; this one begins.
      markup.cutOff(undefined)
      return inSpecialCall(region, newInvoke(undefined, false))
    case 'calls-begin':
    case 'other':
      markup.cutOff(undefined)
      return region.inBlock ? inSpecialCalls(region) : markup.closeUnclosedBlock()
    default:
      return tag.specialToken satisfies never
  }
}
