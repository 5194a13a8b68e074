/** The `npm run report` report over the real captures. */
import { type LeakCapture, markerSpellings, renderReport, reportRow } from '../../src/cli/leaks-report.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

const captures = leaks as LeakCapture[]

export const suite = defineSuite('cli/leaks-report', (test) => {
  test('fixture leaks-real.json: every capture gives its expected calls and text in the report', () => {
    const rows = captures.map((capture) => reportRow(capture))
    assertEqual(rows.filter((row) => !row.matchesExpected).map((row) => row.id), [])
    assert(renderReport(rows).includes(`${captures.length}/${captures.length} captures give their expected calls and text`), 'summary line')
  })

  test('report shows markers as ‹DSML›, never as live bytes', () => {
    const report = renderReport(captures.map((capture) => reportRow(capture)))
    assert(!report.includes('\uFF5C'), 'no full-width bar in the report')
    assertEqual(markerSpellings(`<${'\uFF5C'}DSML${'\uFF5C'}tool_calls>`), ['‹DSML›'])
    assertEqual(markerSpellings(`<${'\uFF5C\uFF5C'}DSML${'\uFF5C\uFF5C'}tool_calls>`), ['‹‹DSML››'])
  })

  test('report flags a capture whose expectation is not met', () => {
    const capture = captures[0]!
    const row = reportRow({ ...capture, expected_calls: [] })
    assertEqual(row.matchesExpected, false)
    assert(renderReport([row]).includes('0/1 captures'), 'summary counts the miss')
  })
})
