/**
 * The runaway guard (src/dsml/runaway-guard.ts, `runawayRepeat`; issue
 * "beyond recovery", part 4): inside markup, one tag repeated `limit` times
 * in a row, or one character `limit × 256` times, stops the engine; what it
 * held and everything after is removed (`runaway-markup`), the same whatever
 * the split, nothing lost (conservation). Off by default.
 */
import { createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import { CHARACTERS_PER_TAG, RunawayGuard } from '../../src/dsml/runaway-guard.ts'
import type { SanitizerEvent } from '../../src/dsml/types.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { assertChunkInvariant, reassemble, textOf } from '../support/chunking.ts'
import { close, dialect, invoke, open, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const doubled = dialect({ bars: 2, tagSpace: true })
/** The degenerate tail seen in the wild: a doubled-bar parameter closer, again and again. */
const REPEATED = doubled.close('parameter')
const runawayOf = (events: readonly SanitizerEvent[]) => events.filter((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'runaway-markup')

export const suite = defineSuite('dsml/runaway-guard', (test) => {
  test('tags: the limit-th identical tag in a row trips it; blank text between them does not end the run, other text or another tag does', () => {
    const guard = new RunawayGuard(4)
    assertEqual([guard.tag('<a>'), guard.text('\n'), guard.tag('<a>'), guard.tag('<a>')], [false, -1, false, false])
    assertEqual(guard.tag('<a>'), true, 'the fourth')
    const broken = new RunawayGuard(3)
    assertEqual([broken.tag('<a>'), broken.tag('<a>'), broken.text('x'), broken.tag('<a>'), broken.tag('<b>'), broken.tag('<a>'), broken.tag('<a>')], [false, false, -1, false, false, false, false])
    const reset = new RunawayGuard(2)
    reset.tag('<a>')
    reset.reset()
    assertEqual(reset.tag('<a>'), false, 'outside markup every run ends')
  })

  test('characters: the engine stops right after the character that makes a run limit × 256 long, however the run was cut; one less does not', () => {
    const limit = 2
    const run = limit * CHARACTERS_PER_TAG
    for (const cuts of [[run], [1, run - 1], [run - 1, 1], [100, 100, run - 200], [run - 2, 1, 1], [run - 1, 5]]) {
      const guard = new RunawayGuard(limit)
      const results = cuts.map((size) => guard.text('M'.repeat(size)))
      const before = cuts.slice(0, -1).reduce((sum, size) => sum + size, 0)
      assertEqual(results, [...cuts.slice(0, -1).map(() => -1), run - before], `pieces ${cuts}`)
    }
    const short = new RunawayGuard(limit)
    assertEqual([short.text(`ab${'M'.repeat(run - 1)}`), short.text('cd')], [-1, -1], 'one less')
    for (const at of [0, 1, 7, 300, 1000]) {
      const inside = new RunawayGuard(limit)
      assertEqual(inside.text(`${'xy'.repeat(at)}${'M'.repeat(run + 3)}${'z'.repeat(at + 1)}`), at * 2 + run, `a run inside one piece, after ${at * 2}`)
    }
    const broken = new RunawayGuard(limit)
    assertEqual([broken.text('M'.repeat(run - 1)), broken.tag('<t>'), broken.text('M'.repeat(run - 1))], [-1, false, -1], 'a tag ends the run')
    const varied = new RunawayGuard(limit)
    assertEqual(varied.text('The quick brown fox. '.repeat(200)), -1, 'varied text never trips it')
  })

  test('sanitizeText: the text before is kept, the engine stops once, and everything after is removed; nothing is lost', () => {
    const input = `Here.\n${open('tool_calls')}\n${REPEATED.repeat(10)} and more text`
    const result = sanitizeText(input, { runawayRepeat: 4 })
    assertEqual(result.text, 'Here.\n')
    const stops = result.diagnostics.filter((diagnostic) => diagnostic.kind === 'runaway-markup' && diagnostic.text === '')
    assertEqual(stops.length, 1)
    assert(result.diagnostics.some((diagnostic) => diagnostic.kind === 'runaway-markup' && diagnostic.text.endsWith(' and more text')), 'the rest is removed, reported with its text')
    assertEqual(result.text + result.diagnostics.map((diagnostic) => diagnostic.text).join(''), input, 'conservation')
    const off = sanitizeText(input)
    assert(!off.diagnostics.some((diagnostic) => diagnostic.kind === 'runaway-markup'), 'off by default')
  })

  test('one character repeated inside a parameter value stops it; a long value of varied text does not', () => {
    const prefix = `Go.\n${open('tool_calls')}\n${open('invoke', { name: 'write_file' })}\n${open('parameter', { name: 'content', string: 'true' })}`
    const repeated = sanitizeText(`${prefix}${'M'.repeat(2 * CHARACTERS_PER_TAG + 10)}`, { runawayRepeat: 2 })
    assertEqual(repeated.text, 'Go.\n')
    assertEqual(repeated.calls, [])
    assertEqual(runawayOf(repeated.diagnostics.map((diagnostic) => ({ type: 'diagnostic' as const, diagnostic }))).length, 2)
    const value = 'Lorem ipsum dolor sit amet, 中文内容 "quoted" \\ path.\n'.repeat(400)
    const fine = sanitizeText(`Go.\n${open('tool_calls')}\n${invoke('write_file', [param('content', value)])}\n${close('tool_calls')}`, { runawayRepeat: 2 })
    assertEqual(fine.calls.length, 1)
    assert(fine.calls[0]?.arguments.content === value.trimEnd(), 'the whole value, as without the guard')
  })

  test('the same stop whatever the split: whole, every two-way split, one code point at a time', () => {
    const input = `Hi.\n${open('tool_calls')}\n${REPEATED.repeat(6)}tail`
    const events = assertChunkInvariant(input, { runawayRepeat: 3 }, assertEqual)
    assertEqual([textOf(events), reassemble(events)], ['Hi.\n', input])
  })

  test('after the stop, what is fed is removed, reported 4096 characters at a time counted from the stop, the rest at the end', () => {
    const sanitizer = createDsmlSanitizer({ runawayRepeat: 2 })
    const first = sanitizer.feed(`${open('tool_calls')}${REPEATED}${REPEATED}`)
    assertEqual(runawayOf(first).length, 1, 'the stop')
    assertEqual(sanitizer.feed('plain prose afterwards'), [], 'held until a piece is whole (the tag that tripped it is its first text)')
    const piece = sanitizer.feed('x'.repeat(5000))
    assertEqual(piece.map((event) => (event.type === 'diagnostic' ? [event.diagnostic.kind, event.diagnostic.text.length] : event.type)), [['runaway-markup', 4096]])
    const end = sanitizer.end()
    assertEqual(end.map((event) => (event.type === 'diagnostic' ? [event.diagnostic.kind, event.diagnostic.text.length] : event.type)), [['runaway-markup', REPEATED.length + 'plain prose afterwards'.length + 5000 - 4096]])
  })

  test('the option is checked: 0 or a whole number from 2', () => {
    for (const bad of [1, -1, 2.5, Number.NaN, '64']) {
      assertThrows(() => sanitizeText('x', { runawayRepeat: bad as number }), TypeError, /runawayRepeat/)
    }
    assertEqual(sanitizeText('x', { runawayRepeat: 0 }).text, 'x')
  })
})
