/**
 * `dsml-streams sanitize [FILE|-]`: repairs what a model wrote — plain text,
 * a Chat Completions SSE stream, or a JSON `chat.completion` (detected from
 * the input's start, see `input-format.ts`, or `--format`) — and writes the
 * repaired input to stdout, with a one-line summary of the recovered calls
 * and removed markup on stderr. `--json` writes the events instead, one JSON
 * line each: for text, the sanitizer's events (text, tool calls,
 * diagnostics); for SSE and JSON, the diagnostics (a recovered call is one).
 *
 * Memory: text and SSE are repaired a read at a time through the incremental
 * cores (`createDsmlSanitizer`, `createChatCompletionsRepair`) and written as
 * they come. A JSON body is read whole and parsed once (its text is then
 * let go), and written in pieces (`jsonPieces`), never as one string; a
 * long repaired message stays the pieces the repair gave (`LongTexts`),
 * each written on its own, never joined. Text with `--json` is read
 * whole too: its events are those of the text fed whole
 * (`sanitizeTextEvents`), as before, not one text event per read.
 */
import { createChatCompletionsRepair } from '../chat-completions/repair.ts'
import { repairChatCompletionWith } from '../chat-completions/response.ts'
import { createDsmlSanitizer } from '../dsml/sanitizer.ts'
import { sanitizeTextEvents } from '../dsml/sanitize-text.ts'
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import type { Diagnostic, SanitizerEvent } from '../dsml/types.ts'
import { jsonPieces } from '../json-pieces.ts'
import { MAX_JSON_DEPTH, parseBoundedJson } from '../json-text.ts'
import { LongTexts } from '../long-texts.ts'
import { type DetectedInput, detectFormat, type InputFormat } from './input-format.ts'
import { InputReads, type TextInput } from './input-reads.ts'
import { SanitizeSummary } from './sanitize-summary.ts'

export const SANITIZE_USAGE = `Usage: dsml-streams sanitize [FILE|-] [options]

Repairs leaked DSML tool calls in FILE (or standard input, "-" or no FILE):
plain text, a Chat Completions SSE stream, or a JSON chat.completion. Writes
the repaired input to stdout and a summary to stderr.

  --format F          auto (default) | text | sse | json
  --json              write the events instead, one JSON line each
  --known-tools A,B   only these tool names may be recovered
  --mode MODE         recover (default) | strip (remove markup, never add calls)
  -h, --help          this text
`

export interface SanitizeSettings {
  /** `auto` detects it (`detectFormat`). */
  format: 'auto' | InputFormat
  options: DsmlSanitizerOptions
  /** `--json`: the events, one JSON line each, instead of the repaired input. */
  asEvents: boolean
}

/** Writes a piece of the output; resolves when the next may be written (the output's backpressure). */
export type WriteOutput = (text: string) => Promise<void>

/**
 * Repairs the input and writes the output as it comes. Resolves to the
 * summary line for stderr; rejects with a one-line message for an input it
 * cannot read (as the format asked for).
 */
export async function sanitize(source: TextInput, settings: SanitizeSettings, write: WriteOutput): Promise<string> {
  const input = await detected(new InputReads(source), settings.format)
  const format = input.format // the summary's: `input` (the parsed body) is not needed past the repair
  const summary = new SanitizeSummary()
  if (input.format === 'json') await repairJson(input.body, settings, summary, write)
  else if (input.format === 'sse') await repairSse(input.reads, settings, summary, write)
  else if (settings.asEvents) await writeTextEvents(await input.reads.text(), settings.options, summary, write)
  else await repairText(input.reads, settings.options, summary, write)
  return summary.line(format)
}

async function detected(reads: InputReads, format: SanitizeSettings['format']): Promise<DetectedInput> {
  if (format === 'auto') return detectFormat(reads)
  if (format !== 'json') return { format, reads }
  const body = parseBoundedJson(await reads.text())
  if (body === undefined) throw new Error(`the input is not JSON nested at most ${MAX_JSON_DEPTH} deep (try --format text or sse)`)
  return { format, body: body.value }
}

/** Writes `value` as one JSON line, in pieces. */
async function writeJsonLine(value: unknown, write: WriteOutput, indent?: number, longTexts?: LongTexts): Promise<void> {
  let last = ''
  for (const piece of jsonPieces(value, { ...(indent === undefined ? {} : { indent }), ...(longTexts === undefined ? {} : { longTexts }) })) {
    if (last !== '') await write(last)
    last = piece
  }
  await write(`${last}\n`)
}

/** Diagnostics to the summary and, with `--json`, each as a line. */
async function writeDiagnostics(diagnostics: readonly Diagnostic[], settings: SanitizeSettings, summary: SanitizeSummary, write: WriteOutput): Promise<void> {
  for (const diagnostic of diagnostics) {
    summary.note(diagnostic)
    if (settings.asEvents) await writeJsonLine({ type: 'diagnostic', diagnostic }, write)
  }
}

/** The text of these events; their diagnostics go to the summary. */
function textOf(events: readonly SanitizerEvent[], summary: SanitizeSummary): string {
  let text = ''
  for (const event of events) {
    if (event.type === 'text') text += event.text
    else if (event.type === 'diagnostic') summary.note(event.diagnostic)
  }
  return text
}

async function repairText(reads: AsyncIterable<string>, options: DsmlSanitizerOptions, summary: SanitizeSummary, write: WriteOutput): Promise<void> {
  const sanitizer = createDsmlSanitizer(options)
  for await (const read of reads) await write(textOf(sanitizer.feed(read), summary))
  await write(textOf(sanitizer.end(), summary))
}

async function writeTextEvents(text: string, options: DsmlSanitizerOptions, summary: SanitizeSummary, write: WriteOutput): Promise<void> {
  for (const event of sanitizeTextEvents(text, options)) {
    if (event.type === 'diagnostic') summary.note(event.diagnostic)
    await writeJsonLine(event, write)
  }
}

async function repairSse(reads: AsyncIterable<string>, settings: SanitizeSettings, summary: SanitizeSummary, write: WriteOutput): Promise<void> {
  const diagnostics: Diagnostic[] = []
  const repair = createChatCompletionsRepair({ ...settings.options, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) })
  // Input that is not blank but gives no SSE at all (no event, no comment) is not an SSE stream: it must not vanish.
  let read = false
  let written = false
  const emit = async (output: string): Promise<void> => {
    if (output !== '') written = true
    await writeDiagnostics(diagnostics.splice(0), settings, summary, write)
    if (!settings.asEvents) await write(output)
  }
  for await (const piece of reads) {
    if (!read && piece.trim() !== '') read = true
    await emit(repair.feed(piece))
  }
  await emit(repair.end())
  if (read && !written) throw new Error('the input holds no SSE event or comment (no "data:" line): it is not an SSE stream (try --format text)')
}

async function repairJson(body: unknown, settings: SanitizeSettings, summary: SanitizeSummary, write: WriteOutput): Promise<void> {
  const diagnostics: Diagnostic[] = []
  // A long repaired text stays the pieces the repair gave, written one by one: never joined into one string.
  const longTexts = new LongTexts()
  const repaired = repairChatCompletionWith(body, { ...settings.options, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) }, (pieces) => longTexts.join(pieces))
  await writeDiagnostics(diagnostics, settings, summary, write)
  if (settings.asEvents) return
  // Nothing to repair (undefined): the body, written back as the repaired one would be.
  await writeJsonLine(repaired ?? body, write, 2, longTexts)
}
