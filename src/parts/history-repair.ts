/**
 * History repair, one rule for every adapter: leaked markup replayed as
 * history makes the model imitate it, so an assistant text loses it. Where
 * removed markup held a tool call, a short note takes its place, naming the
 * tools (`[removed leaked tool call: edit]`), so the model does not believe
 * it ran a tool it never ran; removed special tokens leave nothing. Synthetic
 * calls are never added to history (they would run twice).
 *
 * Only the text an assistant turn showed is repaired. Its reasoning
 * (`reasoning_content`, Anthropic's `thinking` blocks, the Responses API's
 * reasoning items, the AI SDK's `reasoning` parts) is kept as written, in
 * every adapter: providers sign or encrypt it and refuse an edited one, and
 * reasoning this library produced was repaired on its way out.
 */
import { type DsmlSanitizerOptions, type ResolvedOptions, resolveOptions } from '../dsml/options.ts'
import { createDsmlSanitizer } from '../dsml/sanitizer.ts'
import { sanitizeTextEvents } from '../dsml/sanitize-text.ts'
import { notedCalls, RemovalRun } from '../dsml/unrecovered-notes.ts'
import type { Diagnostic, SanitizerEvent } from '../dsml/types.ts'
import type { LongTexts } from '../long-texts.ts'
import { TextBuilder } from '../text-builder.ts'

/** History repair's options. An options object is read once, at its first text: a request's texts share it. */
export interface HistoryRepairOptions extends Omit<DsmlSanitizerOptions, 'mode' | 'role' | 'unrecoveredNote' | 'runawayRepeat' | 'streamToolCalls'> {
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
  /**
   * How many calls the model wrote as text, which never ran: removed runs
   * that held a call (each got a note), and unrecovered notes already in the
   * text (`unrecoveredNote` wrote them when the reply was repaired).
   */
  removedCalls: number
  /** The tools those calls named, each once (the recovery nudge names them). */
  unrunTools: string[]
  /** What the engine removed and decided (mode `strip`: every removed call is dropped markup). */
  diagnostics: Diagnostic[]
}

/** Repairs one assistant text of a history: `repairHistoryText`, or the same in slices (`history-slices.ts`). */
export type HistoryTextRepair = (text: string, options: HistoryRepairOptions) => RepairedHistoryText

/** One assistant text's repair, fed in pieces (the engine is the same whatever the pieces), then ended. */
export interface HistoryTextRepairer {
  feed(text: string): void
  /**
   * The repair of `input`, the text that was fed. When nothing was removed,
   * its text is `input` itself (the text fed, not its pieces joined again):
   * its owner finds it unchanged by comparing one string with itself.
   */
  end(input: string): RepairedHistoryText
}

/** The repair of one text from the engine's events: `read` them as they come, then `end`. */
interface EventRepair {
  read(events: readonly SanitizerEvent[]): void
  end(input: string): RepairedHistoryText
}

/**
 * The engine's options for history repair, resolved once per options object:
 * every text of one request is repaired with the same object, so a long
 * history resolves (and validates) them once, not once per message.
 */
const resolvedFor = new WeakMap<HistoryRepairOptions, ResolvedOptions>()

function engineOptions(options: HistoryRepairOptions): ResolvedOptions {
  let resolved = resolvedFor.get(options)
  if (resolved === undefined) {
    resolved = resolveOptions({ ...options, mode: 'strip', role: 'assistant', unrecoveredNote: false, runawayRepeat: 0, meter: undefined, streamToolCalls: false } satisfies DsmlSanitizerOptions)
    resolvedFor.set(options, resolved)
  }
  return resolved
}

function createEventRepair(options: HistoryRepairOptions, longTexts: LongTexts | undefined): EventRepair {
  const note = options.note ?? historyNote
  const diagnostics: Diagnostic[] = []
  const out = new TextBuilder()
  // The run removed since the last text: which runs held a call is the engine's rule (`RemovalRun`), the streams' too.
  const run = new RemovalRun()
  let removedCalls = 0
  const unrunTools: string[] = []
  const unrun = (tool: string | undefined): void => {
    if (tool !== undefined && !unrunTools.includes(tool)) unrunTools.push(tool)
  }
  let changed = false
  const closeRemoval = (): void => {
    if (!run.open) return
    changed = true
    const calls = run.close()
    if (calls.length === 0) return
    out.append(calls.map((call) => note(call.tool)).join(' '))
    for (const call of calls) unrun(call.tool)
    removedCalls++
  }
  return {
    read(events) {
      for (const event of events) {
        if (event.type === 'text') {
          closeRemoval()
          out.append(event.text)
        } else {
          if (event.type === 'diagnostic') diagnostics.push(event.diagnostic)
          run.add(event, false)
        }
      }
    },
    end(input) {
      closeRemoval()
      if (!changed) out.clear()
      // Notes of calls not recovered when the reply was repaired: the model wrote them, and they never ran.
      const noted = notedCalls(input)
      for (const tool of noted) unrun(tool)
      return { text: changed ? (longTexts?.take(out) ?? out.take()) : input, diagnostics, removedCalls: removedCalls + noted.length, unrunTools }
    },
  }
}

/**
 * A repair of one assistant text: leaked markup removed, a note in place of
 * each removed run that held a call. With `longTexts`, a long repaired text is
 * given as the pieces it was made of (`LongTexts`), never joined.
 */
export function createHistoryTextRepairer(options: HistoryRepairOptions = {}, longTexts?: LongTexts): HistoryTextRepairer {
  const sanitizer = createDsmlSanitizer(engineOptions(options))
  const repair = createEventRepair(options, longTexts)
  return {
    feed(text) {
      repair.read(sanitizer.feed(text))
    },
    end(input) {
      repair.read(sanitizer.end())
      return repair.end(input)
    },
  }
}

/** One assistant text with leaked markup removed, a note in place of each removed run that held a call. Read whole (`sanitizeTextEvents`). */
export function repairHistoryText(text: string, options: HistoryRepairOptions = {}): RepairedHistoryText {
  if (typeof text !== 'string') throw new TypeError(`Cannot repair history: expected a string, got ${typeof text}`)
  const repair = createEventRepair(options, undefined)
  repair.read(sanitizeTextEvents(text, engineOptions(options)))
  return repair.end(text)
}
