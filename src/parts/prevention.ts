/**
 * Prevention on the request side, opt-in, the same words for every dialect:
 *
 * - the *preventive directive*: a short instruction added to the request's
 *   system instructions, asking the model to call tools only through the
 *   tool interface. It never changes from one request to the next (prompt
 *   caching keeps working) and holds no marker bytes: naming the markup
 *   would show the model the very spelling it must not write;
 * - the *recovery nudge*: when the history's last assistant turn wrote a
 *   call as text — history repair removed it, so it never ran — a one-time
 *   note after that turn tells the model so. It is added to the request that
 *   follows the leaked turn only: once the model has answered after it, the
 *   last assistant turn is another one.
 *
 * Each dialect's request sanitizer places them where its format keeps
 * instructions (`system` messages, Anthropic's `system`, the Responses API's
 * `instructions` and `developer` messages).
 */

/** The preventive directive. */
export const PREVENTIVE_DIRECTIVE =
  'Call tools only through the tool-calling interface. Never write a tool call as text in your reply: ' +
  'no tags for tool calls, invocations or parameters, and no special tokens. Write plain prose around tool calls.'

/** The recovery nudge. */
export const RECOVERY_NUDGE =
  'Your previous reply wrote a tool call as text instead of calling the tool, so it did not run. ' +
  'If the call is still needed, make it now through the tool-calling interface.'

export interface PreventionOptions {
  /** Add `PREVENTIVE_DIRECTIVE` to the request's system instructions (for DeepSeek upstreams). @default false */
  preventiveDirective?: boolean
  /** Add `RECOVERY_NUDGE` after a last assistant turn whose call was written as text. @default false */
  recoveryNudge?: boolean
}

/** Reads the two options, so that a mistyped value is a clear error. */
export function preventionOptions(options: PreventionOptions): Required<PreventionOptions> {
  const read = (name: keyof PreventionOptions): boolean => {
    const value = options[name]
    if (value === undefined) return false
    if (typeof value !== 'boolean') throw new TypeError(`Cannot use option "${name}": expected a boolean, got ${typeof value}`)
    return value
  }
  return { preventiveDirective: read('preventiveDirective'), recoveryNudge: read('recoveryNudge') }
}

/**
 * Is the recovery nudge due? When the history's last assistant turn (at
 * `lastAssistant`; -1: none) lost calls written as text (`removedCalls`),
 * and nothing after it answered that turn: a tool's result, or the nudge
 * itself, already added. `answers` is the dialect's reading of one item.
 */
export function recoveryNudgeDue(history: readonly unknown[], lastAssistant: number, removedCalls: number, answers: (item: unknown) => boolean): boolean {
  if (lastAssistant === -1 || removedCalls === 0) return false
  for (let index = lastAssistant + 1; index < history.length; index++) if (answers(history[index])) return false
  return true
}
