/**
 * The leak families seen in the wild (DESIGN.md §4, "other spellings"), each
 * proved by `checkFamily`: whole, split at every offset and one code point at
 * a time, in reasoning, with prose around it, inside a fence (not run), and
 * its benign look-alikes kept byte for byte. The captures of each family are
 * in `wild-captures.cases.ts`.
 */
import { ASCII_BAR, dialect, FW_BAR, WORD } from '../support/dsml-builders.ts'
import { checkBenign, checkFamily } from '../support/family-checks.ts'
import { defineSuite } from '../support/harness.ts'

const BASH = { name: 'bash', arguments: { command: 'ls -la' } }
const READ = { name: 'read', arguments: { path: 'README.md', limit: '20' } }

export const suite = defineSuite('dsml/families', (test) => {
  // ── 1. closers with a space between `<` and `/` ─────────────────────────

  test('family 1 (space between < and /): a block in ASCII bars with spaces, closers written < /', () => {
    const { block, invoke, param } = dialect({ bar: ASCII_BAR, spaced: true, closerSpace: true })
    checkFamily({ input: block([invoke('bash', [param('command', 'ls -la')])]), calls: [BASH] })
  })

  test('family 1 (space between < and /): an orphan invoke, no block, two parameters', () => {
    const { invoke, param } = dialect({ bar: ASCII_BAR, spaced: true, closerSpace: true })
    checkFamily({ input: invoke('read', [param('path', 'README.md'), param('limit', '20')]), calls: [READ] })
  })

  test('family 1 (space between < and /): canonical bars, up to four spaces on each side of the /', () => {
    const { block, invoke, param } = dialect({ closerSpace: true })
    checkFamily({ input: block([invoke('bash', [param('command', 'ls -la')])]), calls: [BASH] })
    const marker = `${FW_BAR}${WORD}${FW_BAR}`
    const input = `<${marker}invoke name="bash"><${marker}parameter name="command" string="true">ls -la<    /    ${marker}parameter><  /${marker}invoke>`
    checkFamily({ input, calls: [BASH] })
  })

  test('family 1 (space between < and /): look-alikes stay text', () => {
    for (const text of ['if a < / b then', 'x < /path/to/file', '< / >', 'a </ b', '< /  | not a marker |', 'a <  /  |DS'] as const) checkBenign(text)
  })

  // ── 2. doubled bars with spaces, mixed bar counts ───────────────────────

  test('family 2 (doubled bars with spaces): < | | DSML | | calls>, V4.1 names', () => {
    const { block, invoke, param } = dialect({ bar: ASCII_BAR, bars: 2, spaced: true, barSpaces: true })
    checkFamily({ input: block([invoke('bash', [param('command', 'ls -la')])], { name: 'calls' }), calls: [BASH] })
  })

  test('family 2 (doubled bars with spaces): full-width doubled bars with spaces, and no spaces around the word', () => {
    const { block, invoke, param } = dialect({ bars: 2, barSpaces: true })
    checkFamily({ input: block([invoke('bash', [param('command', 'ls -la')])]), calls: [BASH] })
  })

  test('family 2 (mixed bar counts): a tag with two bars on one side and one on the other, in a doubled block', () => {
    const doubled = dialect({ bars: 2, tagSpace: true })
    const mixed = `${FW_BAR}${FW_BAR}${WORD}${FW_BAR} `
    const input = doubled.block([doubled.invoke('bash', [doubled.param('command', 'ls -la', { marker: mixed })])], { name: 'calls' })
    checkFamily({ input, calls: [BASH] })
    const { block, invoke, param } = dialect({ bar: ASCII_BAR, bars: 2, rightBar: ASCII_BAR, spaced: true, barSpaces: true })
    checkFamily({ input: block([invoke('bash', [param('command', 'ls -la')])]), calls: [BASH] })
  })

  test('family 2 (doubled bars with spaces): look-alikes stay text', () => {
    for (const text of [
      '| | a | b |\n|---|---|---|',
      'x < | | y',
      'x < | | DS and more',
      '< | | data | | >',
      'cat a.txt | | grep b',
      'a <| |b',
    ] as const) checkBenign(text)
  })
})
