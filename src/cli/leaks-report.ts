/**
 * The report `npm start` prints: each real captured leak, run through the
 * engine, with what leaked and what was recovered, as a readable table.
 */
import { sanitizeText } from '../dsml/sanitize-text.ts'
import type { DsmlSanitizerOptions } from '../dsml/options.ts'
import { markerSpellings } from '../dsml/sentinel.ts'
import type { DeclaredTool } from '../dsml/tool-schema.ts'

export { markerSpellings }

export interface LeakCapture {
  id: string
  source?: string
  shape?: string
  input: string
  expected_calls?: Array<{ name: string; arguments: Record<string, unknown> }>
  expected_text?: string
  /** The tools the capture's request declared (with their schemas): its recovered calls are checked against them. */
  tools?: DeclaredTool[]
}

export interface LeakReportRow {
  id: string
  /** Characters of the capture, and how many of them were markup. */
  inputChars: number
  removedChars: number
  /** Marker spellings seen, shown with `‹DSML›` instead of live bytes. */
  spellings: string[]
  calls: string[]
  textKept: string
  diagnostics: number
  matchesExpected: boolean
}

function describeArguments(args: Record<string, unknown>): string {
  return Object.keys(args).join(', ')
}

function equalJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

export function reportRow(capture: LeakCapture, options: DsmlSanitizerOptions = {}): LeakReportRow {
  const declared = capture.tools !== undefined && capture.tools.length > 0 ? { tools: capture.tools } : {}
  const result = sanitizeText(capture.input, { ...declared, ...options })
  const calls = result.calls.map((call) => ({ name: call.name, arguments: { ...call.arguments } }))
  const matchesExpected =
    (capture.expected_calls === undefined || equalJson(calls, capture.expected_calls)) &&
    (capture.expected_text === undefined || result.text.trimEnd() === capture.expected_text.trimEnd())
  return {
    id: capture.id,
    inputChars: capture.input.length,
    removedChars: capture.input.length - result.text.length,
    spellings: markerSpellings(capture.input),
    calls: calls.map((call) => `${call.name}(${describeArguments(call.arguments)})`),
    textKept: result.text.trim(),
    diagnostics: result.diagnostics.length,
    matchesExpected,
  }
}

function fit(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat.padEnd(width)
}

/** Renders rows as a fixed-width table plus a summary line. */
export function renderReport(rows: readonly LeakReportRow[]): string {
  const header = `${fit('capture', 44)} ${fit('leaked', 24)} ${fit('recovered calls', 46)} ${fit('text kept', 24)} ok`
  const lines = [header, '-'.repeat(header.length)]
  for (const row of rows) {
    const leaked = `${row.removedChars}/${row.inputChars} ch ${row.spellings.join(' ') || 'markerless'}`
    const calls = row.calls.length === 0 ? '—' : row.calls.join('; ')
    const text = row.textKept === '' ? '—' : row.textKept
    lines.push(`${fit(row.id, 44)} ${fit(leaked, 24)} ${fit(calls, 46)} ${fit(text, 24)} ${row.matchesExpected ? '✓' : '✗'}`)
  }
  const matched = rows.filter((row) => row.matchesExpected).length
  const calls = rows.reduce((sum, row) => sum + row.calls.length, 0)
  lines.push('-'.repeat(header.length))
  lines.push(`${matched}/${rows.length} captures give their expected calls and text; ${calls} calls recovered.`)
  return lines.join('\n')
}
