/**
 * Inline code spans (issue 21: "inline code spans are documentation") against
 * the CommonMark reference parser (commonmark.js 0.31.2, a development
 * dependency): for random Markdown built from backtick runs, backslashes and
 * block-structure pieces, a probe is in a code span by the fence tracker and
 * its watch (`codeSpanOpenAt`, then a clone watching ahead: what the engine's
 * `CodeSpanGate` asks) exactly when the reference puts it in an inline `code`
 * node. `<` and `&` are left out of the alphabet: raw HTML and autolinks take
 * precedence over code spans, and the tracker does not follow them.
 *
 * The engine end to end, too: a DSML call written inside a span the
 * reference reads as code, among random Markdown, is emitted as it is and
 * never run, whole and in pieces.
 *
 * Node only (vitest): the portable suites run under Deno and Bun without npm
 * packages.
 */
import { Parser } from 'commonmark'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { inCodeSpanAt } from '../support/code-text.ts'
import { createFenceTracker } from '../../src/dsml/fence-tracker.ts'
import { normalizeEvents, runChunks } from '../support/chunking.ts'

const PROBE = 'Q'
const PIECES = [
  '`', '`', '`', '``', '```', '````', '\\', '\\`', '\\\\`', '`a`', '``a``', ' `', '` ',
  '\n', '\n', '\n\n', '\r\n', ' ', '    ', 'a', 'b c', '~~~', '```x', '```\n',
  '> ', '- ', '1. ', '# ', '---', '===', '*',
]

const parser = new Parser()

/** The probes the reference parser puts inside inline code spans. */
function probesInSpansByCommonMark(document: string): string[] {
  const walker = parser.parse(document).walker()
  const inside: string[] = []
  for (let event = walker.next(); event !== null; event = walker.next()) {
    const node = event.node
    if (event.entering && node.type === 'code') for (const match of (node.literal ?? '').matchAll(/Q\d+Z/g)) inside.push(match[0])
  }
  return inside.sort()
}

/** The probes the tracker puts inside code spans, asked at each probe's first character; the text before fed in `chunk`-character pieces. */
function probesInSpansByTracker(document: string, chunk: number): string[] {
  const tracker = createFenceTracker()
  const inside: string[] = []
  let tracked = 0
  for (let index = document.indexOf(PROBE); index !== -1; index = document.indexOf(PROBE, index + 1)) {
    for (; tracked < index; tracked = Math.min(index, tracked + chunk)) tracker.track(document, tracked, Math.min(index, tracked + chunk))
    if (inCodeSpanAt(tracker, document, index)) inside.push(document.slice(index, document.indexOf('Z', index) + 1))
  }
  return inside.sort()
}

const documents = fc
  .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.constant(PROBE) }), { maxLength: 60, size: 'max' })
  .map((pieces) => {
    let probes = 0
    return pieces.map((piece) => (piece === PROBE ? `${PROBE}${probes++}Z` : piece)).join('')
  })

/** A call as the model writes it, built at run time; `QQQ` marks its text in the reference's tree. */
const BAR = '\uFF5C'
const MARKER = `${BAR}DSML${BAR}`
const CALL = `<${MARKER}tool_calls><${MARKER}invoke name="bash"><${MARKER}parameter name="command" string="true">QQQ</${MARKER}parameter></${MARKER}invoke></${MARKER}tool_calls>`

/** Markdown around the span: backtick runs, escapes, block structure, and `<` and bars that start no markup. */
const NOISE = ['`', '`', '``', '```', '\\', '\\`', '\n', '\n\n', ' ', 'a', '<|x', '< /', 'a < b', '|', '> ', '- ', '# ', '~~~', '*']
const noise = fc.array(fc.constantFrom(...NOISE), { maxLength: 12 }).map((pieces) => pieces.join(''))

/** Does the reference put the call's text in an inline code node? */
function callInSpanByCommonMark(document: string): boolean {
  const walker = parser.parse(document).walker()
  for (let event = walker.next(); event !== null; event = walker.next()) {
    if (event.entering && event.node.type === 'code' && (event.node.literal ?? '').includes('QQQ')) return true
  }
  return false
}

/** The tags of a call, in order, and its value: a call cut at a tag boundary stays made of whole tags. */
const CALL_PIECES = [
  `<${MARKER}tool_calls>`, `<${MARKER}invoke name="bash">`, `<${MARKER}parameter name="command" string="true">`, 'QQQ',
  `</${MARKER}parameter>`, `</${MARKER}invoke>`, `</${MARKER}tool_calls>`,
]
/** Markdown, and markerless tags (CommonMark reads `<tool_calls>` as text: an underscore is no HTML tag name's). */
const AROUND = [...NOISE, '``', '````', '\\`', '\r\n', '1. ', '<tool_calls>', '</tool_calls>', '<function_calls>', 'x'.repeat(40)]

/** Is the character at `at` in an inline code node, by the reference (replaced by a probe word, so `<` starts nothing there)? */
function inCodeByCommonMark(document: string, at: number): boolean {
  const walker = parser.parse(`${document.slice(0, at)}QPROBEQ${document.slice(at + 1)}`).walker()
  for (let event = walker.next(); event !== null; event = walker.next()) {
    if (event.entering && event.node.type === 'code' && (event.node.literal ?? '').includes('QPROBEQ')) return true
  }
  return false
}

/** Where each call's markup starts in the input (text, sources and diagnostics are the input in order). */
function callStarts(events: ReturnType<typeof normalizeEvents>): number[] {
  const starts: number[] = []
  let at = 0
  for (const event of events) {
    if (event.type === 'tool-call') starts.push(at)
    at += event.type === 'text' ? event.text.length : event.type === 'tool-call' ? event.source.length : event.type === 'diagnostic' ? event.diagnostic.text.length : 0
  }
  return starts
}

describe('dsml/code-spans against CommonMark', () => {
  test('issue 21 (inline code spans): the regression cases agree with the reference', () => {
    for (const document of [
      'a `Q0Z` b', 'a ``Q0Z` b``', 'a `` Q0Z ` b', 'a \\`Q0Z` b`', '`a` Q0Z `b', 'a `x\nQ0Z` b', 'a `x\n\nQ0Z` b', '`Q0Z\n# h `',
      '``\nQ0Z``', '```a`Q0Z`', '> `a\nQ0Z`', '> `a\n> Q0Z`', '- `a\n  Q0Z`', '- `a\n- Q0Z`', 'a `b\n---\nQ0Z`', '`` ` ``Q0Z`', '\\\\`Q0Z`',
      '# `Q0Z`', '# `a\nQ0Z`', '    `a\nQ0Z`', 'x\n    `a\nQ0Z`', '`a\n```\nQ0Z`\n```',
    ]) {
      expect(probesInSpansByTracker(document, 1), JSON.stringify(document)).toEqual(probesInSpansByCommonMark(document))
      expect(probesInSpansByTracker(document, document.length), JSON.stringify(document)).toEqual(probesInSpansByCommonMark(document))
    }
  })

  test('issue 21 (inline code spans): random inline and block structure, whole and in pieces, agrees with the reference', () => {
    fc.assert(
      fc.property(documents, fc.integer({ min: 1, max: 9 }), (document, chunk) => {
        const expected = probesInSpansByCommonMark(document)
        expect(probesInSpansByTracker(document, document.length)).toEqual(expected)
        expect(probesInSpansByTracker(document, chunk)).toEqual(expected)
      }),
      { numRuns: 5000 },
    )
  })

  test('issue 21 (inline code spans are documentation): a call in a span the reference reads as code runs nothing, whole and in pieces', () => {
    let spans = 0
    let verbatim = 0
    fc.assert(
      fc.property(noise, noise, fc.constantFrom('`', '``'), fc.integer({ min: 1, max: 9 }), (before, after, run, chunk) => {
        // A document opening with four spaces is an indented code block, which the engine does not track (DESIGN.md §5.4).
        const document = before.trimStart() + run + CALL + run + ' ' + after
        if (!callInSpanByCommonMark(document)) return
        spans++
        const whole = normalizeEvents(runChunks([document]))
        expect(whole.filter((event) => event.type === 'tool-call')).toEqual([])
        const pieces = Array.from({ length: Math.ceil(document.length / chunk) }, (_, index) => document.slice(index * chunk, (index + 1) * chunk))
        expect(normalizeEvents(runChunks(pieces))).toEqual(whole)
        // Kept verbatim unless the span's closing run stands right before a tag start
        // that may be markup (then the span is documentation: its markup removed, README Policy 4).
        if (/[<|]/.test(after)) return
        verbatim++
        expect(whole).toEqual([{ type: 'text', text: document }])
      }),
      { numRuns: 3000 },
    )
    // The generator must reach the cases it tests.
    expect(spans).toBeGreaterThan(1000)
    expect(verbatim).toBeGreaterThan(300)
  })

  test('issue 21 (inline code spans are documentation): no call starts in a span the reference reads as code, with runs and markerless tags around whole tags', () => {
    // The engine reads code spans as the output reads (README Policy 4): markup it removes is not Markdown, and
    // removing it must not change the Markdown around it for the reference's reading of the input to be the same.
    // So a call stands between letters (no run joins another, no line start moves), and what is put in at one of
    // its tag boundaries is inline text that changes no span or block: letters, spaces, markerless tags.
    const inside = ['a', ' ', 'b c', '<tool_calls>', '</tool_calls>', '<function_calls>', 'x'.repeat(40)]
    const call = fc
      .tuple(fc.integer({ min: 0, max: CALL_PIECES.length }), fc.constantFrom('', ...inside))
      .map(([cut, inserted]) => `a${CALL_PIECES.slice(0, cut).join('')}${inserted}${CALL_PIECES.slice(cut).join('')}a`)
    const pieces = fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...AROUND) }, { weight: 1, arbitrary: call }), { maxLength: 24 })
    let calls = 0
    fc.assert(
      fc.property(pieces, fc.integer({ min: 1, max: 9 }), (parts, chunk) => {
        const document = parts.join('')
        if (document.startsWith('    ') || document.startsWith('\t')) return
        const whole = normalizeEvents(runChunks([document]))
        for (const start of callStarts(whole)) {
          calls++
          expect(inCodeByCommonMark(document, start), JSON.stringify(document)).toBe(false)
        }
        const split = Array.from({ length: Math.ceil(document.length / chunk) }, (_, index) => document.slice(index * chunk, (index + 1) * chunk))
        expect(normalizeEvents(runChunks(split))).toEqual(whole)
      }),
      { numRuns: 2000 },
    )
    // The generator must reach calls that run.
    expect(calls).toBeGreaterThan(200)
  })
})
