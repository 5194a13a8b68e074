/**
 * Chunking oracles: feed the same input whole, split at every offset, one code
 * point at a time, and compare normalised event logs (adjacent text merged,
 * call ids replaced by their order).
 */
import { createDsmlSanitizer } from '../../src/dsml/index.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import type { SanitizerEvent } from '../../src/dsml/types.ts'

/** Runs the engine over `chunks`, returning every event in order. */
export function runChunks(chunks: readonly string[], options: DsmlSanitizerOptions = {}): SanitizerEvent[] {
  let counter = 0
  const sanitizer = createDsmlSanitizer({ generateId: () => `call_${++counter}`, ...options })
  const events: SanitizerEvent[] = []
  for (const chunk of chunks) events.push(...sanitizer.feed(chunk))
  events.push(...sanitizer.end())
  return events
}

/** Merges adjacent text events and drops empty ones, so chunking does not show. */
export function normalizeEvents(events: readonly SanitizerEvent[]): SanitizerEvent[] {
  const merged: SanitizerEvent[] = []
  for (const event of events) {
    if (event.type === 'text') {
      if (event.text === '') continue
      const last = merged[merged.length - 1]
      if (last?.type === 'text') {
        merged[merged.length - 1] = { type: 'text', text: last.text + event.text }
        continue
      }
    }
    merged.push(event)
  }
  return merged
}

/** Splits `text` into code points (never inside a surrogate pair). */
export function codePoints(text: string): string[] {
  return Array.from(text)
}

/** Every two-way split `[text.slice(0, i), text.slice(i)]`, for i in 1..length-1 (UTF-16 offsets). */
export function* everySplit(text: string): Generator<string[]> {
  for (let index = 1; index < text.length; index++) yield [text.slice(0, index), text.slice(index)]
}

/** Fixed-size pieces of `size` UTF-16 units. */
export function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = []
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size))
  return pieces
}

/** The input rebuilt from events: text + call sources + dropped diagnostic text. */
export function reassemble(events: readonly SanitizerEvent[]): string {
  let out = ''
  for (const event of events) {
    if (event.type === 'text') out += event.text
    else if (event.type === 'tool-call') out += event.source
    else if (event.type === 'diagnostic') out += event.diagnostic.text
  }
  return out
}

/** Output text only. */
export function textOf(events: readonly SanitizerEvent[]): string {
  let out = ''
  for (const event of events) if (event.type === 'text') out += event.text
  return out
}

/** Recovered calls, without ids. */
export function callsOf(events: readonly SanitizerEvent[]): Array<{ name: string; arguments: Record<string, unknown> }> {
  const calls: Array<{ name: string; arguments: Record<string, unknown> }> = []
  for (const event of events) {
    if (event.type === 'tool-call') calls.push({ name: event.call.name, arguments: { ...event.call.arguments } })
  }
  return calls
}

/**
 * Asserts that whole, every two-way split, and one code point at a time all
 * give the same normalised events. Returns the whole-input events.
 * Long inputs (over `denseLimit`) are split at a dense sample of offsets.
 */
export function assertChunkInvariant(
  text: string,
  options: DsmlSanitizerOptions = {},
  compare: (actual: unknown, expected: unknown, message: string) => void,
  denseLimit = 4000,
): SanitizerEvent[] {
  const whole = normalizeEvents(runChunks([text], options))
  const step = text.length > denseLimit ? Math.ceil(text.length / denseLimit) : 1
  for (let index = 1; index < text.length; index += step) {
    const split = normalizeEvents(runChunks([text.slice(0, index), text.slice(index)], options))
    compare(split, whole, `split at offset ${index} differs from whole input`)
  }
  compare(normalizeEvents(runChunks(codePoints(text), options)), whole, 'one code point at a time differs from whole input')
  return whole
}
