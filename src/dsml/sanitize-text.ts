/**
 * Whole-text entry points. They are the streaming engine fed once: there is
 * one implementation, not two, and one driver (`sanitizeTextEvents`) that
 * these and the whole-text history repair go through (the gateway's history
 * repair feeds the engine itself, so that a long text can be repaired in
 * slices). A text the grammar clears when read to its end never reaches the
 * engine: the grammar's answer (`couldHoldMarkup`) is the same one every
 * fast path asks.
 */
import { acceptsMarkerless } from './acceptance.ts'
import { type DsmlSanitizerOptions, resolveOptions, type ResolvedDsmlSanitizerOptions } from './options.ts'
import { couldHoldMarkup } from './partial-tags.ts'
import { createDsmlSanitizer } from './sanitizer.ts'
import type { Diagnostic, SanitizerEvent, ToolCall } from './types.ts'

export interface SanitizeTextResult {
  /** The text with leaked markup removed. */
  text: string
  /** Calls recovered from the markup (none in `strip` or `off` mode). */
  calls: ToolCall[]
  diagnostics: Diagnostic[]
}

/**
 * The engine's events for a whole text: fed once, then ended. A text the
 * grammar clears, read whole (`couldHoldMarkup`: no tag begun near its end
 * goes on, since nothing follows; with no tool declared, `acceptsMarkerless`,
 * no markerless form counts without a marker), comes out as it is without the
 * engine, and with no code fence followed (none can matter where nothing is markup).
 */
export function sanitizeTextEvents(text: string, options: DsmlSanitizerOptions | ResolvedDsmlSanitizerOptions | undefined): SanitizerEvent[] {
  if (typeof text !== 'string') throw new TypeError(`Cannot sanitize DSML: expected a string, got ${typeof text}`)
  const resolved = resolveOptions(options)
  if (!couldHoldMarkup(text, resolved.maxPendingChars, true, acceptsMarkerless(resolved))) return text.length === 0 ? [] : [{ type: 'text', text }]
  const sanitizer = createDsmlSanitizer(resolved)
  const events = sanitizer.feed(text)
  for (const event of sanitizer.end()) events.push(event)
  return events
}

/**
 * Removes leaked DSML markup from a whole text and recovers the calls it held.
 *
 * @example
 * ```ts
 * const { text, calls } = sanitizeText(storedAssistantText)
 * ```
 */
export function sanitizeText(text: string, options?: DsmlSanitizerOptions | ResolvedDsmlSanitizerOptions): SanitizeTextResult {
  let clean = ''
  const calls: ToolCall[] = []
  const diagnostics: Diagnostic[] = []
  for (const event of sanitizeTextEvents(text, options)) {
    if (event.type === 'text') clean += event.text
    else if (event.type === 'tool-call') calls.push(event.call)
    else if (event.type === 'diagnostic') diagnostics.push(event.diagnostic)
  }
  return { text: clean, calls, diagnostics }
}

export interface ParseDsmlResult {
  calls: ToolCall[]
  /** Removed spans of the input, `[start, end)` in UTF-16 offsets, sorted, adjacent spans merged. */
  ranges: Array<[start: number, end: number]>
}

/**
 * Finds the calls in a text and the spans of markup that a sanitizer removes.
 *
 * @example
 * ```ts
 * const { calls, ranges } = parseDsml(text)
 * ```
 */
export function parseDsml(text: string, options?: DsmlSanitizerOptions | ResolvedDsmlSanitizerOptions): ParseDsmlResult {
  const calls: ToolCall[] = []
  const ranges: Array<[number, number]> = []
  let offset = 0
  const removed = (length: number): void => {
    if (length === 0) return
    const last = ranges[ranges.length - 1]
    if (last !== undefined && last[1] === offset) last[1] = offset + length
    else ranges.push([offset, offset + length])
    offset += length
  }
  for (const event of sanitizeTextEvents(text, options)) {
    if (event.type === 'text') offset += event.text.length
    else if (event.type === 'tool-call') {
      calls.push(event.call)
      removed(event.source.length)
    } else if (event.type === 'diagnostic') removed(event.diagnostic.text.length)
  }
  return { calls, ranges }
}
