/**
 * History repair, one rule for every adapter: leaked markup replayed as
 * history makes the model imitate it, so an assistant text loses it. Where
 * removed markup held a tool call, a short note takes its place, naming the
 * tools (`[removed leaked tool call: edit]`), so the model does not believe
 * it ran a tool it never ran; removed special tokens leave nothing. Synthetic
 * calls are never added to history (they would run twice).
 */
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import { sanitizeTextEvents } from '../dsml/sanitize-text.ts'
import { holdsCallMarkup } from '../dsml/sentinel.ts'
import type { Diagnostic } from '../dsml/types.ts'

export interface HistoryRepairOptions extends Omit<DsmlSanitizerOptions, 'mode' | 'role'> {
  /**
   * The note left where a tool call's markup was removed; `tool` is a tool it
   * named, if any (one note per tool). Return '' to leave nothing.
   * @default historyNote
   */
  note?: (tool: string | undefined) => string
}

/** The default note: `[removed leaked tool call: NAME]`, or `[removed leaked tool call]`. Never holds markup. */
export function historyNote(tool: string | undefined): string {
  return tool === undefined ? '[removed leaked tool call]' : `[removed leaked tool call: ${tool}]`
}

export interface RepairedHistoryText {
  text: string
  /** How many removed runs held a tool call (each got a note): calls the model wrote as text, which never ran. */
  removedCalls: number
  /** What the engine removed and decided (mode `strip`: every removed call is dropped markup). */
  diagnostics: Diagnostic[]
}

/** One assistant text with leaked markup removed, a note in place of each removed run that held a call. */
export function repairHistoryText(text: string, options: HistoryRepairOptions = {}): RepairedHistoryText {
  const note = options.note ?? historyNote
  const diagnostics: Diagnostic[] = []
  let out = ''
  let removed = ''
  let tools: string[] = []
  let removedCalls = 0
  const closeRemoval = (): void => {
    if (removed !== '' && (tools.length > 0 || holdsCallMarkup(removed))) {
      out += tools.length === 0 ? note(undefined) : tools.map((tool) => note(tool)).join(' ')
      removedCalls++
    }
    removed = ''
    tools = []
  }
  for (const event of sanitizeTextEvents(text, { ...options, mode: 'strip', role: 'assistant' })) {
    if (event.type === 'text') {
      closeRemoval()
      out += event.text
    } else if (event.type === 'diagnostic') {
      diagnostics.push(event.diagnostic)
      if (event.diagnostic.text === '') continue
      removed += event.diagnostic.text
      const tool = event.diagnostic.tool
      if (tool !== undefined && !tools.includes(tool)) tools.push(tool)
    }
  }
  closeRemoval()
  return { text: out, diagnostics, removedCalls }
}
