/**
 * Counters through a meter (src/dsml/diagnostic-counters.ts; issue "beyond
 * recovery", part 3): read off what each entry point gives out, once. The
 * markup counted as removed is exactly what left the text (conservation),
 * whatever the split; a pipeline counts its settled calls, not the engine's
 * view of them; no attribute holds anything but a diagnostic's kind.
 */
import { createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import { createPartRepair } from '../../src/parts/part-repair.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { codePoints } from '../support/chunking.ts'
import { block, invoke, open, param } from '../support/dsml-builders.ts'
import { fakeMeter } from '../support/fake-meter.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, counterIds, repairChunks } from '../chat-completions/support.ts'

const LEAK = `Sure.\n${block([invoke('write_file', [param('path', 'a.txt')])])}\nthen ${block([invoke('rm_rf', [param('path', '/')])])} done`
const DECLARED = { knownTools: ['write_file'] }

export const suite = defineSuite('dsml/diagnostic-counters', (test) => {
  test('sanitizeText: one leak, one call recovered, one rejected by its reason, and the markup removed is what left the text', () => {
    const meter = fakeMeter()
    const result = sanitizeText(LEAK, { ...DECLARED, meter })
    assertEqual(
      [meter.sum('dsml.leaks'), meter.sum('dsml.calls.recovered'), meter.sum('dsml.calls.rejected', { 'dsml.reason': 'unknown-tool' }), meter.sum('dsml.calls.rejected')],
      [1, 1, 1, 1],
    )
    assertEqual(meter.sum('dsml.markup.removed'), LEAK.length - result.text.length)
    for (const records of meter.recorded.values()) for (const record of records) assert(Object.keys(record.attributes).every((key) => key === 'dsml.reason'), 'only the reason as an attribute')
  })

  test('the same counts fed one code point at a time; nothing counted for a text with no leak', () => {
    const whole = fakeMeter()
    sanitizeText(LEAK, { ...DECLARED, meter: whole })
    const fed = fakeMeter()
    const sanitizer = createDsmlSanitizer({ ...DECLARED, meter: fed })
    for (const piece of codePoints(LEAK)) sanitizer.feed(piece)
    sanitizer.end()
    for (const name of ['dsml.leaks', 'dsml.calls.recovered', 'dsml.calls.rejected', 'dsml.markup.removed']) assertEqual(fed.sum(name), whole.sum(name), name)
    const quiet = fakeMeter()
    sanitizeText('plain prose, a < b, `code`', { meter: quiet })
    assertEqual([...quiet.recorded.values()].flat(), [])
  })

  test('instruments are made once per meter, however many texts and streams record through it', () => {
    const meter = fakeMeter()
    for (let index = 0; index < 5; index++) sanitizeText(LEAK, { ...DECLARED, meter })
    assertEqual(meter.made.get('dsml.leaks'), 1)
    assertEqual(meter.sum('dsml.leaks'), 5)
  })

  test('hold-limit hits and runaways are counted', () => {
    const meter = fakeMeter()
    sanitizeText(`x ${open('tool_calls')}${open('invoke', { name: 'w' })}${open('parameter', { name: 'c', string: 'true' })}${'y '.repeat(400)}`, { meter, maxHoldChars: 256 })
    assert(meter.sum('dsml.hold_limit.hits') >= 1, 'a hold-limit hit')
    const runaway = fakeMeter()
    sanitizeText(`${open('tool_calls')}${'M'.repeat(600)}`, { meter: runaway, runawayRepeat: 2 })
    assertEqual(runaway.sum('dsml.runaways'), 1)
  })

  test('a pipeline counts its settlement: a call withheld at a length finish is rejected (suppressed-call), its markup counted once', () => {
    const meter = fakeMeter()
    const texts: string[] = []
    const repair = createPartRepair({ ...DECLARED, generateId: counterIds(), meter }, { emit: (part) => void (part.type === 'text' && texts.push(part.text)) })
    repair.feed({ type: 'text', text: LEAK })
    repair.feed({ type: 'finish', reason: 'length' })
    repair.end()
    assertEqual([meter.sum('dsml.calls.recovered'), meter.sum('dsml.calls.rejected', { 'dsml.reason': 'suppressed-call' }), meter.sum('dsml.calls.rejected', { 'dsml.reason': 'unknown-tool' })], [0, 1, 1])
    assertEqual(meter.sum('dsml.markup.removed'), LEAK.length - texts.join('').length)
    assertEqual(meter.sum('dsml.leaks'), 1)
  })

  test('a dialect stream counts as its pipeline does: one leak per stream, the settled call once', () => {
    const meter = fakeMeter()
    repairChunks([answer([LEAK.slice(0, 20), LEAK.slice(20)])], { ...DECLARED, meter })
    repairChunks([answer(['no leak here'])], { ...DECLARED, meter })
    assertEqual([meter.sum('dsml.leaks'), meter.sum('dsml.calls.recovered'), meter.sum('dsml.calls.rejected')], [1, 1, 1])
  })

  test('a meter that is not one is refused where options are resolved', () => {
    assertThrows(() => sanitizeText('x', { meter: {} as never }), TypeError, /meter/)
  })
})
