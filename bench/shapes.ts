/**
 * The engine benchmark's inputs and the two ways it feeds them, shared by
 * `run.ts` and the doubling runs it starts in fresh processes (`doubling.ts`).
 */
import { createDsmlSanitizer, type DsmlSanitizerOptions, sanitizeText } from '../src/dsml/index.ts'
import { ampersandParameter, bigParameter, blockDense, blocksToTheEnd, driftDense, escapedRuns, driftLookAlikes, htmlText, lessThanDense, prose, runsPastTheCap, spansOnOneLine, toolNameTagClosers, tsxText, xmlParameters } from './inputs.ts'
import { measureInterleaved } from './measure.ts'

export const MB = 1e6

export function whole(text: string, options?: DsmlSanitizerOptions): number {
  const result = sanitizeText(text, options)
  return result.text.length + result.calls.length + result.diagnostics.length
}

export function fedBy4(text: string, options?: DsmlSanitizerOptions): number {
  const sanitizer = createDsmlSanitizer(options)
  let events = 0
  for (let index = 0; index < text.length; index += 4) events += sanitizer.feed(text.slice(index, index + 4)).length
  return events + sanitizer.end().length
}

export function fedBy64(text: string, options?: DsmlSanitizerOptions): number {
  const sanitizer = createDsmlSanitizer(options)
  let events = 0
  for (let index = 0; index < text.length; index += 64) events += sanitizer.feed(text.slice(index, index + 64)).length
  return events + sanitizer.end().length
}

// ── inputs ───────────────────────────────────────────────────────────────

export interface Shape {
  key: string
  label: string
  /** Input of about `size` code units. */
  make(size: number): string
  options?: DsmlSanitizerOptions
  /** Size for the throughput table. */
  size: number
  /** n of the doubling run. */
  n: number
  /** Options for the doubling run, when they differ. */
  doublingOptions?: DsmlSanitizerOptions
  doublingNote?: string
}

export const SHAPES: Shape[] = [
  { key: 'a', label: '(a) prose, `<` every ~200 chars', make: (size) => prose(size, 1), size: 5 * MB, n: 1 * MB },
  {
    key: 'b',
    label: '(b) prose + 500 canonical blocks per MB',
    make: (size) => blockDense(size, Math.round((500 * size) / MB), 2),
    size: 1 * MB,
    n: 1 * MB,
  },
  {
    key: 'c-drop',
    label: '(c) one 1 MB parameter value, default maxHoldChars (hold-limit, dropped)',
    make: (size) => bigParameter(size, 3),
    size: 1 * MB,
    n: 1 * MB,
  },
  {
    key: 'c-keep',
    label: '(c) one 1 MB parameter value, maxHoldChars 4_000_000 (recovered)',
    make: (size) => bigParameter(size, 3),
    options: { maxHoldChars: 4_000_000 },
    size: 1 * MB,
    n: 1 * MB,
    doublingOptions: { maxHoldChars: 16_000_000 },
    doublingNote: 'here maxHoldChars 16_000_000, so 4n is recovered too',
  },
  { key: 'd', label: '(d) prose, `<` every 5 chars', make: (size) => lessThanDense(size, 4), size: 1 * MB, n: 1 * MB },
  {
    key: 'e',
    label: '(e) one 1 MB parameter value of `&` with no `;`, maxHoldChars 4_000_000 (entities)',
    make: (size) => ampersandParameter(size),
    options: { maxHoldChars: 4_000_000 },
    size: 1 * MB,
    n: 1 * MB,
    doublingOptions: { maxHoldChars: 16_000_000 },
    doublingNote: 'here maxHoldChars 16_000_000, so 4n is recovered too',
  },
  {
    key: 'f',
    label: '(f) prose + drifted blocks (drifted marker words, doubled slashes, tool-name tags, compact form, lost-marker openers)',
    make: (size) => driftDense(size, 5),
    options: { tools: [{ name: 'bash' }, { name: 'execute_command' }, { name: 'execute_bash', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }] },
    size: 1 * MB,
    n: 1 * MB,
  },
  { key: 'g', label: '(g) look-alikes the drift rules read further: spaced full-width bars, `</ /`, `<|word|`, unclosed backtick runs', make: (size) => driftLookAlikes(size, 6), size: 1 * MB, n: 1 * MB },
  {
    key: 'h',
    label: '(h) one tag named after a tool, its text not elements, then 1 MB of generic closers, maxHoldChars 4_000_000',
    make: (size) => toolNameTagClosers(size),
    options: { maxHoldChars: 4_000_000 },
    size: 1 * MB,
    n: 1 * MB,
    doublingOptions: { maxHoldChars: 16_000_000 },
    doublingNote: 'here maxHoldChars 16_000_000',
  },
  { key: 'i', label: '(i) one line of inline code spans, each holding a DSML tag (a code-span gate each)', make: (size) => spansOnOneLine(size), size: 1 * MB, n: 1 * MB },
  { key: 'j', label: '(j) one line of backtick runs of 1–360 backticks, each before a DSML block (every gate reaches the cap)', make: (size) => runsPastTheCap(size), size: 1 * MB, n: 1 * MB },
  { key: 'k', label: '(k) prose of escaped backtick runs, no DSML', make: (size) => escapedRuns(size), size: 1 * MB, n: 1 * MB },
  { key: 'l', label: '(l) one paragraph to the end of the text: an escaped run, then a DSML block, again and again', make: (size) => blocksToTheEnd(size), size: 1 * MB, n: 1 * MB },
]

/** Markup-dense text with no DSML in it, each compared with prose of the same size. */
export const DENSE_SHAPES: ReadonlyArray<{ key: string; label: string; make(size: number): string }> = [
  { key: 'prose', label: 'prose, `<` every ~200 chars (the baseline)', make: (size) => prose(size, 11) },
  { key: 'lt5', label: '`<` every 5 chars', make: (size) => lessThanDense(size, 12) },
  { key: 'html', label: 'HTML', make: (size) => htmlText(size, 13) },
  { key: 'tsx', label: 'TypeScript / JSX generics', make: (size) => tsxText(size, 14) },
  { key: 'xml', label: 'XML: `<param name>`, `<parameters>`, `<invoke …/>`', make: (size) => xmlParameters(size, 15) },
]

export const DENSE_SIZE = 1_000_000

export interface DenseResult {
  /** Median ms per shape (in `DENSE_SHAPES` order), whole and fed by 64. */
  whole: number[]
  fed: number[]
}

/** Times every dense shape and prose in interleaved rounds, whole and fed by 64. */
export function measureDense(): DenseResult {
  const texts = DENSE_SHAPES.map((shape) => shape.make(DENSE_SIZE))
  const options = { warmup: 3, minRuns: 9, maxRuns: 31, budgetMs: 3000 }
  return {
    whole: measureInterleaved(texts.map((text) => () => whole(text)), options),
    fed: measureInterleaved(texts.map((text) => () => fedBy64(text)), options),
  }
}
