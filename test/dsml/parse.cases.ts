/**
 * The parser rows of seeds/TEST-MATRIX.md (v1…v26, reject-*) and the grammar
 * facts of DESIGN.md §4, through parseDsml and sanitizeText. Every case first
 * runs `analyse` (conservation, sanitizeText == engine fed once, parseDsml
 * ranges == removed text), then checks its own calls, text and ranges.
 *
 * Markers are built at run time (test/support/dsml-builders.ts); this file
 * holds no live marker bytes.
 */
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import {
  BOX_BAR,
  DOUBLE_BAR,
  EOS_VARIANTS,
  FW_BAR,
  block,
  canonical,
  close,
  dialect,
  eos,
  invoke,
  marker,
  open,
  param,
} from '../support/dsml-builders.ts'
import { analyse, expectOutcome, rangeOf, whole } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'

const BASH = { name: 'bash', arguments: { command: 'ls -la' } }
const bashInvoke = (d = canonical): string => d.invoke('bash', [d.param('command', 'ls -la')])
const bashBlock = (d = canonical, name?: string): string => d.block([bashInvoke(d)], name === undefined ? {} : { name })

/** The canonical bash block in `d`, expected to give exactly BASH and be removed whole. */
function expectBashBlock(d = canonical, name?: string): void {
  const input = bashBlock(d, name)
  expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
}

export const suite = defineSuite('dsml/parse', (test) => {
  // ── V1–V8: spellings of a complete block ────────────────────────────────

  test('v1-canonical: one block, one invoke, one parameter', () => {
    expectBashBlock()
  })

  test('v1-canonical: no newlines between tags', () => {
    const input =
      open('tool_calls') + open('invoke', { name: 'bash' }) + param('command', 'ls -la') + close('invoke') + close('tool_calls')
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test("v1-canonical: single-quoted attributes (name='k' string='true')", () => {
    const input = block([
      open('invoke', " name='bash'") + '\n' + open('parameter', " name='command' string='true'") + 'ls -la' + close('parameter') + '\n' + close('invoke'),
    ])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v1-canonical: two parameters keep their order and values', () => {
    const input = block([invoke('write', [param('path', 'a.txt'), param('content', 'hello')])])
    const outcome = expectOutcome(input, { calls: [{ name: 'write', arguments: { path: 'a.txt', content: 'hello' } }], text: '' })
    assertEqual(Object.keys(outcome.calls[0]?.arguments ?? {}), ['path', 'content'], 'argument order')
  })

  test('v1-canonical (DESIGN §4): inner tags carry bars without the word DSML', () => {
    const inner = dialect({ word: '' }) // <‹‹›invoke …>: two bars, no word
    const input = open('tool_calls') + '\n' + inner.invoke('bash', [inner.param('command', 'ls -la')]) + '\n' + close('tool_calls')
    assert(input.includes(`<${FW_BAR}${FW_BAR}invoke`), 'test bug: barred inner tag not built')
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v1-canonical (DESIGN §4): tool name="x" is an alias of invoke', () => {
    const input = block([invoke('bash', [param('command', 'ls -la')], { tag: 'tool' })])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v1-canonical (DESIGN §4): block opener missing its > (tag ends at the newline)', () => {
    const input = `<${marker()}tool_calls\n` + bashInvoke() + '\n' + close('tool_calls')
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v1-canonical (DESIGN §4): invoke opener missing its > (tag ends at the newline)', () => {
    const input = block([`<${marker()}invoke name="bash"\n` + param('command', 'ls -la') + '\n' + close('invoke')])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v1-canonical (DESIGN §4): opener missing its > right before the next < (no newline)', () => {
    const input = `<${marker()}tool_calls` + bashInvoke() + close('tool_calls')
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v1-canonical (DESIGN §4): parameter opener missing the marker inside a markered invoke', () => {
    const input = block([invoke('bash', ['<parameter name="command" string="true">ls -la' + close('parameter')])])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v1-canonical (DESIGN §4): parameter opener missing the string attribute', () => {
    const input = block([invoke('bash', [param('command', 'ls -la', { string: null })])])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v2-doubled-bars: doubled full-width bars', () => {
    expectBashBlock(dialect({ bars: 2 }))
  })

  test('v2-doubled-bars (DESIGN §4): U+2016 bars, single and doubled', () => {
    expectBashBlock(dialect({ bar: DOUBLE_BAR }))
    expectBashBlock(dialect({ bar: DOUBLE_BAR, bars: 2 }))
  })

  test('v2-doubled-bars (DESIGN §4): U+2502 bars', () => {
    expectBashBlock(dialect({ bar: BOX_BAR }))
  })

  test('v2-doubled-bars (DESIGN §4): mixed bar kinds and counts per side', () => {
    expectBashBlock(dialect({ bar: FW_BAR, rightBar: '|' }))
    expectBashBlock(dialect({ bar: `${DOUBLE_BAR}${FW_BAR}`, rightBar: `${FW_BAR}|` }))
    expectBashBlock(dialect({ bar: FW_BAR, bars: 2, rightBar: FW_BAR }))
  })

  test('v3-ascii-pipes: ASCII pipe markers', () => {
    expectBashBlock(dialect({ bar: '|' }))
  })

  test('v3-ascii-pipes: doubled ASCII pipes', () => {
    expectBashBlock(dialect({ bar: '|', bars: 2 }))
  })

  test('v3-ascii-pipes: spaces inside every ASCII marker, around the bars and the word', () => {
    expectBashBlock(dialect({ bar: '|', spaced: true }))
  })

  test('v4-marker-space: V4.1 canonical spaced tags (< m calls>, < m invoke>, </ m parameter>)', () => {
    const v41 = dialect({ tagSpace: true })
    const input = bashBlock(v41, 'calls')
    assert(input.startsWith(`<${marker()} calls>`), 'test bug: V4.1 opener not built')
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v4-marker-space: space between marker and tool_calls', () => {
    expectBashBlock(dialect({ tagSpace: true }), 'tool_calls')
  })

  test('v4-marker-space: spaces around the word inside full-width markers', () => {
    expectBashBlock(dialect({ spaced: true }))
  })

  test('v5-truncated-tag: block tag calls (no space)', () => {
    expectBashBlock(canonical, 'calls')
  })

  test('v6-name-spacing: invoke name = "bash"', () => {
    const input = block([invoke('bash', [param('command', 'ls -la')], { rawAttrs: ' name = "bash"' })])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test("v6-name-spacing: name='bash' and bare name=bash", () => {
    for (const rawAttrs of [" name='bash'", ' name=bash', " name = 'bash'"]) {
      const input = block([invoke('bash', [param('command', 'ls -la')], { rawAttrs })])
      expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
    }
  })

  test('v7-tool-call-singular: block tag tool_call', () => {
    expectBashBlock(canonical, 'tool_call')
  })

  for (const name of ['toolcalls', 'tool_use', 'toolcall']) {
    test(`v7-tool-call-singular (DESIGN §4): block tag variant ${name}`, () => {
      expectBashBlock(canonical, name)
    })
  }

  test('v8-function-calls: V3.2 block tag function_calls', () => {
    expectBashBlock(canonical, 'function_calls')
  })

  test('v8-function-calls (DESIGN §4): mismatched block opener and closer', () => {
    for (const [name, closeName] of [
      ['function_calls', 'tool_calls'],
      ['tool_calls', 'function_calls'],
      ['tool_calls', 'calls'],
    ] as const) {
      const input = block([bashInvoke()], { name, closeName })
      expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
    }
    const v41 = dialect({ tagSpace: true })
    const input = v41.open('calls') + '\n' + bashInvoke(v41) + '\n' + close('tool_calls')
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  // ── V9, V10: orphans ─────────────────────────────────────────────────────

  test('v9-orphan-invoke: invoke with no block', () => {
    const input = invoke('edit', [param('path', 'a.kt')])
    expectOutcome(input, { calls: [{ name: 'edit', arguments: { path: 'a.kt' } }], text: '', ranges: whole(input) })
  })

  test('v9-orphan-invoke: prose around an orphan invoke is kept', () => {
    const call = invoke('edit', [param('path', 'a.kt')])
    const input = `I will edit.\n${call}\nDone.`
    expectOutcome(input, {
      calls: [{ name: 'edit', arguments: { path: 'a.kt' } }],
      text: 'I will edit.\n\nDone.',
      ranges: [rangeOf(input, call)],
    })
  })

  test('v9-orphan-invoke (DESIGN §5.1): a markerless invoke of a declared tool becomes a call (markerlessTags)', () => {
    const input = '<invoke name="read">\n<parameter name="filePath" string="true">/src/lib/api.ts</parameter>\n</invoke>'
    expectOutcome(input, { calls: [{ name: 'read', arguments: { filePath: '/src/lib/api.ts' } }], text: '', ranges: whole(input) }, { knownTools: ['read'] })
    expectOutcome(input, { calls: [{ name: 'read', arguments: { filePath: '/src/lib/api.ts' } }], text: '' }, { tools: [{ name: 'read' }] })
  })

  test('v9-orphan-invoke (DESIGN §5.1): with no tool declared, even a string attribute leaves markerless markup as text', () => {
    const input = '<invoke name="read">\n<parameter name="filePath" string="true">/src/lib/api.ts</parameter>\n</invoke>'
    expectOutcome(input, { calls: [], text: input, ranges: [] })
    expectOutcome(input, { calls: [], text: input, ranges: [] }, { knownTools: ['bash'] })
  })

  test('v9-orphan-invoke: markerless invoke without string attribute and not a known tool is released as text', () => {
    const input = 'Use it like this: <invoke name="read">\n<parameter name="filePath">/src/lib/api.ts</parameter>\n</invoke> and so on.'
    expectOutcome(input, { calls: [], text: input, ranges: [] })
  })

  test('v10-orphan-parameter: a markered parameter alone is removed, no call', () => {
    const input = param('content', 'x')
    expectOutcome(input, { calls: [], text: '', ranges: whole(input), diagnostics: ['dropped-markup'] })
  })

  test('v10-orphan-parameter: prose around an orphan parameter is kept verbatim', () => {
    const p = param('content', 'x')
    const input = `a ${p} b`
    expectOutcome(input, { calls: [], text: 'a  b', ranges: [rangeOf(input, p)] })
  })

  test('v10-orphan-parameter (DESIGN §4): fragment without < is removed, never run', () => {
    const fragment = `${marker()}tool_calls>`
    expectOutcome(fragment, { calls: [], text: '', ranges: whole(fragment) })
    const input = `Sure. ${fragment}`
    expectOutcome(input, { calls: [], text: 'Sure. ', ranges: [rangeOf(input, fragment)] })
  })

  test('v10-orphan-parameter (DESIGN §4): invoke fragment without < gives no call', () => {
    const fragment = `${marker({ bars: 2 })}invoke name="bash">`
    expectOutcome(fragment, { calls: [], text: '' })
  })

  test('v10-orphan-parameter (DESIGN §4): stray closers are removed', () => {
    const input = `Done.${close('parameter')}\n${close('invoke')}\n${close('tool_calls')}`
    const outcome = expectOutcome(input, { calls: [] })
    assertEqual(outcome.text.trimEnd(), 'Done.', 'text')
  })

  // ── V11–V16: damaged calls ───────────────────────────────────────────────

  // Reading taken: the matrix's "2 calls: alpha + beta" means both parameters
  // survive as arguments of the one invoke (the nameless closer ends alpha and
  // does not swallow beta).
  test('v11-misspelled-closer: nameless closer </m> ends the parameter, the next one is not swallowed', () => {
    const alpha = open('parameter', { name: 'alpha', string: 'true' }) + 'A' + `</${marker()}>`
    const input = block([invoke('config_set', [alpha, param('beta', 'B')])])
    expectOutcome(input, { calls: [{ name: 'config_set', arguments: { alpha: 'A', beta: 'B' } }], text: '', ranges: whole(input) })
  })

  test('v11-misspelled-closer: missing closer, value ended by the next parameter opener', () => {
    const both = param('alpha', 'A', { noCloser: true }) + param('beta', 'B')
    const input = block([invoke('config_set', [both])])
    expectOutcome(input, { calls: [{ name: 'config_set', arguments: { alpha: 'A', beta: 'B' } }], text: '', ranges: whole(input) })
  })

  test('v11-misspelled-closer: missing closer, value ended by the invoke closer', () => {
    const body = open('parameter', { name: 'alpha', string: 'true' }) + 'A' + close('invoke')
    const input = open('tool_calls') + '\n' + open('invoke', { name: 'config_set' }) + '\n' + body + '\n' + close('tool_calls')
    expectOutcome(input, { calls: [{ name: 'config_set', arguments: { alpha: 'A' } }], text: '', ranges: whole(input) })
  })

  test('v12-runaway-name: JSON leaked into the invoke name, inside a block', () => {
    const input = block([invoke('record_item {\ncategory', [param('x', 'y')])])
    expectOutcome(input, { calls: [], text: '', ranges: whole(input) })
  })

  test('v12-runaway-name: runaway name on an orphan invoke', () => {
    const input = invoke('record_item {\ncategory: Dexes', [param('x', 'y')])
    expectOutcome(input, { calls: [], text: '' })
  })

  test('v12-runaway-name: names must be identifier-like (letters, digits, _ - . :, at most 128)', () => {
    const good = ['mcp__github.create-issue:v2', 'a', 'x'.repeat(128), 'Read', 'tool_9']
    for (const name of good) {
      const input = block([invoke(name, [param('x', 'y')])])
      expectOutcome(input, { calls: [{ name, arguments: { x: 'y' } }], text: '' })
    }
    const bad = ['rm -rf /', 'x'.repeat(129), 'a{b}', 'tab\tname', 'a/b']
    for (const name of bad) {
      const input = block([invoke(name, [param('x', 'y')])])
      expectOutcome(input, { calls: [], text: '' })
    }
  })

  test('v13-undeclared-tool: a well-formed call to an unknown name is kept (no knownTools)', () => {
    const input = block([invoke('totally_made_up', [param('x', 'y')])])
    expectOutcome(input, { calls: [{ name: 'totally_made_up', arguments: { x: 'y' } }], text: '', ranges: whole(input) })
  })

  test('v14-empty-name: name="" gives no call and the block is removed', () => {
    const input = block([invoke('', [param('x', 'y')])])
    expectOutcome(input, { calls: [], text: '', ranges: whole(input) })
  })

  test('v14-empty-name: does not trap the rest of the input', () => {
    const empty = block([invoke('', [param('x', 'y')])])
    const input = `${empty}\n${bashBlock()}\nafter`
    expectOutcome(input, { calls: [BASH], text: '\n\nafter' })
  })

  test('v14-empty-name: whitespace-only name gives no call', () => {
    const input = block([invoke(' ', [param('x', 'y')])])
    expectOutcome(input, { calls: [], text: '' })
  })

  test('v15-unclosed: block opener + complete invoke, no block closer', () => {
    const input = open('tool_calls') + '\n' + bashInvoke()
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v15-unclosed: complete invoke recovered, trailing incomplete invoke removed and reported', () => {
    const input = open('tool_calls') + '\n' + bashInvoke() + '\n' + open('invoke', { name: 'read' }) + '\n' + open('parameter', { name: 'path', string: 'true' }) + 'src/ma'
    const outcome = expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input), diagnostics: ['dropped-markup'] })
    assert(
      outcome.diagnostics.some((d) => d.kind === 'dropped-markup' && d.text.includes('src/ma')),
      'the incomplete invoke is reported as dropped-markup with its text',
    )
  })

  test('v15-unclosed: prose before an unclosed block is kept', () => {
    const markup = open('tool_calls') + '\n' + open('invoke', { name: 'bash' }) + '\n' + open('parameter', { name: 'command', string: 'true' }) + 'ls'
    const input = `Checking.\n${markup}`
    expectOutcome(input, { calls: [], text: 'Checking.\n', ranges: [rangeOf(input, markup)], diagnostics: ['dropped-markup'] })
  })

  test('v15-unclosed: a block holding nothing but its opener releases the text after it', () => {
    const opener = open('tool_calls')
    const input = `hello${opener}world`
    expectOutcome(input, { calls: [], text: 'helloworld', ranges: [rangeOf(input, opener)] })
  })

  test('v15-unclosed: opener as the last thing in the input', () => {
    const input = `Done.${open('tool_calls')}`
    expectOutcome(input, { calls: [], text: 'Done.' })
  })

  test('v16-truncated-invoke (issue 21): an invoke that lost its closer before the block closer, every parameter closed, is a call (vLLM TestMissingInvokeEnd)', () => {
    const input = block([bashInvoke(), invoke('read', [param('path', 'a.txt')], { noCloser: true })])
    expectOutcome(input, { calls: [BASH, { name: 'read', arguments: { path: 'a.txt' } }], text: '', ranges: whole(input) })
  })

  test('v16-truncated-invoke: second invoke missing its closer, its parameter cut short by the block closer: the first call only', () => {
    const input = block([bashInvoke(), invoke('read', [param('path', 'a.txt', { noCloser: true })], { noCloser: true })])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v16-truncated-invoke: second invoke missing its closer, block unclosed', () => {
    const input = block([bashInvoke(), invoke('read', [param('path', 'a.txt')], { noCloser: true })], { noCloser: true })
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  test('v16-truncated-invoke: prose after the closed block is kept', () => {
    const b = block([bashInvoke(), invoke('read', [param('path', 'a.txt', { noCloser: true })], { noCloser: true })])
    const input = `${b}\nAll done.`
    expectOutcome(input, { calls: [BASH], text: '\nAll done.', ranges: [rangeOf(input, b)] })
  })

  test('v16-truncated-invoke (DESIGN §4): truncated closer </m inv> closes the invoke', () => {
    const input = block([invoke('bash', [param('command', 'ls -la')], { closer: `</${marker()}inv>` })])
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  // ── V18–V21: position, multiplicity, fences, EOS ─────────────────────────

  test('v18-surrounding: prose before and after is preserved, the block ranged', () => {
    const b = bashBlock()
    const input = `before ${b} after`
    expectOutcome(input, { calls: [BASH], text: 'before  after', ranges: [[7, 7 + b.length]] })
  })

  test('v18-surrounding: newlines around the block are kept verbatim', () => {
    const b = bashBlock()
    const input = `Let me list.\n\n${b}\n\nListed.`
    expectOutcome(input, { calls: [BASH], text: 'Let me list.\n\n\n\nListed.', ranges: [rangeOf(input, b)] })
  })

  // Reading taken: one block with two invokes, then two more blocks with one
  // invoke each: 4 calls, in order.
  test('v19-multiple: two invokes in one block + two more blocks = 4 calls in order', () => {
    const first = block([invoke('a', [param('n', '1')]), invoke('b', [param('n', '2')])])
    const second = block([invoke('c', [param('n', '3')])])
    const third = dialect({ bars: 2 }).block([dialect({ bars: 2 }).invoke('d', [dialect({ bars: 2 }).param('n', '4')])])
    const input = `${first}\n${second}\n${third}`
    expectOutcome(input, {
      calls: ['a', 'b', 'c', 'd'].map((name, index) => ({ name, arguments: { n: String(index + 1) } })),
      text: '\n\n',
      ranges: [rangeOf(input, first), rangeOf(input, second), rangeOf(input, third)],
    })
  })

  test('v19-multiple: adjacent blocks merge into one range', () => {
    const input = bashBlock() + bashBlock()
    expectOutcome(input, { calls: [BASH, BASH], text: '', ranges: whole(input) })
  })

  test('v20-code-fence: block inside ``` is neither run nor removed', () => {
    const input = '```\n' + bashBlock() + '\n```'
    expectOutcome(input, { calls: [], text: input, ranges: [], allowMarkupInText: true })
  })

  test('v20-code-fence: a block after the fence closes is recovered, the fenced one is kept', () => {
    const fenced = '```xml\n' + bashBlock() + '\n```\n'
    const after = block([invoke('read', [param('path', 'a.txt')])])
    const input = fenced + after
    expectOutcome(input, {
      calls: [{ name: 'read', arguments: { path: 'a.txt' } }],
      text: fenced,
      ranges: [[fenced.length, input.length]],
      allowMarkupInText: true,
    })
  })

  test('v20-code-fence: a block before the fence is recovered, the fenced one is kept', () => {
    const b = bashBlock()
    const fenced = '\n```\n' + block([invoke('read', [param('path', 'a.txt')])]) + '\n```'
    const input = b + fenced
    expectOutcome(input, { calls: [BASH], text: fenced, ranges: [[0, b.length]], allowMarkupInText: true })
  })

  test('v20-code-fence: a shorter backtick run does not close a longer fence', () => {
    const input = '````\n```\n' + bashBlock() + '\n```\n````'
    expectOutcome(input, { calls: [], text: input, ranges: [], allowMarkupInText: true })
  })

  // Reading taken: a fence never closed runs to the end of the text (Markdown).
  test('v20-code-fence: a fence that never closes covers the rest of the input', () => {
    const input = 'Example:\n```\n' + bashBlock()
    expectOutcome(input, { calls: [], text: input, ranges: [], allowMarkupInText: true })
  })

  test('v20-code-fence: backticks inside a parameter value do not toggle the fence state', () => {
    const readme = '# Title\n\n```js\nconsole.log(1)\n```'
    const input = block([invoke('write', [param('path', 'README.md'), param('content', readme)])])
    expectOutcome(input, { calls: [{ name: 'write', arguments: { path: 'README.md', content: readme } }], text: '', ranges: whole(input) })
    const unbalanced = block([invoke('write', [param('content', 'open only:\n```python\nx = 1')])])
    const next = block([invoke('bash', [param('command', 'ls -la')])])
    const both = `${unbalanced}\n${next}`
    expectOutcome(both, {
      calls: [{ name: 'write', arguments: { content: 'open only:\n```python\nx = 1' } }, BASH],
      text: '\n',
      ranges: [rangeOf(both, unbalanced), rangeOf(both, next, unbalanced.length)],
    })
  })

  test('v21-eos: end-of-sentence token after the block is in the removed range', () => {
    const input = bashBlock() + eos()
    expectOutcome(input, { calls: [BASH], text: '', ranges: whole(input) })
  })

  for (const variant of EOS_VARIANTS) {
    test(`v21-eos (DESIGN §4): end-of-sentence token, ${variant} spelling, is removed`, () => {
      const token = eos(variant)
      expectOutcome(token, { calls: [], text: '', ranges: whole(token) })
      const input = `Done.${token}`
      expectOutcome(input, { calls: [], text: 'Done.', ranges: [rangeOf(input, token)] })
    })
  }

  // ── V22–V25: values ──────────────────────────────────────────────────────

  // Reading taken: entities are decoded in every value, string="true" included
  // (DESIGN §4 lists decoding apart from the string attribute).
  test('v22-entities: &amp; &quot; &lt; &gt; &apos; are decoded', () => {
    const input = block([invoke('say', [param('text', 'a &amp; b &quot;q&quot; &lt;tag&gt; it&apos;s')])])
    expectOutcome(input, { calls: [{ name: 'say', arguments: { text: `a & b "q" <tag> it's` } }], text: '' })
  })

  test('v22-entities: decoded once (&amp;lt; gives &lt;), also without the string attribute', () => {
    const input = block([invoke('say', [param('text', '&amp;lt; &amp;amp;', { string: null })])])
    expectOutcome(input, { calls: [{ name: 'say', arguments: { text: '&lt; &amp;' } }], text: '' })
  })

  test('v23-multiline-value: only the hugging newlines are removed', () => {
    const input = block([invoke('write', [param('content', '\n  line1\n    line2\n\n')])])
    expectOutcome(input, { calls: [{ name: 'write', arguments: { content: '  line1\n    line2\n' } }], text: '' })
  })

  test('v23-multiline-value: inner blank lines and indentation are verbatim', () => {
    const value = '    fun a() {\n\n\treturn 1\n    }'
    const input = block([invoke('write', [param('content', value)])])
    expectOutcome(input, { calls: [{ name: 'write', arguments: { content: value } }], text: '' })
  })

  test('v23-multiline-value: heredoc with <, >, |, backticks and $ kept verbatim', () => {
    const value = "cat <<'EOF' > out.txt\n\tx=$1 && y=`pwd` | tee -a log\n<div class=\"a\">b</div>\nEOF"
    const input = block([invoke('bash', [param('command', value)])])
    expectOutcome(input, { calls: [{ name: 'bash', arguments: { command: value } }], text: '' })
  })

  test('v23-multiline-value: backslashes are literal with string="true"', () => {
    const value = 'C:\\Users\\me\\new\\table \\"q\\" \\u0041'
    const input = block([invoke('bash', [param('command', value)])])
    expectOutcome(input, { calls: [{ name: 'bash', arguments: { command: value } }], text: '' })
  })

  test('v24-json-param: string="false" object becomes an object', () => {
    const input = block([invoke('cfg', [param('opts', '{"a":1}', { string: 'false' })])])
    expectOutcome(input, { calls: [{ name: 'cfg', arguments: { opts: { a: 1 } } }], text: '' })
  })

  test('v24-json-param: JSON typing of every kind of value', () => {
    const cases: Array<[string, unknown]> = [
      ['[1,2,"x"]', [1, 2, 'x']],
      ['42', 42],
      ['-1.5e3', -1500],
      ['true', true],
      ['false', false],
      ['null', null],
      ['"str"', 'str'],
      ['{"nested":{"list":[{"k":"v"}]}}', { nested: { list: [{ k: 'v' }] } }],
      ['\n{"a": [1, 2]}\n', { a: [1, 2] }],
    ]
    for (const [raw, value] of cases) {
      const input = block([invoke('cfg', [param('v', raw, { string: 'false' })])])
      expectOutcome(input, { calls: [{ name: 'cfg', arguments: { v: value } }], text: '' })
    }
  })

  test('v24-json-param: invalid JSON falls back to the raw string with an invalid-json diagnostic', () => {
    const input = block([invoke('cfg', [param('v', '{a:1,}', { string: 'false' })])])
    const outcome = expectOutcome(input, { calls: [{ name: 'cfg', arguments: { v: '{a:1,}' } }], text: '', diagnostics: ['invalid-json'] })
    for (const diagnostic of outcome.diagnostics) {
      if (diagnostic.kind === 'invalid-json') assertEqual(diagnostic.text, '', 'invalid-json removes nothing')
    }
  })

  test('v24-json-param: string="true" and no attribute keep JSON-looking values as strings', () => {
    for (const string of ['true', null] as const) {
      const input = block([invoke('cfg', [param('v', '{"a":1}', { string }), param('n', '42', { string })])])
      expectOutcome(input, { calls: [{ name: 'cfg', arguments: { v: '{"a":1}', n: '42' } }], text: '' })
    }
  })

  test('v24-json-param (DESIGN §5.12): __proto__ and constructor parameters are own properties, no pollution', () => {
    const input = block([
      invoke('x', [param('__proto__', '{"polluted":true}', { string: 'false' }), param('constructor', 'c'), param('toString', 't')]),
    ])
    const outcome = analyse(input)
    const call = outcome.rawCalls[0]
    assert(call !== undefined && outcome.rawCalls.length === 1, `expected one call, got ${outcome.rawCalls.length}`)
    const args = call.arguments
    const own = (key: string): boolean => Object.prototype.hasOwnProperty.call(args, key)
    assert(own('__proto__') && own('constructor') && own('toString'), `own keys: ${JSON.stringify(Object.getOwnPropertyNames(args))}`)
    assertEqual(Object.getOwnPropertyDescriptor(args, '__proto__')?.value, { polluted: true }, '__proto__ value')
    assertEqual(Object.getOwnPropertyDescriptor(args, 'constructor')?.value, 'c', 'constructor value')
    assertEqual((({}) as Record<string, unknown>)['polluted'], undefined, 'Object.prototype polluted')
    assert(!Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), 'Object.prototype polluted')
    const proto = Object.getPrototypeOf(args) as unknown
    assert(proto === Object.prototype || proto === null, 'arguments has a foreign prototype')
    assertEqual(JSON.parse(JSON.stringify(args)), JSON.parse('{"__proto__":{"polluted":true},"constructor":"c","toString":"t"}'), 'serialised')
  })

  test('v25-raw-json-body: invoke body is a bare JSON object', () => {
    const input = block([invoke('cfg', [], { body: '{"a":1,"b":{"c":[true]}}\n' })])
    expectOutcome(input, { calls: [{ name: 'cfg', arguments: { a: 1, b: { c: [true] } } }], text: '', ranges: whole(input) })
  })

  test('v25-raw-json-body: a JSON array or invalid JSON body is not arguments', () => {
    for (const body of ['[1,2]\n', '{a:1}\n', 'just words\n']) {
      const input = block([invoke('cfg', [], { body })])
      expectOutcome(input, { calls: [], text: '', ranges: whole(input) })
    }
  })

  // ── V26: wrapped tool ────────────────────────────────────────────────────

  const wrappedInner = (): string => param('path', 'a.kt') + '\n' + param('oldString', 'x = 1') + '\n' + param('newString', 'x = 2')
  const EDIT = { name: 'edit', arguments: { path: 'a.kt', oldString: 'x = 1', newString: 'x = 2' } }

  test('v26-wrapped-tool: markerless outer <parameter name="edit">, inner markered params, invoke closer', () => {
    const input = '<parameter name="edit">\n' + wrappedInner() + '\n' + close('invoke')
    expectOutcome(input, { calls: [EDIT], text: '', ranges: whole(input) })
  })

  test('v26-wrapped-tool: markered outer parameter', () => {
    const input = open('parameter', { name: 'edit' }) + '\n' + wrappedInner() + '\n' + close('invoke')
    expectOutcome(input, { calls: [EDIT], text: '', ranges: whole(input) })
  })

  test('v26-wrapped-tool: closed by the outer parameter closer', () => {
    const input = '<parameter name="edit">\n' + wrappedInner() + '\n</parameter>'
    expectOutcome(input, { calls: [EDIT], text: '', ranges: whole(input) })
  })

  test('v26-wrapped-tool: trailing stray closers after the call are removed; prose before is kept', () => {
    const v41 = dialect({ tagSpace: true })
    const input = 'Let me fix it.\n\n<parameter name="edit">\n' + wrappedInner() + '\n' + v41.close('invoke') + '\n' + v41.close('calls')
    expectOutcome(input, { calls: [EDIT], textTrimmed: 'Let me fix it.' })
  })

  test('v26-wrapped-tool: two wrapped tools in a row give two calls', () => {
    const v41 = dialect({ tagSpace: true })
    const first = '<parameter name="read">\n' + param('path', 'a.kt') + '\n' + v41.close('invoke')
    const second = '<parameter name="read">\n' + param('path', 'b.kt') + '\n' + v41.close('invoke')
    const input = `Reading both.\n${first}\n${second}`
    expectOutcome(input, {
      calls: [
        { name: 'read', arguments: { path: 'a.kt' } },
        { name: 'read', arguments: { path: 'b.kt' } },
      ],
      text: 'Reading both.\n\n',
    })
  })

  test('v26-wrapped-tool: plain <parameter> in prose with no marker anywhere is released unchanged', () => {
    const input = 'Pass <parameter name="x">the value</parameter> to the template.'
    expectOutcome(input, { calls: [], text: input, ranges: [] })
  })

  test('v26-wrapped-tool: incomplete nesting gives no call and leaks no marker', () => {
    const input = 'Edit:\n<parameter name="edit">\n' + param('path', 'a.kt', { noCloser: true })
    const outcome = expectOutcome(input, { calls: [] })
    assert(outcome.text.startsWith('Edit:\n'), `prose before is kept, got ${JSON.stringify(outcome.text)}`)
  })

  // ── reject arms ──────────────────────────────────────────────────────────

  test('reject-no-marker: "hello world"', () => {
    const outcome = expectOutcome('hello world', { calls: [], text: 'hello world', ranges: [] })
    assertEqual(outcome.diagnostics, [], 'diagnostics')
  })

  test('reject-not-dsml: long prose with <, >, |, the word DSML and CJK full-width bars passes unchanged', () => {
    const prose = [
      'The DSML format is described below. If a < b and c > d then a | b holds.',
      '<div class="x">html</div> and <b>bold</b>, a<b, x</y, <-- arrow, <| not a marker.',
      `名称${FW_BAR}价格${FW_BAR}数量 is a CJK table header; ${DOUBLE_BAR} and ${BOX_BAR} are box characters.`,
      'Shell: ls -la | grep x > out.txt 2>&1 ; echo "<tool_calls> is just a word here" ',
    ]
      .join('\n')
      .repeat(20)
    const outcome = expectOutcome(prose, { calls: [], text: prose, ranges: [] })
    assertEqual(outcome.diagnostics, [], 'diagnostics')
    assertEqual(containsDsmlSentinel(prose), false, 'containsDsmlSentinel(prose)')
  })

  test('reject-not-dsml: containsDsmlSentinel finds markers of every spelling', () => {
    assertEqual(containsDsmlSentinel('hello world'), false, 'plain')
    assertEqual(containsDsmlSentinel(''), false, 'empty')
    for (const d of [canonical, dialect({ bars: 2 }), dialect({ bar: '|', spaced: true }), dialect({ bar: DOUBLE_BAR }), dialect({ tagSpace: true })]) {
      const input = `prose ${bashBlock(d)} prose`
      assertEqual(containsDsmlSentinel(input), true, `sentinel in ${JSON.stringify(input.slice(0, 30))}`)
    }
    assertEqual(containsDsmlSentinel(`${marker()}tool_calls>`), true, 'fragment without <')
  })

  test('reject-empty-args: invoke with no parameters gives no call, markup removed', () => {
    const input = block([invoke('bash', [])])
    expectOutcome(input, { calls: [], text: '', ranges: whole(input), diagnostics: ['dropped-markup'] })
  })

  test('reject-empty-args: empty orphan invoke next to prose', () => {
    const inv = invoke('bash', [])
    const input = `ok ${inv} ok`
    expectOutcome(input, { calls: [], text: 'ok  ok', ranges: [rangeOf(input, inv)] })
  })
  // ── what serving stacks' own DeepSeek parsers expect (their test suites) ──

  test('damaged wrapper: an unknown-name tag before a real block is junk, not a tool-name tag that swallows the block', () => {
    for (const junk of [`<${marker()} SugarPanel>\n`, `<${marker()}tool_calls...\n\n`, `<${marker()}tool_calls-ok Let's scan.\n`]) {
      for (const leak of [bashBlock(), bashInvoke()]) {
        const outcome = analyse(`Checking.\n\n${junk}${leak}`)
        assertEqual(outcome.calls, [BASH], JSON.stringify(junk))
        assert(!containsDsmlSentinel(outcome.text), `no marker left: ${JSON.stringify(outcome.text)}`)
      }
    }
  })

  test('parameter values: a closer with junk after its name, or a block opener, is literal text in the value', () => {
    const m = marker()
    for (const literal of [`echo "x"</${m}parameter |\nprintf done`, `cat <<EOF\n</${m}parameter |\nEOF`, `Echo \`<${m}tool_calls>\` verbatim`]) {
      const input = block([invoke('bash', [param('command', literal)])])
      expectOutcome(input, { calls: [{ name: 'bash', arguments: { command: literal } }], text: '' })
    }
  })

  test('raw JSON bodies broken over lines (a string split by a raw line break) are read with the lines joined', () => {
    const body = '{"todo": "Explore the root\n   directory structure", "n": 2}'
    const input = block([invoke('bash', [], { body })])
    expectOutcome(input, { calls: [{ name: 'bash', arguments: { todo: 'Explore the root directory structure', n: 2 } }], text: '' })
  })

  test('a self-closing invoke is a complete invoke with no arguments: a call only when the declared schema requires none', () => {
    const input = `<${marker()}tool_calls>\n<${marker()}invoke name="submit"/>\n</${marker()}tool_calls>`
    expectOutcome(input, { calls: [{ name: 'submit', arguments: {} }], text: '' }, { tools: [{ name: 'submit' }] })
    expectOutcome(input, { calls: [], text: '' }, { knownTools: ['submit'] })
    const alone = `<${marker()}invoke name="submit"/>`
    expectOutcome(alone, { calls: [{ name: 'submit', arguments: {} }], text: '' }, { tools: [{ name: 'submit' }] })
    expectOutcome(alone, { calls: [], text: '' })
  })
})
