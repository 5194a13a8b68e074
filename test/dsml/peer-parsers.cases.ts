/**
 * The peers' newest parser tests for the points of issue 21, restated as
 * facts about inputs and results (no peer code): vLLM's DeepSeek V3.2/V4
 * engine tests (`tests/parser/engine/test_deepseek_v4.py`, `test_deepseek_v32.py`,
 * `test_dsml_finite.py`, `tests/tool_parsers/test_deepseekv32_tool_parser.py`),
 * the OpenHands SDK's DSML normalisation (PR #4845), ds2api's tool sieve,
 * pi-free's Cline bridge, SGLang's V4 detector. Each case is read whole, split
 * at every offset and one code point at a time.
 *
 * Where this library decides differently, by DESIGN.md §5, the case says so:
 * - no `string` attribute is a raw string (vLLM reads such a value as JSON);
 *   the declared schema types it;
 * - a wrapper is unwrapped only onto a schema's properties (vLLM); pi-free
 *   also unwraps for a schema with none;
 * - a huge integer a double cannot hold stays its text (Python keeps it exact);
 * - markup that makes no call is removed, never left as text (pi-free, vLLM);
 * - a parameter cut short by the next invoke leaves that invoke unclosed: no
 *   call (OpenHands makes one);
 * - a closer that lost its `>` still closes (vLLM keeps it in the value).
 */
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, reassemble, textOf } from '../support/chunking.ts'
import { outsideCode } from '../support/code-text.ts'
import { ASCII_BAR, FW_BAR, leaksMarkup, WORD } from '../support/dsml-builders.ts'
import type { CallShape } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'

const M = `${FW_BAR}${WORD}${FW_BAR}`
const MM = `${FW_BAR}${FW_BAR}${WORD}${FW_BAR}${FW_BAR}`
const A = `${ASCII_BAR}${WORD}${ASCII_BAR}`

/** `<‹DSML›parameter name="k" string="s">v</‹DSML›parameter>`. */
function p(name: string, value: string, string: string | null = 'true', marker = M): string {
  return `<${marker}parameter name="${name}"${string === null ? '' : ` string="${string}"`}>${value}</${marker}parameter>`
}

/** Whole, at every split and one code point at a time: these calls and this text (trimmed at its end), every character kept. */
function expectCalls(input: string, calls: CallShape[], text: string, options: DsmlSanitizerOptions = {}): void {
  const events = assertChunkInvariant(input, options, assertEqual)
  assertEqual(callsOf(events), calls, 'calls')
  assertEqual(textOf(events).trimEnd(), text, 'text')
  assertEqual(reassemble(events), input, 'conservation')
  assert(!leaksMarkup(outsideCode(textOf(events))), `no marker outside code: ${JSON.stringify(textOf(events))}`)
}

const WEATHER = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string' } } } }
const TIME = { name: 'get_time', parameters: { type: 'object', properties: { timezone: { type: 'string' } } } }

export const suite = defineSuite('dsml/peer-parsers', (test) => {
  // ── vLLM: an invoke missing its closer before the block closer ───────────

  test('vLLM TestMissingInvokeEnd (V4): no </invoke> before </tool_calls>; prose after it kept', () => {
    const block = `<${M}tool_calls><${M}invoke name="get_weather">\n${p('location', 'NYC')}\n</${M}tool_calls>`
    expectCalls(block, [{ name: 'get_weather', arguments: { location: 'NYC' } }], '')
    expectCalls(`${block}Done.`, [{ name: 'get_weather', arguments: { location: 'NYC' } }], 'Done.')
  })

  test('vLLM TestStreaming.test_missing_invoke_end (V3.2): function_calls, one character at a time', () => {
    expectCalls(`<${M}function_calls>\n<${M}invoke name="fn">\n${p('k', 'v')}\n</${M}function_calls>`, [{ name: 'fn', arguments: { k: 'v' } }], '')
  })

  test('vLLM TestImplicitParameterClose: the next parameter opener ends a parameter; a split opener is never in the value', () => {
    const open = `<${M}tool_calls><${M}invoke name="get_weather"><${M}parameter name="location" string="true">`
    expectCalls(`${open}Paris <${M}parameter name="date" string="true">tomorrow</${M}parameter></${M}invoke></${M}tool_calls>`, [{ name: 'get_weather', arguments: { location: 'Paris ', date: 'tomorrow' } }], '')
    expectCalls(`${open}Paris a<b><${M}parameter name="date" string="true">tomorrow</${M}parameter></${M}invoke></${M}tool_calls>`, [{ name: 'get_weather', arguments: { location: 'Paris a<b>', date: 'tomorrow' } }], '')
  })

  // ── vLLM: the arguments / input wrapper ──────────────────────────────────

  test('vLLM TestWrapperUnwrapping / TestParallelUnwrapping: unwrapped onto the schema’s properties, else kept', () => {
    const block = (wrapped: string, string = 'false'): string =>
      `<${M}tool_calls><${M}invoke name="get_weather">${p('arguments', wrapped, string)}</${M}invoke><${M}invoke name="get_time">${p('timezone', 'EST')}</${M}invoke></${M}tool_calls>`
    const tools = { tools: [WEATHER, TIME] }
    const time = { name: 'get_time', arguments: { timezone: 'EST' } }
    expectCalls(block('{"location": "NYC", "unit": "celsius"}'), [{ name: 'get_weather', arguments: { location: 'NYC', unit: 'celsius' } }, time], '', tools)
    expectCalls(block('{"location": "NYC"}'), [{ name: 'get_weather', arguments: { location: 'NYC' } }, time], '', tools)
    expectCalls(block('{"unknown_key": "val"}'), [{ name: 'get_weather', arguments: { arguments: { unknown_key: 'val' } } }, time], '', tools)
    expectCalls(block('{"location": "Beijing"}', 'true'), [{ name: 'get_weather', arguments: { location: 'Beijing' } }, time], '', tools)
    expectCalls(block('{"location": "NYC"}'), [{ name: 'get_weather', arguments: { arguments: { location: 'NYC' } } }, time], '', {}) // no tools: no schema to match
    const named = { tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { arguments: { type: 'string' } } } }, TIME] }
    expectCalls(block('some value', 'true'), [{ name: 'get_weather', arguments: { arguments: 'some value' } }, time], '', named)
  })

  // ── vLLM test_dsml_finite: numbers a double cannot hold ──────────────────

  test('vLLM test_nonfinite_parameters_preserve_literals: 1e999, -1e999, NaN, [1e999] and an object with NaN keep their text; 1.5 is a number', () => {
    const schema = { type: 'object', properties: { overflow: { type: 'number' }, negative: { type: 'number' }, nan: { type: 'number' }, array: { type: 'array' }, object: { type: 'object' }, finite: { type: 'number' }, large: { type: 'integer' }, quoted: { type: 'string' } } }
    const values: Array<[string, string]> = [['overflow', '1e999'], ['negative', '-1e999'], ['nan', 'NaN'], ['array', '[1e999]'], ['object', '{"label":">","x":NaN}'], ['finite', '1.5'], ['large', '123456789012345678901234567890']]
    const expected = { overflow: '1e999', negative: '-1e999', nan: 'NaN', array: '[1e999]', object: '{"label":">","x":NaN}', finite: 1.5, large: '123456789012345678901234567890' }
    for (const string of ['false', null]) {
      const block = `<${M}tool_calls><${M}invoke name="calc">${values.map(([name, value]) => p(name, value, string)).join('')}${p('quoted', '"Infinity"', 'false')}</${M}invoke></${M}tool_calls>`
      const events = assertChunkInvariant(block, { tools: [{ name: 'calc', parameters: schema }] }, assertEqual)
      assertEqual(callsOf(events), [{ name: 'calc', arguments: { ...expected, quoted: 'Infinity' } }], `string=${String(string)}`)
      assert(!JSON.stringify(callsOf(events)).includes('null'), 'never null once encoded')
    }
    const wrapper = `<${M}tool_calls><${M}invoke name="plot">${p('arguments', '{"x":[1e999]}')}</${M}invoke></${M}tool_calls>`
    expectCalls(wrapper, [{ name: 'plot', arguments: { arguments: '{"x":[1e999]}' } }], '', { tools: [{ name: 'plot', parameters: { type: 'object', properties: { x: { type: 'array' } } } }] })
  })

  // ── OpenHands: the compact evaluation format ─────────────────────────────

  test('OpenHands test_llm_build_completion_result_normalizes_dsml / streaming end to end: r=NAME with one m argument is {command}', () => {
    const tools = { tools: [{ name: 'execute_bash', parameters: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'number' } }, required: ['command'] } }] }
    expectCalls(`Let me examine the full compiled distribution code:\n\n<${MM}r=execute_bash>\n<${MM}m>cat /app/dist/index.js</${MM}m>\n</${MM}r>`, [{ name: 'execute_bash', arguments: { command: 'cat /app/dist/index.js' } }], 'Let me examine the full compiled distribution code:', tools)
    expectCalls(`Let me check:\n\n<${MM}r=execute_bash>\n<${MM}m>pwd</${MM}m>\n</${MM}r>`, [{ name: 'execute_bash', arguments: { command: 'pwd' } }], 'Let me check:', tools)
  })

  test('OpenHands test_parse_standard_dsml_types_and_parameters: a marked block around plain invoke and parameter tags, values typed', () => {
    const plain = (name: string, value: string, string: string): string => `<parameter name="${name}" string="${string}">${value}</parameter>`
    const block =
      `I will inspect.\n<${M}tool_calls>\n<invoke name="inspect_env">\n${plain('command', "ls -la /workspace && echo '<test>'", 'true')}\n${plain('timeout', '30', 'false')}\n${plain('flag', 'true', 'false')}\n` +
      `${plain('neg_flag', 'false', 'false')}\n${plain('ratio', '3.14', 'false')}\n${plain('items', '["alpha","beta"]', 'false')}\n${plain('config', '{"port":8000,"debug":true}', 'false')}\n${plain('empty_val', 'null', 'false')}\n</invoke>\n</${M}tool_calls>\nThen report.`
    expectCalls(block, [{ name: 'inspect_env', arguments: { command: "ls -la /workspace && echo '<test>'", timeout: 30, flag: true, neg_flag: false, ratio: 3.14, items: ['alpha', 'beta'], config: { port: 8000, debug: true }, empty_val: null } }], 'I will inspect.\n\nThen report.')
  })

  test('OpenHands test_parse_standard_dsml_parallel_invokes_and_implicit_closures: a parameter the next invoke cut short makes no call (decided differently: one call, not two)', () => {
    const block = `<${A}tool_calls>\n<invoke name="read_file">\n<parameter name="path" string="true">/app/src/index.ts\n<parameter name="offset" string="false">100\n<invoke name="run_command">\n<parameter name="cmd" string="true">wc -l /app/src/index.ts</parameter>\n</invoke>\n</${A}tool_calls>`
    expectCalls(block, [{ name: 'run_command', arguments: { cmd: 'wc -l /app/src/index.ts' } }], '')
  })

  // ── ds2api: CDATA and drift ─────────────────────────────────────────────

  test('ds2api dsml_single_cdata_read: CDATA values, numbers typed by the schema', () => {
    const read = { name: 'Read', parameters: { type: 'object', properties: { file_path: { type: 'string' }, limit: { type: 'integer' }, offset: { type: 'integer' } } } }
    const block = `Reading the file.\n<${A}tool_calls><${A}invoke name="Read">${p('file_path', '<![CDATA[/Users/activer/developer/game-01/game.js]]>', null, A)}${p('limit', '<![CDATA[60]]>', null, A)}${p('offset', '<![CDATA[990]]>', null, A)}</${A}invoke></${A}tool_calls>`
    expectCalls(block, [{ name: 'Read', arguments: { file_path: '/Users/activer/developer/game-01/game.js', limit: 60, offset: 990 } }], 'Reading the file.', { tools: [read] })
  })

  test('ds2api: a space for the second bar, a trailing pipe for the >, an extra <, CDATA that never closes', () => {
    expectCalls(`准备读取文件。<|${WORD} tool_calls><|${WORD} invoke name="Read"><|${WORD} parameter name="file_path"><![CDATA[/tmp/input.txt]]></|${WORD} parameter></|${WORD} invoke></|${WORD} tool_calls>`, [{ name: 'Read', arguments: { file_path: '/tmp/input.txt' } }], '准备读取文件。')
    expectCalls(`<${A}tool_calls| \n<${A}invoke name="terminal">\n${p('command', '<![CDATA[find "/home" -type d]]>', null, A)}\n${p('timeout', '<![CDATA[10]]>', null, A)}\n</${A}invoke>\n</${A}tool_calls>`, [{ name: 'terminal', arguments: { command: 'find "/home" -type d', timeout: '10' } }], '')
    expectCalls(`<<${A}tool_calls><<${A}invoke name="Bash"><<${A}parameter name="command">pwd</${A}parameter></${A}invoke></${A}tool_calls>`, [{ name: 'Bash', arguments: { command: 'pwd' } }], '')
    expectCalls(`<${A}tool_calls><${A}invoke name="Write"><${A}parameter name="content"><![CDATA[hello world</${A}parameter></${A}invoke></${A}tool_calls>`, [{ name: 'Write', arguments: { content: 'hello world' } }], '')
  })

  test('ds2api inline markdown: an example in a code span runs nothing; a stray backtick before a real call does not hide it; backticks in a value are kept', () => {
    const call = `<${A}tool_calls><${A}invoke name="Bash"><${A}parameter name="command">echo \`date\`</${A}parameter></${A}invoke></${A}tool_calls>`
    const bash = { name: 'Bash', arguments: { command: 'echo `date`' } }
    expectCalls(`示例：\`<${A}tool_calls><${A}invoke name="Read"></${A}invoke></${A}tool_calls>\``, [], `示例：\`<${A}tool_calls><${A}invoke name="Read"></${A}invoke></${A}tool_calls>\``)
    expectCalls(`A stray \` here.\n\n${call}`, [bash], 'A stray ` here.')
    expectCalls(`它只提到了 \`<${A}tool_calls>\` 和 canonical \`<tool_calls>\`。\n${call}\n补充`, [bash], `它只提到了 \`<${A}tool_calls>\` 和 canonical \`<tool_calls>\`。\n\n补充`)
  })

  // ── pi-free: a tool name as the tag ──────────────────────────────────────

  test('pi-free: tool-name tags with plain, DSML-marked and generically closed fields, and a JSON body', () => {
    const tools = { tools: ['read_file', 'replace_in_file', 'execute_command', 'general-tool', 'aio-websearch', 'extension-notify'].map((name) => ({ name, parameters: { type: 'object', properties: { max: { type: 'number' }, timeout: { type: 'number' } } } })) }
    expectCalls(`<${M}read_file>\n <path>C:/tmp/strategy-memory.ts</${M}parameter>\n</${M}invoke>`, [{ name: 'read_file', arguments: { path: 'C:/tmp/strategy-memory.ts' } }], '', tools)
    expectCalls(`<${M}read_file>\n<${M}path>C:/tmp/a.ts</${M}path>\n</${M}invoke>`, [{ name: 'read_file', arguments: { path: 'C:/tmp/a.ts' } }], '', tools)
    expectCalls(`<${M}execute_command>\n <${M}command>cd '/tmp/pi' && npm run test:all 2>&1 | tail -30</${M}parameter>\n <timeout>600</timeout>\n</${M}invoke>`, [{ name: 'execute_command', arguments: { command: "cd '/tmp/pi' && npm run test:all 2>&1 | tail -30", timeout: 600 } }], '', tools)
    expectCalls(`<${M}replace_in_file>\n<${M}path>C:/tmp/search.ts</${M}parameter>\n<${M}diff>------- SEARCH\nold value\n=======\nnew value\n+++++++ REPLACE</${M}parameter>\n</${M}invoke>`, [{ name: 'replace_in_file', arguments: { path: 'C:/tmp/search.ts', diff: '------- SEARCH\nold value\n=======\nnew value\n+++++++ REPLACE' } }], '', tools)
    expectCalls(`<${M}general-tool>\n  {\n "message":"hello",\n "enabled": true\n }\n</${M}general-tool>`, [{ name: 'general-tool', arguments: { message: 'hello', enabled: true } }], '', tools)
    expectCalls(`<${M}aio-websearch><query>pi extension tools</query><max>5</max></${M}aio-websearch>\n<${M}extension-notify><message>done</message></${M}extension-notify>`, [{ name: 'aio-websearch', arguments: { query: 'pi extension tools', max: 5 } }, { name: 'extension-notify', arguments: { message: 'done' } }], '', tools)
  })

  // ── SGLang, mlx-lm ───────────────────────────────────────────────────────

  test('SGLang test_quoted_dsml_is_not_executed_or_removed: a call quoted in a code span or a fence stays; the real call after it runs', () => {
    const call = `<${M}tool_calls><${M}invoke name="get_weather">${p('city', 'SF')}</${M}invoke></${M}tool_calls>`
    const weather = { name: 'get_weather', arguments: { city: 'SF' } }
    for (const quote of [`\`${call}\``, `\`\`\`xml\n${call}\n\`\`\`\n`, `~~~xml\n${call}\n~~~\n`]) {
      expectCalls(quote, [], quote.trimEnd())
      expectCalls(`${quote}\n${call}`, [weather], quote.trimEnd())
    }
  })

  test('mlx-lm test_truncated_invoke_close_tag: </‹DSML›inv> closes the invoke', () => {
    expectCalls(`<${M}tool_calls>\n<${M}invoke name="get_weather">\n${p('location', 'Paris, France')}\n</${M}inv>\n</${M}tool_calls>`, [{ name: 'get_weather', arguments: { location: 'Paris, France' } }], '')
  })
})
