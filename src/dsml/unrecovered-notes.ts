/**
 * Calls that could not be recovered, and the note that says so.
 *
 * Markup removed without a call (cut off, an undeclared tool, arguments that
 * do not fit the schema, past the hold limit) leaves the user with a model
 * that stopped and nothing run. A visible note lets a client, or the user,
 * retry. One rule decides which removals held such a call (`RemovalRun`),
 * for the streams' `unrecoveredNote` and for history repair's notes alike:
 * a run of removed markup, between two texts, held a call when a diagnostic
 * of it named a tool no call of the run was recovered for, or when its text
 * holds call markup.
 *
 * The note holds no markup, so history repair leaves it as it is; it is
 * read back (`notedCalls`) so that the next request's recovery nudge can
 * name the call that did not run.
 */
import { holdsCallMarkup, mayHoldSentinel } from './sentinel.ts'
import type { Diagnostic, SanitizerEvent } from './types.ts'

/** A call that could not be recovered: the tool it named (if any), and why, in a few words. */
export interface UnrecoveredCall {
  tool: string | undefined
  reason: string
}

const NOTE_OPENING = '[tool call to "'
const NOTE_MIDDLE = '" could not be recovered: '
const UNNAMED_NOTE = '[a tool call could not be recovered: '
/** Longest tool name read back from a note (longer ones are not a note this library wrote). */
const MAX_NOTED_NAME = 256

/** `[tool call to "write_file" could not be recovered: the output was cut off]`; without a name, `[a tool call could not…]`. */
export function unrecoveredNote(call: UnrecoveredCall): string {
  return call.tool === undefined ? `${UNNAMED_NOTE}${call.reason}]` : `${NOTE_OPENING}${call.tool}${NOTE_MIDDLE}${call.reason}]`
}

/** The calls the unrecovered notes of `text` are about: each note's tool (undefined for a note naming none). */
export function notedCalls(text: string): Array<string | undefined> {
  const calls: Array<string | undefined> = []
  for (let at = text.indexOf(UNNAMED_NOTE); at !== -1; at = text.indexOf(UNNAMED_NOTE, at + 1)) calls.push(undefined)
  for (let at = text.indexOf(NOTE_OPENING); at !== -1; at = text.indexOf(NOTE_OPENING, at + 1)) {
    const nameStart = at + NOTE_OPENING.length
    const nameEnd = text.indexOf(NOTE_MIDDLE, nameStart)
    if (nameEnd === -1) break
    const tool = text.slice(nameStart, nameEnd)
    if (tool.length > 0 && tool.length <= MAX_NOTED_NAME && !tool.includes('"')) calls.push(tool)
  }
  return calls
}

/** Why a call removed with a diagnostic of `kind` was not recovered; `atEnd`: the diagnostic came from the end of the text. */
function reasonOf(kind: Diagnostic['kind'], atEnd: boolean): string {
  switch (kind) {
    case 'unknown-tool':
      return 'the tool is not declared'
    case 'schema-mismatch':
      return "its arguments did not fit the tool's schema"
    case 'hold-limit':
      return 'its markup grew past the hold limit'
    case 'dropped-markup':
      return atEnd ? 'the output was cut off' : 'its markup was incomplete'
    default:
      return 'its markup was removed'
  }
}

/**
 * One run of removed markup, read as its events come: `add` each, then
 * `close` when text follows (or the text ends) for the calls it could not
 * recover.
 */
export class RemovalRun {
  /** The pieces removed, joined only when no diagnostic named a tool and they may hold call markup. */
  #removed: string[] = []
  #unrecovered: UnrecoveredCall[] = []
  #recovered: string[] = []
  #firstKind: Diagnostic['kind'] | undefined = undefined
  #firstAtEnd = false

  /** A diagnostic that removed text, or a recovered call, of the run; `atEnd`: given out at the end of the text. */
  add(event: SanitizerEvent, atEnd: boolean): void {
    if (event.type === 'tool-call') {
      this.#recovered.push(event.call.name)
      return
    }
    if (event.type !== 'diagnostic' || event.diagnostic.text === '') return
    const diagnostic = event.diagnostic
    this.#removed.push(diagnostic.text)
    if (this.#firstKind === undefined) {
      this.#firstKind = diagnostic.kind
      this.#firstAtEnd = atEnd
    }
    const tool = diagnostic.tool
    if (tool !== undefined && !this.#unrecovered.some((call) => call.tool === tool)) this.#unrecovered.push({ tool, reason: reasonOf(diagnostic.kind, atEnd) })
  }

  /** Is a run open (markup removed since the last text)? */
  get open(): boolean {
    return this.#removed.length > 0 || this.#recovered.length > 0
  }

  /** The run ends: the calls it removed without recovering them (none: it held no call, or each was recovered). */
  close(): UnrecoveredCall[] {
    const recovered = this.#recovered
    let calls = this.#unrecovered.filter((call) => !recovered.includes(call.tool!))
    if (this.#unrecovered.length === 0 && recovered.length === 0 && this.#removed.some((piece) => mayHoldSentinel(piece)) && holdsCallMarkup(this.#removed.join(''))) {
      calls = [{ tool: undefined, reason: reasonOf(this.#firstKind!, this.#firstAtEnd) }]
    }
    this.#removed = []
    this.#unrecovered = []
    this.#recovered = []
    this.#firstKind = undefined
    this.#firstAtEnd = false
    return calls
  }
}

/**
 * The `unrecoveredNote` option: events as the engine gives them out, with a
 * note (a `text` event) after each run of removed markup that held a call
 * no call was recovered for, before the text that follows it.
 */
export class UnrecoveredNotes {
  #run = new RemovalRun()

  /** A run is open: the next text event gets the run's note (if it has one) before it. */
  get waiting(): boolean {
    return this.#run.open
  }

  /** `events` with the notes of the runs they close; `atEnd`: they are the end of the text, which closes the last run. */
  read(events: SanitizerEvent[], atEnd: boolean): SanitizerEvent[] {
    let out: SanitizerEvent[] | undefined
    for (let index = 0; index < events.length; index++) {
      const event = events[index]!
      if (event.type === 'text' && this.#run.open) {
        out ??= events.slice(0, index)
        this.#note(out)
      }
      if (event.type !== 'text') this.#run.add(event, atEnd)
      out?.push(event)
    }
    if (atEnd && this.#run.open) {
      out ??= events.slice()
      this.#note(out)
    }
    return out ?? events
  }

  #note(out: SanitizerEvent[]): void {
    const calls = this.#run.close()
    if (calls.length > 0) out.push({ type: 'text', text: calls.map(unrecoveredNote).join(' ') })
  }
}
