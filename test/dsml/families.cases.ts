import { containsDsmlSentinel } from '../../src/dsml/index.ts'
/**
 * The leak families seen in the wild (DESIGN.md §4, "other spellings"), each
 * proved by `checkFamily`: whole, split at every offset and one code point at
 * a time, in reasoning, with prose around it, inside a fence (not run), and
 * its benign look-alikes kept byte for byte. The captures of each family are
 * in `wild-captures.cases.ts`.
 */
import { ASCII_BAR, dialect, FW_BAR, LOWER_BLOCK, WORD } from '../support/dsml-builders.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { callsOf, runChunks, textOf } from '../support/chunking.ts'
import { checkBenign, checkFamily } from '../support/family-checks.ts'
import { defineSuite } from '../support/harness.ts'

const BASH = { name: 'bash', arguments: { command: 'ls -la' } }
const READ = { name: 'read', arguments: { path: 'README.md', limit: '20' } }

/** A DeepSeek special token: `words` joined by `separator` between `bar`s (`<‹tool▁sep›>`). */
function token(words: string, bar = FW_BAR, separator = LOWER_BLOCK, spaced = false): string {
  const pad = spaced ? ' ' : ''
  return `<${pad}${bar}${pad}${words.split(' ').join(separator)}${pad}${bar}${pad}>`
}

/** A pre-DSML call: V3/R1 (`function` ‹sep› NAME + fenced JSON) or V3.1 (NAME ‹sep› JSON). */
function specialCall(name: string, args: object, format: 'v3' | 'v3.1', spell: (words: string) => string = (words) => token(words)): string {
  const json = JSON.stringify(args)
  const inner = format === 'v3' ? `function${spell('tool sep')}${name}\n\`\`\`json\n${json}\n\`\`\`` : `${name}${spell('tool sep')}${json}`
  return `${spell('tool call begin')}${inner}${spell('tool call end')}`
}

/** The tools a request declared, for the markerless families. */
const declared = { knownTools: ['bash', 'read', 'skills_list'] }

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

  // ── 3. the tool name carried by the markup around the arguments ─────────

  test('family 3 (name in a parameter called name): no block, no invoke opener, only the closers marked (Lingma)', () => {
    const marker = `${FW_BAR}${WORD}${FW_BAR}`
    const input = `<parameter name="name">bash</${marker}parameter>\n<parameter name="command">ls -la</${marker}parameter>\n</${marker}invoke>`
    checkFamily({ input, calls: [BASH] })
    checkFamily({ input: `${input}</${marker}tool_calls>`, calls: [BASH] })
  })

  test('family 3 (element-style opener): <function><name>X</name>, markerless parameters, closed by DSML closers', () => {
    const marker = `${FW_BAR}${FW_BAR}${WORD}${FW_BAR}${FW_BAR}`
    const input = `<function>\n<name>read</name>\n<parameter name="path">README.md</${marker}parameter>\n<parameter name="limit">20</${marker}parameter>\n</${marker}invoke>\n</${marker}tool_calls>`
    checkFamily({ input, calls: [READ] })
  })

  test('family 3 (invented names under a marker): <‹DSML›ToolCall> with <‹DSML›ToolName>, the block closer ending the call', () => {
    const marker = `${FW_BAR}${WORD}${FW_BAR}`
    const input = `<${marker}ToolCall>\n<${marker}ToolName>bash</${marker}ToolName>\n<${marker}parameter name="command">ls -la</${marker}parameter>\n</${marker}ToolCall>`
    checkFamily({ input, calls: [BASH] })
  })

  test('family 3 (invented names): two tool names in one block make two calls; a name element ended by another tag does not swallow it', () => {
    const marker = `${FW_BAR}${WORD}${FW_BAR}`
    const two = `<${marker}tool_calls><${marker}ToolName>bash</${marker}ToolName><${marker}parameter name="command">ls -la</${marker}parameter><${marker}ToolName>read</${marker}ToolName><${marker}parameter name="path">README.md</${marker}parameter><${marker}parameter name="limit">20</${marker}parameter></${marker}tool_calls>`
    checkFamily({ input: two, calls: [BASH, READ] })
    const unclosed = `<${marker}tool_calls><${marker}name>x<${marker}invoke name="read"><${marker}parameter name="path">README.md</${marker}parameter><${marker}parameter name="limit">20</${marker}parameter></${marker}invoke></${marker}tool_calls>`
    checkFamily({ input: unclosed, calls: [READ] })
  })

  test('family 3: where the name or the arguments are not clear, the markup is removed and reported, never run', () => {
    const marker = `${FW_BAR}${WORD}${FW_BAR}`
    for (const input of [
      `<${marker}ToolCall><${marker}ToolName>bash</${marker}ToolName><${marker}arguments>{"command":"ls"}</${marker}arguments></${marker}ToolCall>`,
      `<parameter name="name">not a name!</${marker}parameter>\n<parameter name="command">ls</${marker}parameter>\n</${marker}invoke>`,
      `<parameter name="name">bash</${marker}parameter>\n<parameter name="command">ls</${marker}parameter>`,
    ]) {
      const events = runChunks([input])
      assertEqual(callsOf(events), [], JSON.stringify(input))
      assert(!containsDsmlSentinel(textOf(events)), `no marker left: ${JSON.stringify(textOf(events))}`)
    }
  })

  test('family 3 look-alikes: element-style XML with no DSML closer stays text', () => {
    for (const text of [
      '<function>\n<name>bash</name>\n<parameter name="command">ls</parameter>\n</function>',
      'In the DTD, <name>x</name> and <parameter name="name">y</parameter> are ordinary elements.',
    ] as const) checkBenign(text, declared)
  })

  // ── 4. DeepSeek's pre-DSML special-token format ─────────────────────────

  test('family 4 (V3/R1 special tokens): a block of one call, its arguments in a ```json fence', () => {
    const input = `${token('tool calls begin')}${specialCall('bash', BASH.arguments, 'v3')}${token('tool calls end')}`
    checkFamily({ input, calls: [BASH] })
  })

  test('family 4 (V3.1 special tokens): NAME, separator, bare JSON; alone and two in a block', () => {
    checkFamily({ input: specialCall('bash', BASH.arguments, 'v3.1'), calls: [BASH] })
    const two = `${token('tool calls begin')}${specialCall('bash', BASH.arguments, 'v3.1')}\n${specialCall('read', READ.arguments, 'v3.1')}${token('tool calls end')}`
    checkFamily({ input: two, calls: [BASH, READ] })
  })

  test('family 4 (special tokens): ASCII bars, underscores, and the spaced spelling', () => {
    const ascii = (words: string): string => token(words, ASCII_BAR, '_')
    checkFamily({ input: `${ascii('tool calls begin')}${specialCall('bash', BASH.arguments, 'v3', ascii)}${ascii('tool calls end')}`, calls: [BASH] })
    const spaced = (words: string): string => token(words, ASCII_BAR, LOWER_BLOCK, true)
    checkFamily({ input: `${spaced('tool calls begin')}${specialCall('bash', BASH.arguments, 'v3.1', spaced)}${spaced('tool calls end')}`, calls: [BASH] })
  })

  test('family 4 (special tokens): a call cut off, or with no tool name or no JSON, is removed and reported, never run', () => {
    for (const input of [
      `${token('tool call begin')}bash${token('tool sep')}{"command": "ls"}`,
      `${token('tool call begin')}bash {"command": "ls"}${token('tool call end')}`,
      `${token('tool call begin')}function${token('tool sep')}bash\nls -la${token('tool call end')}`,
      `${token('tool call begin')}bash${token('tool sep')}{}${token('tool call end')}`,
      `x ${token('tool sep')} y ${token('tool outputs begin')}`,
      `a ${token('tool sep', `${ASCII_BAR} ${ASCII_BAR}`, '_', true)} b`,
      `a <${FW_BAR} ${FW_BAR}end${LOWER_BLOCK}of${LOWER_BLOCK}sentence${FW_BAR} ${FW_BAR}> b`,
      `a <${FW_BAR}end${LOWER_BLOCK}of${LOWER_BLOCK}sentence${FW_BAR} b`,
    ]) {
      const events = runChunks([input])
      assertEqual(callsOf(events), [], JSON.stringify(input))
      assert(!containsDsmlSentinel(textOf(events)), `no special token left: ${JSON.stringify(textOf(events))}`)
      assert(events.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'dropped-markup'), 'reported')
    }
  })

  // ── 5. complete markerless V3.2 blocks ──────────────────────────────────

  test('family 5 (markerless V3.2 block): a declared tool becomes a call; zero arguments when its schema requires nothing', () => {
    const { block, invoke, param } = dialect({ marker: false })
    checkFamily({ input: block([invoke('bash', [param('command', 'ls -la', { string: null })])], { name: 'function_calls' }), calls: [BASH], options: declared })
    const empty = block([invoke('skills_list', [])], { name: 'function_calls' })
    checkFamily({ input: empty, calls: [{ name: 'skills_list', arguments: {} }], options: { tools: [{ name: 'skills_list', parameters: { type: 'object', properties: {} } }] } })
  })

  test('family 5 (markerless V3.2 block): with the tool not declared, or nothing declared, the text is left exactly as it was', () => {
    const { block, invoke, param } = dialect({ marker: false })
    const input = block([invoke('bash', [param('command', 'ls -la')])], { name: 'function_calls' })
    checkBenign(input)
    checkBenign(input, { knownTools: ['read'] })
    checkBenign(block([invoke('skills_list', [])], { name: 'function_calls' }), { knownTools: ['skills_list'] })
  })

  test('family 5 look-alikes: prose about Anthropic’s XML tool format, WS-BPEL <invoke name>, XML config', () => {
    for (const text of [
      'Claude writes calls as <function_calls><invoke name="get_weather"><parameter name="city">Paris</parameter></invoke></function_calls>, then waits.',
      '<bpel:sequence>\n  <invoke name="ApproveLoan" partnerLink="approver" operation="approve"/>\n</bpel:sequence>',
      '<config>\n  <parameter name="timeout">30</parameter>\n  <parameter name="retries">3</parameter>\n</config>',
    ] as const) checkBenign(text, declared)
  })

  // ── 6. JSON in a tag ────────────────────────────────────────────────────

  test('family 6 (JSON in a tag): <tool_call id name>{args}</tool_call>', () => {
    checkFamily({ input: '<tool_call id="call_1" name="bash">{"command": "ls -la"}</tool_call>', calls: [BASH], options: declared })
  })

  test('family 6 (JSON in a tag): <function_call>{name, arguments}</function_call>, arguments an object or a JSON string', () => {
    checkFamily({ input: '<function_call>{"name": "bash", "arguments": {"command": "ls -la"}}</function_call>', calls: [BASH], options: declared })
    checkFamily({ input: '<function_call>{"name": "bash", "arguments": "{\\"command\\": \\"ls -la\\"}"}</function_call>', calls: [BASH], options: declared })
  })

  test('family 6 (JSON in a tag): <function>{name, parameters}</function>, input, and no arguments key (the other keys)', () => {
    checkFamily({ input: '<function>{"name": "bash", "parameters": {"command": "ls -la"}}</function>', calls: [BASH], options: declared })
    checkFamily({ input: '<function_call>{"name": "bash", "input": {"command": "ls -la"}}</function_call>', calls: [BASH], options: declared })
    checkFamily({ input: '<function_call>{"name": "read", "path": "README.md", "limit": "20"}</function_call>', calls: [READ], options: declared })
  })

  test('family 6 (JSON in a tag): not declared, not JSON, or no name: the text is left exactly as it was', () => {
    for (const text of [
      '<tool_call name="bash">{"command": "ls -la"}</tool_call>',
      '<function_call>{"name": "bash", "arguments": {"command": "ls"}}</function_call>',
    ] as const) checkBenign(text)
    for (const text of [
      'Hermes wraps calls as <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call> in its template.',
      'export const App = () => <function>{name}</function>',
      '<function>hello</function>',
      '<function_call>{"arguments": {"command": "ls"}}</function_call>',
      '<tool_call name="bash">ls -la</tool_call>',
    ] as const) checkBenign(text, declared)
  })

  test('family 4 (special tokens): look-alikes stay text', () => {
    for (const text of [
      'The V3 format separates the name with tool_sep, then a ```json fence.',
      'Use <tool_call_begin> and <tool_sep> in your template.',
      `a <${FW_BAR}tool${LOWER_BLOCK}sepx${FW_BAR}> b`,
      '< | tool calls | >',
    ] as const) checkBenign(text)
  })
})
