/**
 * `loggable`: request data in a log line never starts a line of its own or
 * moves the terminal's cursor.
 */
import { loggable } from '../../src/cli/log-text.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

export const suite = defineSuite('cli/log-text', (test) => {
  test('control characters (C0, DEL, C1) and the Unicode line and paragraph separators are escaped; everything else is kept', () => {
    assertEqual(loggable('x\nFORGED 200 OK\u001b[2J'), 'x\\x0aFORGED 200 OK\\x1b[2J')
    assertEqual(loggable('a\rb\tc\u007fd\u0085e\u2028f\u2029g'), 'a\\x0db\\x09c\\x7fd\\x85e\\u2028f\\u2029g')
    assertEqual(loggable('deepseek-v4-flash 漢字 😀 ‹DSML›'), 'deepseek-v4-flash 漢字 😀 ‹DSML›')
    assertEqual(loggable(''), '')
  })

  test('gateway siege row 7: format characters (Unicode Cf) are escaped: bidi overrides, zero-width spaces and joiners, the soft hyphen, astral tags', () => {
    assertEqual(loggable('model\u202Egnp.exe'), 'model\\u202egnp.exe')
    assertEqual(loggable('a\u200Bb\u200Dc\u2066d\uFEFFe\u00ADf'), 'a\\u200bb\\u200dc\\u2066d\\ufeffe\\xadf')
    assertEqual(loggable('tag\u{E0041}end'), 'tag\\u{e0041}end')
    assertEqual(loggable('plain é ü 😀'), 'plain é ü 😀')
  })
})
