/**
 * Issue 21, leaks that drift in every position: once a real marker or special
 * token has opened a block, its tags are read by their shape (DESIGN.md §5.1).
 * Each family is proved by `checkFamily` (whole, split at every offset, one
 * code point at a time, in reasoning, with prose around it, inside a fence),
 * and its look-alikes outside a block stay byte for byte. The captures of
 * these families are in `leaks-wild-3.json` (`wild-captures.cases.ts`).
 * Marker bytes are built at run time.
 */
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, reassemble, runChunks, textOf } from '../support/chunking.ts'
import { ASCII_BAR, BOX_BAR, dialect, DOUBLE_BAR, FW_BAR, leaksMarkup, WORD } from '../support/dsml-builders.ts'
import { diagnosticsOf } from '../support/dsml-checks.ts'
import { checkBenign, checkFamily, checkWhole } from '../support/family-checks.ts'
import { defineSuite } from '../support/harness.ts'

const M = `${FW_BAR}${WORD}${FW_BAR}`
const MM = `${FW_BAR}${FW_BAR}${WORD}${FW_BAR}${FW_BAR}`
const BASH = { name: 'bash', arguments: { command: 'ls -la' } }
const READ = { name: 'read', arguments: { path: 'README.md' } }
const EXECUTE_BASH = { name: 'execute_bash', parameters: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'integer' } }, required: ['command'] } }

export const suite = defineSuite('dsml/drift', (test) => {
  // ── closers whose slash or bars drifted ─────────────────────────────────

  test('issue 21 (drifted closers): a doubled slash, a closer written < /, a slash after the marker, bars run into the name', () => {
    const open = (name: string, attrs = ''): string => `<${M}${name}${attrs}>`
    const body = (closer: string, invokeCloser = `</${M}invoke>`): string =>
      `${open('tool_calls')}\n${open('invoke', ' name="bash"')}\n${open('parameter', ' name="command" string="true"')}ls -la${closer}\n${invokeCloser}\n</${M}tool_calls>`
    for (const closer of [`</ / | ${WORD} | | parameter>`, `</ | ${WORD} |parameter>`, `</ / ${M}parameter>`, `<${M}/parameter>`, `< / ${M} parameter>`]) {
      checkFamily({ input: body(closer), calls: [BASH] })
    }
    checkFamily({ input: body(`</${M}parameter>`, `< / ${M} invoke>`), calls: [BASH] })
    checkFamily({ input: body(`</${M}parameter>`, `<${M}/invoke>`), calls: [BASH] })
  })

  test('issue 21 (drifted closers): look-alikes stay text', () => {
    for (const text of ['a </ / b', 'x < / / y', 'path </ /usr', '< / / | not | a marker', 'a <//b>', 'c </ / / |x|']) checkBenign(text)
  })

  // ── marker-word drift ───────────────────────────────────────────────────

  test('issue 21 (marker-word drift): a block opened by <‹‹DSML›› calls> goes on with |EPSE| tags, reported once', () => {
    const input =
      `<${MM} calls>\n<|EPSE|invoke name="bash">\n<|EPSE|parameter name="command" string="true">ls -la</|EPSE|parameter>\n</|EPSE|invoke>\n` +
      `<| EPSE |invoke name="read">\n< | X | parameter name="path" string="true">README.md</ | X | parameter>\n</|EPSE|invoke>\n</${MM} calls>`
    checkFamily({ input, calls: [BASH, READ] })
    const drifted = diagnosticsOf(runChunks([input])).filter((diagnostic) => diagnostic.kind === 'drifted-markup')
    assertEqual(drifted.length, 1, 'once per block')
    assert(drifted[0]!.message.includes('"EPSE"') && drifted[0]!.text === '', 'names the word, removes nothing itself')
  })

  test('issue 21 (marker-word drift): the word with its bars lost, and drifted words in the value of an open parameter', () => {
    const input = `<${M}tool_calls>\n<${WORD}invoke name="bash">\n<${WORD}parameter name="command" string="true">ls -la</${WORD}parameter>\n</${WORD}invoke>\n</${M}tool_calls>`
    checkFamily({ input, calls: [BASH] })
    const value = `<${M}invoke name="bash">\n<${M}parameter name="command" string="true">ls -la</|XY|parameter>\n</${M}invoke>`
    checkFamily({ input: value, calls: [BASH] })
  })

  test('issue 21 (marker-word drift): outside a block a drifted word is no marker; inside, only before a known name', () => {
    for (const text of ['<|EPSE|invoke name="bash">', '</|EPSE|parameter>', `<${WORD}invoke name="x">`, '<|abc|def|>', '| EPSE | invoke |', '<DSMLx>']) checkBenign(text)
    // In a block, a drifted word before an unknown name, or a word too long, is text of the block (removed with it): no call is made from it.
    const long = `<${M}invoke name="bash">\n<|ABCDEFGHI|parameter name="command">ls</${M}parameter>\n</${M}invoke>`
    assertEqual(callsOf(runChunks([long])), [], 'a nine-letter word is no marker: the invoke has no parameter')
  })

  // ── a tool name as the tag, its fields as elements ───────────────────────

  test('issue 21 (tool-name tag): DSML-marked fields closed by the generic closer or by their own name, and plain elements', () => {
    const tools = [{ name: 'execute_command' }, { name: 'read_file' }, { name: 'replace_in_file' }]
    checkFamily({
      input: `<${M}execute_command>\n <${M}command>npm test 2>&1 | tail -30</${M}parameter>\n <timeout>600</timeout>\n</${M}invoke>`,
      calls: [{ name: 'execute_command', arguments: { command: 'npm test 2>&1 | tail -30', timeout: '600' } }],
      options: { tools },
    })
    checkFamily({ input: `<${M}read_file>\n<${M}path>C:/tmp/a.ts</${M}path>\n</${M}invoke>`, calls: [{ name: 'read_file', arguments: { path: 'C:/tmp/a.ts' } }], options: { tools } })
    checkFamily({
      input: `<${M}read_file>\n <path>C:/tmp/strategy-memory.ts</${M}parameter>\n</${M}invoke>`,
      calls: [{ name: 'read_file', arguments: { path: 'C:/tmp/strategy-memory.ts' } }],
      options: { tools },
    })
    checkFamily({
      input: `<${M}replace_in_file>\n<${M}path>a.ts</${M}parameter>\n<${M}diff>old\n=======\nnew</${M}parameter>\n</${M}replace_in_file>`,
      calls: [{ name: 'replace_in_file', arguments: { path: 'a.ts', diff: 'old\n=======\nnew' } }],
      options: { tools },
    })
  })

  test('issue 21 (tool-name tag): a JSON object as its whole body; fields typed by the declared schema; an undeclared name removed', () => {
    checkFamily({ input: `<${M}general-tool>\n  {\n "message": "hello",\n "enabled": true\n }\n</${M}general-tool>`, calls: [{ name: 'general-tool', arguments: { message: 'hello', enabled: true } }] })
    const typed = { tools: [{ name: 'execute_command', parameters: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'integer' } }, required: ['command'] } }] }
    checkFamily({ input: `<${M}execute_command>\n<${M}command>ls</${M}command>\n<timeout><![CDATA[600]]></timeout>\n</${M}invoke>`, calls: [{ name: 'execute_command', arguments: { command: 'ls', timeout: 600 } }], options: typed })
    const undeclared = runChunks([`<${M}not_declared><${M}command>ls</${M}command></${M}invoke>`], typed)
    assertEqual([callsOf(undeclared), textOf(undeclared)], [[], ''], 'removed, reported, never run')
  })

  // ── the compact form ────────────────────────────────────────────────────

  test('issue 21 (compact form): <‹‹DSML››r=NAME> with one <‹‹DSML››m> argument, named by the schema’s only required property', () => {
    const input = `<${MM}r=execute_bash>\n<${MM}m>cat /app/dist/index.js</${MM}m>\n</${MM}r>`
    checkFamily({ input, calls: [{ name: 'execute_bash', arguments: { command: 'cat /app/dist/index.js' } }], options: { tools: [EXECUTE_BASH] } })
    checkFamily({ input: `<${M}r="execute_bash">\n<${M}m>pwd</${M}m>\n</${M}r>`, calls: [{ name: 'execute_bash', arguments: { command: 'pwd' } }], options: { tools: [EXECUTE_BASH] } })
  })

  test('issue 21 (compact form): with no schema, or no single required property, the call is rejected and the markup removed', () => {
    const input = `Let me look.\n<${MM}r=execute_bash>\n<${MM}m>ls</${MM}m>\n</${MM}r>`
    const two = { name: 'execute_bash', parameters: { type: 'object', properties: { command: { type: 'string' }, cwd: { type: 'string' } }, required: ['command', 'cwd'] } }
    for (const options of [{}, { knownTools: ['execute_bash'] }, { tools: [two] }, { tools: [{ name: 'execute_bash' }] }]) {
      const events = assertChunkInvariant(input, options, assertEqual)
      assertEqual([callsOf(events), textOf(events)], [[], 'Let me look.\n'], JSON.stringify(options))
      assertEqual(reassemble(events), input, 'conservation')
      assert(diagnosticsOf(events).some((diagnostic) => diagnostic.kind === 'dropped-markup' && diagnostic.tool === 'execute_bash'), 'a diagnostic names the tool')
    }
    checkBenign('r=execute_bash and <r=x> and <|r=x> and <m>value</m>')
  })

  // ── a missing </invoke> ─────────────────────────────────────────────────

  test('issue 21 (missing invoke closer): before the block closer or the next invoke, every parameter closed, the call is made', () => {
    const d = dialect()
    checkFamily({ input: d.block([d.invoke('bash', [d.param('command', 'ls -la')], { noCloser: true })]), calls: [BASH] })
    checkFamily({ input: d.block([d.invoke('bash', [d.param('command', 'ls -la')], { noCloser: true }), d.invoke('read', [d.param('path', 'README.md')])]), calls: [BASH, READ] })
    const v41 = dialect({ tagSpace: true, bars: 2 })
    checkFamily({ input: v41.block([v41.invoke('bash', [v41.param('command', 'ls -la')], { noCloser: true })], { name: 'calls' }), calls: [BASH] })
  })

  test('issue 21 (missing invoke closer): stays rejected when the block is cut short or a parameter never closed', () => {
    const d = dialect()
    for (const input of [
      d.block([d.invoke('bash', [d.param('command', 'ls -la')], { noCloser: true })], { noCloser: true }),
      d.block([d.invoke('bash', [d.param('command', 'ls -la', { noCloser: true })], { noCloser: true })]),
    ]) {
      const events = assertChunkInvariant(input, {}, assertEqual)
      assertEqual([callsOf(events), textOf(events)], [[], ''], JSON.stringify(input))
    }
  })

  test('issue 21 (drifted block names): a block opener or closer whose name drifted (tool_cals, tool_cimport) is a block tag; a declared tool of such a name is a tool-name tag', () => {
    const d = dialect()
    const call = d.invoke('bash', [d.param('command', 'ls -la')])
    for (const [opener, closer] of [['tool_calls', 'tool_cals'], ['tool_cals', 'tool_cals'], ['tool_cimport', 'tool_cimport'], ['function_cals', 'function_calls']]) {
      const input = `<${M}${opener}>\n${call}\n</${M}${closer}>`
      checkFamily({ input, calls: [BASH] })
      const events = assertChunkInvariant(`${input}\nafter`, {}, assertEqual)
      assertEqual(textOf(events), '\nafter', `${opener}/${closer}: the text after the block is kept`)
    }
    const declared = { tools: [{ name: 'tool_status' }, { name: 'bash' }] }
    const events = assertChunkInvariant(`<${M}tool_status>\n<check>all</check>\n</${M}tool_status>`, declared, assertEqual)
    assertEqual(callsOf(events), [{ name: 'tool_status', arguments: { check: 'all' } }], 'a declared tool, not a block')
  })

  test('issue 21 (non-finite numbers in a JSON text of arguments): the number keeps its text, the call is kept', () => {
    const id = '12345678901234567890'
    const special = `<${FW_BAR}tool\u2581call\u2581begin${FW_BAR}>bash<${FW_BAR}tool\u2581sep${FW_BAR}>{"command":"ls","n":${id}}<${FW_BAR}tool\u2581call\u2581end${FW_BAR}>`
    checkWhole({ input: special, calls: [{ name: 'bash', arguments: { command: 'ls', n: id } }] })
    const d = dialect()
    checkWhole({ input: d.block([d.invoke('bash', [], { body: `{"command":"ls","t":1e999}\n` })]), calls: [{ name: 'bash', arguments: { command: 'ls', t: '1e999' } }] })
  })

  // ── CDATA values ────────────────────────────────────────────────────────

  test('issue 21 (CDATA values): the wrapper goes, the content stays verbatim; the schema types it', () => {
    const d = dialect({ bar: ASCII_BAR })
    const input = d.block([d.invoke('terminal', [d.param('command', '<![CDATA[find "/home" -type d]]>', { string: null }), d.param('timeout', '<![CDATA[10]]>', { string: null })])])
    checkFamily({ input, calls: [{ name: 'terminal', arguments: { command: 'find "/home" -type d', timeout: '10' } }] })
    const typed = { tools: [{ name: 'terminal', parameters: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'integer' } } } }] }
    checkWhole({ input, calls: [{ name: 'terminal', arguments: { command: 'find "/home" -type d', timeout: 10 } }], options: typed })
    const verbatim = d.block([d.invoke('write', [d.param('content', '<![CDATA[a &amp; b\n  <b>x</b>]]>')])])
    checkWhole({ input: verbatim, calls: [{ name: 'write', arguments: { content: 'a &amp; b\n  <b>x</b>' } }] })
  })

  // ── the edges of a block: V4.1's opener that lost its marker ─────────────

  test('issue 21 (lost-marker opener): < calls> or <calls> on its own line right before a marked invoke goes with the block', () => {
    for (const opener of ['< calls>', '<calls>', '<  calls>']) {
      const d = dialect({ bar: ASCII_BAR })
      const input = `${opener}\n${d.invoke('pwsh', [d.param('command', "Get-ChildItem -LiteralPath 'D:\\work'")])}\n</|${WORD}|calls>`
      checkFamily({ input, calls: [{ name: 'pwsh', arguments: { command: "Get-ChildItem -LiteralPath 'D:\\work'" } }] })
    }
    const v41 = dialect({ tagSpace: true })
    checkFamily({ input: `< calls>\n\n${v41.invoke('bash', [v41.param('command', 'ls -la')])}\n</${M} calls>`, calls: [BASH] })
    const indented = `Now:\n  < calls>\n${v41.invoke('bash', [v41.param('command', 'ls -la')])}\n</${M} calls>`
    const events = assertChunkInvariant(indented, {}, assertEqual)
    assertEqual([callsOf(events), textOf(events)], [[BASH], 'Now:\n  '], 'indented: its own line still')
  })

  test('issue 21 (lost-marker opener): after long prose and before a long blank gap, whole and at every split (the fast paths look back for it)', () => {
    const d = dialect({ bar: ASCII_BAR })
    const prose = 'This paragraph is long enough that the scanner reads it by substring search, not a character at a time. '.repeat(3)
    const input = `${prose}\n< calls>${'\n'.repeat(80)}${d.invoke('bash', [d.param('command', 'ls -la')])}\n</|${WORD}|calls>`
    const events = assertChunkInvariant(input, {}, assertEqual)
    assertEqual([callsOf(events), textOf(events)], [[BASH], `${prose}\n`])
    const released = `${prose}\n< calls>${'\n'.repeat(80)}and then prose.`
    assertEqual(textOf(assertChunkInvariant(released, {}, assertEqual)), released, 'no marked tag after it: text')
  })

  test('issue 21 (lost-marker opener): a partial tag pending right before it shares its fate, whole as at every split (fuzz counterexample)', () => {
    // `<` then `< calls>` then a marked tag: the lone `<` is a partial tag cut short by the opener. Read split, it waits
    // (pending) and goes with the opener; read whole, the fast path once stopped at the opener and let it out as text.
    const d = dialect()
    const input = `<< calls>${d.param('n', '1', { string: 'false' })}<tool_call name="bash">`
    const options = { preset: 'relaxed', maxHoldChars: 256, eagerStopChars: 32 } as const
    const events = assertChunkInvariant(input, options, assertEqual)
    assertEqual(textOf(events), '', 'the markup cut short by the end goes, the pending < with it')
    assertEqual(reassemble(events), input, 'conservation')
    const lineBreak = `Text\n<< calls>\n${d.invoke('bash', [d.param('command', 'ls -la')])}\n</${M}calls>`
    const recovered = assertChunkInvariant(lineBreak, {}, assertEqual)
    assertEqual([callsOf(recovered), textOf(recovered)], [[BASH], 'Text\n'])
  })

  test('issue 21 (lost-marker opener): a partial closer after it is text, as read whole, so the opener is not right before the marked tag (fuzz counterexample)', () => {
    // Read split, `<calls>` was a candidate in whose context `</tool` could begin a markerless closer: pending, it went with the marked tag.
    const input = `<calls></tool<${FW_BAR}${FW_BAR}${WORD}${FW_BAR} parameter name="p" string="true"><<${M}m>`
    const events = assertChunkInvariant(input, { preset: 'relaxed', maxHoldChars: 256, eagerStopChars: 1024 }, assertEqual)
    assertEqual(textOf(events), '<calls></tool')
  })

  test('issue 21 (lost-marker opener): whatever follows it, whole, at every split and one unit at a time agree (fuzz counterexamples)', () => {
    const inputs = [
      `<calls>EPSE<function></${M}inv>`,
      `<calls><parameter name="p" string="true"><${M}m><${M}/invoke>`,
      `< calls><function_call></${M}m><${M}ToolCall><tool_call name="bash">`,
      `<calls><function_call><${M}invoke name="bash"> | | function_calls`,
      `< calls><function></ / | ${WORD} | | parameter><${FW_BAR}${M} parameter name="p" string="true">`,
      `< calls><parameter name="name">bash</${M}r><invoke name="read">`,
      `< calls><parameter name="edit">< / | ${WORD} | invoke>a < b<&amp;< /`,
      `< calls>function<function><${M}invoke name="bash">`,
      `< calls><invoke<${M}parameter name="n" string="false">${FW_BAR}${WORD}tool_use>`,
    ]
    for (const input of inputs) {
      for (const options of [{}, { preset: 'relaxed', maxHoldChars: 256, eagerStopChars: 32 }] as const) {
        const events = assertChunkInvariant(input, options, assertEqual)
        assertEqual(reassemble(events), input, `conservation: ${JSON.stringify(input)}`)
      }
    }
    // A partial tag between it and the marked tag: the opener was not right before it, and stays.
    assertEqual(textOf(runChunks([`< calls><invoke<${M}parameter name="n" string="false">x`], {})).startsWith('< calls>'), true)
  })

  test('issue 21 (lost-marker opener): mid-line, before prose, or before markerless tags it is text', () => {
    const d = dialect()
    for (const text of ['The <calls> element.', '< calls> are made', '<calls>\nsome prose\n', '<calls>', 'x\n< calls>\n<invoke name="bash">\n</invoke>', 'see `<calls>`']) checkBenign(text)
    const midLine = `Use <calls> here ${d.invoke('bash', [d.param('command', 'ls -la')])}`
    const events = assertChunkInvariant(midLine, {}, assertEqual)
    assertEqual([callsOf(events), textOf(events)], [[BASH], 'Use <calls> here '], 'the invoke is recovered; the mid-line <calls> stays')
  })

  // ── marker fragments that lost their < ────────────────────────────────────

  test('issue 21 (fragments without <): in full-width or ‖ bars, drifted spacing or a lost second bar is removed wherever it stands', () => {
    for (const fragment of [`${FW_BAR}${WORD} ${FW_BAR}invoke name="x">`, `${FW_BAR}${WORD}tool_use>`, `${FW_BAR} ${WORD}${FW_BAR}`, `${DOUBLE_BAR} ${WORD} ${DOUBLE_BAR}tool_calls>`, `${FW_BAR}${WORD}${FW_BAR}/invoke>`, `${FW_BAR}${FW_BAR} ${WORD}`]) {
      const input = `Thinking about it ${fragment} now.`
      const events = assertChunkInvariant(input, {}, assertEqual)
      assertEqual(textOf(events), 'Thinking about it  now.', JSON.stringify(fragment))
      assert(!leaksMarkup(textOf(events)), 'nothing of it left')
    }
  })

  test('issue 21 (fragments without <): an ASCII fragment cutting short a tag in wordless bars takes it along, at every split (fuzz counterexample)', () => {
    // `<‹│function_calls` is cut short by `|DSML|`: before an ASCII fragment, a full-width one inside the tag is tried
    // only while it is still open there; `‹│` is ended by the name, so the tag's fate is the fragment's.
    for (const bars of [`${FW_BAR}${BOX_BAR}`, `${FW_BAR}${FW_BAR}`]) {
      const input = `Then <${bars}function_calls|${WORD}| and more.`
      for (const eagerStopChars of [1, 32]) {
        const events = assertChunkInvariant(input, { preset: 'relaxed', maxHoldChars: 256, eagerStopChars }, assertEqual)
        assertEqual(textOf(events), 'Then  and more.', JSON.stringify(bars))
        assert(!leaksMarkup(textOf(events)), 'no marker left')
      }
    }
  })

  test('issue 21 (fragments without <): a rejected tag is read again from the bar where a fragment commits, what comes before it going with that fragment (fuzz counterexample)', () => {
    // `<‹ ‹invoke‹DSMLtool_use>` read in a block is rejected at its `>`; read again from its first bar, `‹ ‹` failed and let
    // `<‹ ‹invoke` out as text, which the lexer reads as a marker. Any eager stop (the block given up early or late) agrees.
    const input = `<${M}tool_calls>parameter<${FW_BAR} ${FW_BAR}invoke${FW_BAR}${WORD}tool_use>`
    for (const eagerStopChars of [1, 2, 32, 1024]) {
      const events = assertChunkInvariant(input, { preset: 'relaxed', maxHoldChars: 256, eagerStopChars }, assertEqual)
      assertEqual(textOf(events), 'parameter', `eagerStopChars ${eagerStopChars}`)
    }
  })

  test('issue 21 (fragments without <): in ASCII or box bars, only inside a block; outside, a table cell stays', () => {
    for (const text of [`| a | ${WORD} |\n|---|---|`, `| ${WORD} |invoke name="x">`, `|${WORD}tool_use>`, `${BOX_BAR} ${WORD} ${BOX_BAR}`]) checkBenign(text)
    const input = `<${M}tool_calls>\n| ${WORD} |invoke name="bash">\n<${M}invoke name="bash">\n<${M}parameter name="command" string="true">ls -la</${M}parameter>\n</${M}invoke>\n</${M}tool_calls>`
    checkFamily({ input, calls: [BASH] })
  })

  // ── what it must keep ───────────────────────────────────────────────────

  test('issue 21 (inline code spans): a CommonMark code span is documentation, kept verbatim, never run', () => {
    const block = dialect().block([dialect().invoke('bash', [dialect().param('command', 'ls -la')])])
    for (const text of [`Example: \`${block}\` runs nothing.`, `Two: \`\`${block}\`\``, `A span\nacross lines: \`${block.replaceAll('\n', ' ')}\nends here\``, `- item \`${block}\``, `> quoted \`${block}\``]) {
      checkBenign(text)
    }
  })

  test('issue 21 (inline code spans): a stray backtick with no closer, a closed span before, or a span ended by a blank line: the leak is real', () => {
    const block = dialect().block([dialect().invoke('bash', [dialect().param('command', 'ls -la')])])
    for (const [before, after] of [['A stray ` then ', ' done.'], ['Code `x` then ', ' done.'], ['Open `\n\n', ' done.'], ['\\`', ' escaped.']] as const) {
      const input = `${before}${block}${after}`
      const events = assertChunkInvariant(input, {}, assertEqual)
      assertEqual([callsOf(events), textOf(events)], [[BASH], before + after], JSON.stringify(before))
    }
  })

  test('issue 21 (inline code spans): the text held to decide a span never passes maxHoldChars', () => {
    const block = dialect().block([dialect().invoke('bash', [dialect().param('command', 'x'.repeat(2000))])])
    const input = `stray \` ${block} and \``
    for (const maxHoldChars of [256, 1024, 65_536]) {
      const events = runChunks([input], { maxHoldChars })
      assertEqual(reassemble(events), input, `conservation at ${maxHoldChars}`)
    }
    // Past the cap, what was held is read as not in a span: the leak is removed.
    assert(!leaksMarkup(textOf(runChunks([input], { maxHoldChars: 256 }))), 'removed past the cap')
    assertEqual(textOf(runChunks([input], { maxHoldChars: 65_536 })), input, 'within the cap: a span, kept')
    // The gate holds from a tag it read, never from a tag start that turns out to be text (`<div>`, `<` at a chunk's
    // end): where the cap falls does not depend on how the text was split.
    const short = dialect().block([dialect().invoke('bash', [dialect().param('command', 'ls')])])
    const capped = `\`${'x'.repeat(200)}<div>${'y'.repeat(150)}${short}\` z`
    const events = assertChunkInvariant(capped, { maxHoldChars: 256 }, assertEqual)
    assertEqual([callsOf(events), textOf(events)], [[], capped], 'the span closes within the cap counted from the block')
  })

  test('issue 21 (inline code spans): every tag read as markup outside a region is asked, however it came there (review regressions)', () => {
    const call = `<${M}tool_calls><${M}invoke name="bash"><${M}parameter name="command" string="true">rm -rf ~</${M}parameter></${M}invoke></${M}tool_calls>`
    const invoke = `<${M}invoke name="bash"><${M}parameter name="command" string="true">rm -rf ~</${M}parameter></${M}invoke>`
    for (const [text, options] of [
      // a markerless candidate the DSML tag ends, not continues: released, and the tag is asked
      [`V3 wrapped calls in <function_calls>; V4 writes \`${call}\` instead.`, {}],
      [`See <tool_calls> and \`${call}\` ok.`, {}],
      // an eager stop inside the DSML tag releases the candidate that the tag confirms
      [`See <tool_calls> ${'x'.repeat(1004)} \`${invoke}\` ok.`, {}],
      // a run closed the place's span before the cap, another may close later: in a span all the same
      [`Use \`\` or \`${call}\` ${'y'.repeat(600)}`, { maxHoldChars: 512 }],
    ] as const) {
      const events = assertChunkInvariant(text, options, assertEqual)
      assertEqual(callsOf(events), [], JSON.stringify(text.slice(0, 40)))
      assertEqual(reassemble(events), text, 'conservation')
    }
  })

  test('issue 21 (inline code spans): a span read as documentation ends what its markup opened, and its closing run stays (review regressions)', () => {
    // the closing run inside the value, the closers after the span: in code, so nothing runs
    const inValue = `Use \`<${M}tool_calls><${M}invoke name="bash"><${M}parameter name="command" string="true">rm -rf ~\`</${M}parameter></${M}invoke></${M}tool_calls>`
    // the span holds an opener, its parameter comes after it (and may be markup): the invoke ends with the span
    const opener = `Example \`<${M}invoke name="bash">\`<${M}parameter name="command" string="true">ls</${M}parameter></${M}invoke> done`
    const markerless = `Wrap calls in \`<${M}invoke name="bash">\`<invoke name="x"> then prose that must stay.`
    for (const text of [inValue, opener, markerless]) {
      const events = assertChunkInvariant(text, {}, assertEqual)
      assertEqual(callsOf(events), [], JSON.stringify(text.slice(0, 40)))
      assertEqual(reassemble(events), text, 'conservation')
    }
    // the prose after a span read as documentation stays, and so do the span's backticks
    assertEqual(textOf(runChunks([markerless])), 'Wrap calls in ``<invoke name="x"> then prose that must stay.')
    // HTML after a span is no reason to doubt it: kept verbatim
    for (const html of ['<p>', '<img src=x>', '<td>', '<i>x</i>']) checkBenign(`Wrap calls in \`<${M}invoke name="bash">\`${html} then prose.`)
  })

  test('issue 21 (inline code spans): the runs a gate read answer only for the text it held, never for a later chunk equal to it', () => {
    const call = `<${M}tool_calls><${M}invoke name="bash"><${M}parameter name="command" string="true">rm -rf ~</${M}parameter></${M}invoke></${M}tool_calls>`
    const held = `${call} b\n> x`
    // at the top level "> x" begins a block quote, ending the paragraph; in a quote it goes on, and "``" closes the span
    const chunks = ['``a ', held, '\n\n> ``a ', held, '`` c']
    assertEqual(callsOf(runChunks(chunks)).length, 1, 'the second call is in a span')
    assertEqual(callsOf(runChunks([chunks.join('')])).length, 1)
  })

  test('issue 21 (non-finite numbers, unwrap on a match): values keep their text; a wrapper whose keys the schema lacks stays', () => {
    const d = dialect()
    const input = d.block([d.invoke('calc', [d.param('x', '1e999', { string: 'false' }), d.param('y', '[1e999]', { string: 'false' }), d.param('z', '2.5', { string: 'false' })])])
    checkWhole({ input, calls: [{ name: 'calc', arguments: { x: '1e999', y: '[1e999]', z: 2.5 } }] })
    const tool = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } }
    const wrapped = (inner: string): string => d.block([d.invoke('get_weather', [d.param('arguments', inner, { string: 'false' })])])
    checkWhole({ input: wrapped('{"location": "NYC"}'), calls: [{ name: 'get_weather', arguments: { location: 'NYC' } }], options: { tools: [tool] } })
    checkWhole({ input: wrapped('{"unknown_key": "val"}'), calls: [{ name: 'get_weather', arguments: { arguments: { unknown_key: 'val' } } }], options: { tools: [tool] } })
  })

  test('issue 21 (fuzz regressions): fragments inside a rejected tag, and text a code-span gate holds when the text ends', () => {
    for (const [text, options] of [
      [`${FW_BAR} ${FW_BAR}| ${WORD} |`, { maxHoldChars: 256, eagerStopChars: 1 }],
      [`<${FW_BAR}parameter${FW_BAR}${WORD}${FW_BAR}`, { maxHoldChars: 256, eagerStopChars: 1 }],
      [`<${FW_BAR} ${FW_BAR}tool${FW_BAR}${WORD} ${FW_BAR}invoke name="x">`, { maxHoldChars: 256, eagerStopChars: 1 }],
      [`<${M}tool_calls>\`\`\`\`<|X|`.repeat(3), { maxHoldChars: 256, eagerStopChars: 7 }],
      [`<${M}tool_calls><${FW_BAR}DS${FW_BAR}${WORD}${FW_BAR}`, { maxHoldChars: 256 }],
      [`<${M} calls><${FW_BAR}DS${FW_BAR}${FW_BAR}${WORD}${FW_BAR}${FW_BAR}`, { maxHoldChars: 300, eagerStopChars: 32, preset: 'strict' }],
      [`${DOUBLE_BAR} ${DOUBLE_BAR} ${DOUBLE_BAR} ${DOUBLE_BAR} || ${WORD} ||invoke name="x">`, {}],
      // a closing run right before markup that is removed would join the backticks after it: not trusted
      [`\`\`\`\`</${M}invoke>\`\`\`\`<${M}/invoke>\`\`\`json\n`, { maxHoldChars: 256, eagerStopChars: 1 }],
    ] as const) {
      const events = assertChunkInvariant(text, options, assertEqual)
      assertEqual(reassemble(events), text, `conservation: ${JSON.stringify(text)}`)
      assert(!leaksMarkup(textOf(events)), `no marker left: ${JSON.stringify(textOf(events))}`)
    }
  })
})
