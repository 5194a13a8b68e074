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

const NUDGE_OPENING = 'Your previous reply wrote '
const NUDGE_CLOSING = ' through the tool-calling interface.'

/** The recovery nudge when no tool is named: a call the previous reply wrote as text did not run. */
export const RECOVERY_NUDGE = recoveryNudgeText([])

/**
 * The recovery nudge, naming the tools whose calls the previous reply wrote
 * as text (removed from history, or noted as not recovered): they did not
 * run. Without names, `RECOVERY_NUDGE`.
 */
export function recoveryNudgeText(tools: readonly string[]): string {
  if (tools.length === 0) return `${NUDGE_OPENING}a tool call as text instead of calling the tool, so it did not run. If the call is still needed, make it now${NUDGE_CLOSING}`
  if (tools.length === 1) return `${NUDGE_OPENING}a call to "${tools[0]}" as text instead of calling the tool, so it did not run. If the call is still needed, make it now${NUDGE_CLOSING}`
  const names = tools.map((tool) => `"${tool}"`)
  const listed = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  return `${NUDGE_OPENING}calls to ${listed} as text instead of calling the tools, so they did not run. If they are still needed, make them now${NUDGE_CLOSING}`
}

/** Is `text` a recovery nudge (`recoveryNudge`, naming any tools)? */
export function isRecoveryNudge(text: unknown): boolean {
  return typeof text === 'string' && text.startsWith(NUDGE_OPENING) && text.endsWith(NUDGE_CLOSING) && text.includes(' as text instead of calling the tool')
}

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

/** The calls an assistant turn wrote as text, which never ran: how many, and the tools they named (each once). */
export interface UnrunCalls {
  count: number
  tools: string[]
}

/** No call lost yet. */
export function unrunCalls(): UnrunCalls {
  return { count: 0, tools: [] }
}

/** Adds to `into` the calls one repaired text lost (`RepairedHistoryText`); returns `into`. */
export function addUnrun(into: UnrunCalls, repaired: { removedCalls: number; unrunTools: readonly string[] }): UnrunCalls {
  into.count += repaired.removedCalls
  for (const tool of repaired.unrunTools) if (!into.tools.includes(tool)) into.tools.push(tool)
  return into
}

/**
 * Is the recovery nudge due? When the history's last assistant turn (at
 * `lastAssistant`; -1: none) lost calls written as text (`unrun`),
 * and nothing after it answered that turn: a tool's result, or the nudge
 * itself, already added. `answers` is the dialect's reading of one item.
 */
export function recoveryNudgeDue(history: readonly unknown[], lastAssistant: number, unrun: UnrunCalls, answers: (item: unknown) => boolean): boolean {
  if (lastAssistant === -1 || unrun.count === 0) return false
  for (let index = lastAssistant + 1; index < history.length; index++) if (answers(history[index])) return false
  return true
}
