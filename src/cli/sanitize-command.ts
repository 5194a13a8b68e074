/**
 * `dsml-streams sanitize [FILE|-]`: repairs what a model wrote — plain text,
 * a Chat Completions SSE stream, or a JSON `chat.completion` (detected, or
 * `--format`) — and writes the repaired input to stdout, with a one-line
 * summary of the recovered calls and removed markup on stderr. `--json`
 * writes the events instead, one JSON line each: for text, the sanitizer's
 * events (text, tool calls, diagnostics); for SSE and JSON, the
 * diagnostics (a recovered call is one). Node glue.
 */
import { createChatCompletionsRepair } from '../chat-completions/repair.ts'
import { repairChatCompletion } from '../chat-completions/response.ts'
import { sanitizeTextEvents } from '../dsml/sanitize-text.ts'
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import type { Diagnostic } from '../dsml/types.ts'
import { MAX_JSON_DEPTH, parseBoundedJson } from '../json-text.ts'

export type InputFormat = 'text' | 'sse' | 'json'

export const SANITIZE_USAGE = `Usage: dsml-streams sanitize [FILE|-] [options]

Repairs leaked DSML tool calls in FILE (or standard input, "-" or no FILE):
plain text, a Chat Completions SSE stream, or a JSON chat.completion. Writes
the repaired input to stdout and a summary to stderr.

  --format F          auto (default) | text | sse | json
  --json              write the events instead, one JSON line each
  --known-tools A,B   only these tool names may be recovered
  --mode MODE         recover (default) | strip (remove markup, never add calls)
  --help              this text
`

/** `json` for a JSON object with `choices`, `sse` for text with a `data:` line, else `text`. */
export function detectFormat(input: string): InputFormat {
  const trimmed = input.trimStart()
  if (trimmed.startsWith('{')) {
    // Not JSON (or nested too deep): text or SSE.
    const value = parseBoundedJson(trimmed)?.value
    if (value !== null && typeof value === 'object' && 'choices' in value) return 'json'
  }
  return /^data:/m.test(input) ? 'sse' : 'text'
}

export interface SanitizeOutcome {
  /** What goes to stdout. */
  output: string
  /** The one-line summary for stderr. */
  summary: string
}

function summarize(format: InputFormat, diagnostics: readonly Diagnostic[]): string {
  const recovered = diagnostics.filter((diagnostic) => diagnostic.kind === 'recovered-call').map((diagnostic) => diagnostic.tool ?? '?')
  const removed = diagnostics.filter((diagnostic) => diagnostic.kind !== 'recovered-call' && diagnostic.text !== '').length
  const calls = recovered.length === 0 ? 'no call recovered' : `${recovered.length} call${recovered.length === 1 ? '' : 's'} recovered (${recovered.join(', ')})`
  const markup = removed === 0 ? 'no other markup removed' : `${removed} other markup region${removed === 1 ? '' : 's'} removed`
  return `dsml-streams: ${format}: ${calls}; ${markup}`
}

export function sanitizeInput(input: string, format: InputFormat, options: DsmlSanitizerOptions, asEvents: boolean): SanitizeOutcome {
  const diagnostics: Diagnostic[] = []
  if (format === 'text') {
    const events = sanitizeTextEvents(input, options)
    let text = ''
    for (const event of events) {
      if (event.type === 'text') text += event.text
      else if (event.type === 'diagnostic') diagnostics.push(event.diagnostic)
    }
    return { output: asEvents ? events.map((event) => `${JSON.stringify(event)}\n`).join('') : text, summary: summarize(format, diagnostics) }
  }
  const repairOptions = { ...options, onDiagnostic: (diagnostic: Diagnostic) => diagnostics.push(diagnostic) }
  let output: string
  if (format === 'sse') {
    const repair = createChatCompletionsRepair(repairOptions)
    output = repair.feed(input) + repair.end()
  } else {
    const body = parseBoundedJson(input)?.value
    if (body === undefined) throw new Error(`the input is not JSON nested at most ${MAX_JSON_DEPTH} deep (try --format text or sse)`)
    output = `${JSON.stringify(repairChatCompletion(body, repairOptions), null, 2)}\n`
  }
  return { output: asEvents ? diagnostics.map((diagnostic) => `${JSON.stringify({ type: 'diagnostic', diagnostic })}\n`).join('') : output, summary: summarize(format, diagnostics) }
}
