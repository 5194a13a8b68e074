/**
 * What a state's transition works with: the structure layer (`structure.ts`)
 * hands each tag to the current state's transition, one file per state group
 * (`outside-transitions.ts`, `block-transitions.ts`,
 * `invoke-transitions.ts`, `special-calls.ts`). A transition sets the next
 * state on the context and says whether it used the tag: a state that ends
 * without using it (a parameter closed by an invoke closer) returns false,
 * and the dispatcher hands the tag to the new state. No transition calls
 * back into the dispatcher.
 */
import type { Markup } from './markup.ts'
import type { ResolvedOptions } from './options.ts'
import type { Output } from './output.ts'
import type { State } from './states.ts'

export interface TransitionContext {
  /** The current state; a transition sets the next one here. */
  state: State
  readonly markup: Markup
  readonly output: Output
  readonly rescues: ResolvedOptions['rescues']
  /** Text that is not a tag, in the current state. */
  consumeText(text: string): void
}

export type InvokeState = Extract<State, { kind: 'invoke' | 'wrapped-tool' }>
export type ToolNameTagState = Extract<State, { kind: 'tool-name-tag' }>
export type ParameterState = Extract<State, { kind: 'parameter' | 'orphan-parameter' }>
export type BlockState = Extract<State, { kind: 'lone-block' | 'block' }>
