/**
 * arguments.ts on its own: values into arguments (PATTERNS.md V22–V25, the
 * tool-name-tag and fenced-JSON rescues) and the comparison key of native
 * calls (DESIGN.md §5.6, §5.12).
 */
import {
  callKey,
  decodeEntities,
  parseFencedJsonCall,
  parseJsonObjectBody,
  parseXmlChildren,
  removeHuggingNewlines,
  setArgument,
  typeValue,
} from '../../src/dsml/arguments.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

export const suite = defineSuite('dsml/arguments', (test) => {
  test('v22-entities: the five entities decoded once; anything else kept', () => {
    assertEqual(decodeEntities('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;'), `a & b <c> "d" 'e'`)
    assertEqual(decodeEntities('&amp;lt;'), '&lt;', 'decoded once')
    assertEqual(decodeEntities('&nbsp; & &; &amp &AMP; &constructor; &__proto__;'), '&nbsp; & &; &amp &AMP; &constructor; &__proto__;')
    assertEqual(decodeEntities('no ampersand'), 'no ampersand')
    // One `;` answers many `&` before it (linear: bench shape e); none after the last `;` stops the search.
    assertEqual(decodeEntities(`${'&'.repeat(1000)}amp;`), '&'.repeat(1000))
    assertEqual(decodeEntities(`${'& '.repeat(500)}&lt; x &gt`), `${'& '.repeat(500)}< x &gt`)
    assertEqual(decodeEntities('&amp;&amp; &x &quot;;'), '&& &x ";')
  })

  test('v23-multiline-value: one hugging line break removed at each end, LF or CRLF', () => {
    assertEqual(removeHuggingNewlines('\nvalue\n'), 'value')
    assertEqual(removeHuggingNewlines('\r\nvalue\r\n'), 'value')
    assertEqual(removeHuggingNewlines('\n\nvalue\n\n'), '\nvalue\n', 'only one each side')
    assertEqual(removeHuggingNewlines('\n'), '')
    assertEqual(removeHuggingNewlines('  value  '), '  value  ')
  })

  test('v24-json-param: string="false" gives JSON, falling back to the raw text; other values stay strings', () => {
    assertEqual(typeValue('{"a":1}', 'false'), { value: { a: 1 }, invalidJson: false })
    assertEqual(typeValue('\n42\n', ' FALSE '), { value: 42, invalidJson: false })
    assertEqual(typeValue('{a:1}', 'false'), { value: '{a:1}', invalidJson: true })
    assertEqual(typeValue('42', 'true'), { value: '42', invalidJson: false })
    assertEqual(typeValue('42', undefined), { value: '42', invalidJson: false })
    assertEqual(typeValue('C:\\new &amp; x', 'true'), { value: 'C:\\new & x', invalidJson: false })
  })

  test('issue 21 (non-finite numbers): a value holding a number a double cannot hold keeps its literal text (vLLM test_dsml_finite)', () => {
    const kept = { invalidJson: true } as const
    assertEqual(typeValue('1e999', 'false'), { value: '1e999', ...kept })
    assertEqual(typeValue('-1e999', 'false'), { value: '-1e999', ...kept })
    assertEqual(typeValue('[1e999]', 'false'), { value: '[1e999]', ...kept }, 'the whole value, as vLLM keeps it')
    assertEqual(typeValue('NaN', 'false'), { value: 'NaN', ...kept })
    assertEqual(typeValue('{"id": 12345678901234567890}', 'false'), { value: '{"id": 12345678901234567890}', ...kept }, 'digits would be lost')
    assertEqual(typeValue('1.5', 'false'), { value: 1.5, invalidJson: false }, 'finite: a number')
    assertEqual(typeValue('{"n": 1.50, "s": "1e999"}', 'false'), { value: { n: 1.5, s: '1e999' }, invalidJson: false }, 'inside a string: untouched')
    // A JSON text of arguments (a raw body, JSON in a tag, a special-token call): the number becomes its literal text, the call is kept.
    assertEqual(parseJsonObjectBody('{"command": "ls", "id": 12345678901234567890, "t": 1e999, "s": "1e999", "n": 2}'), { command: 'ls', id: '12345678901234567890', t: '1e999', s: '1e999', n: 2 })
    assertEqual(JSON.stringify(typeValue('[1e999]', 'false').value), '"[1e999]"', 'never null once encoded')
  })

  test('issue 21 (CDATA values): a value wrapped whole in CDATA is its content, verbatim', () => {
    assertEqual(typeValue('<![CDATA[10]]>', undefined), { value: '10', invalidJson: false })
    assertEqual(typeValue('\n  <![CDATA[find "/home" -type d]]>  \n', 'true'), { value: 'find "/home" -type d', invalidJson: false })
    assertEqual(typeValue('<![CDATA[a &amp; <b>]]>', 'true'), { value: 'a &amp; <b>', invalidJson: false }, 'verbatim: no entities decoded')
    assertEqual(typeValue('<![CDATA[{"a": [1]}]]>', 'false'), { value: { a: [1] }, invalidJson: false }, 'string="false": the content is the JSON')
    assertEqual(typeValue('<![CDATA[42]]>', 'false'), { value: 42, invalidJson: false })
    assertEqual(typeValue('<![CDATA[hello world', 'true').value, 'hello world', 'cut short by the closer (ds2api: recovers when CDATA never closes)')
    for (const value of ['x <![CDATA[a]]>', '<![CDATA[a]]> y', '<![CDATA[a]]> <![CDATA[b]]>', 'a]]>']) {
      assertEqual(typeValue(value, 'true').value, value, `not a whole-value wrapper: ${value}`)
    }
    assertEqual(parseXmlChildren('<timeout><![CDATA[600]]></timeout>'), { timeout: '600' }, 'element children too')
  })

  test('v24-json-param (DESIGN §5.12): setArgument makes own properties, whatever the key', () => {
    const args: Record<string, unknown> = {}
    for (const key of ['__proto__', 'constructor', 'toString']) setArgument(args, key, key.length)
    assertEqual(Object.keys(args), ['__proto__', 'constructor', 'toString'])
    assertEqual(Object.getPrototypeOf(args), Object.prototype, 'prototype untouched')
    assert(!('polluted' in {}), 'no pollution')
  })

  test('v25-raw-json-body: a JSON object body, nothing else', () => {
    assertEqual(parseJsonObjectBody(' \n{"a":1,"b":[true]}\n'), { a: 1, b: [true] })
    for (const body of ['[1,2]', '{a:1}', 'words', '', '"x"', 'null']) assertEqual(parseJsonObjectBody(body), undefined, JSON.stringify(body))
    const polluting = parseJsonObjectBody('{"__proto__":{"x":1}}')
    assert(polluting !== undefined && Object.hasOwn(polluting, '__proto__'), '__proto__ kept as an own key')
  })

  test('fixture pi-free-376: plain XML children as arguments, or nothing', () => {
    assertEqual(parseXmlChildren('\n <url>https://a.test/?q=1&amp;r=2</url>\n <n>3</n>\n'), { url: 'https://a.test/?q=1&r=2', n: '3' })
    assertEqual(parseXmlChildren('  '), undefined, 'no child')
    assertEqual(parseXmlChildren('text <a>1</a>'), undefined, 'text outside the children')
    assertEqual(parseXmlChildren('<a>1</b>'), undefined, 'no closer')
    assertEqual(parseXmlChildren('<a x="1">1</a>'), undefined, 'attributes are not children')
  })

  test('fixture vllm-ascend-13794: a tool name and a fenced JSON object', () => {
    const body = 'Read\n\n```json\n{"file_path":"/a.js","limit":20}\n```\nand then made-up output'
    const found = parseFencedJsonCall(body)
    assertEqual(found === undefined ? undefined : { name: found.name, arguments: found.arguments }, { name: 'Read', arguments: { file_path: '/a.js', limit: 20 } })
    assertEqual(body.slice(0, found?.end), 'Read\n\n```json\n{"file_path":"/a.js","limit":20}\n```', 'ends at the closing fence')
    assertEqual(parseFencedJsonCall('Read\n```\n{"a":1}\n```')?.name, 'Read', 'no info string')
    for (const body of ['Read\n```python\n{"a":1}\n```', 'Read it now\n```json\n{"a":1}\n```', 'Read\n```json\n{"a":1}', `${'x'.repeat(200)}\n\`\`\`json\n{}\n\`\`\``]) {
      assertEqual(parseFencedJsonCall(body), undefined, JSON.stringify(body.slice(0, 30)))
    }
  })

  test('reject-native-present: callKey ignores key order and reads JSON text', () => {
    assertEqual(callKey('bash', { a: 1, b: { d: 2, c: 3 } }), callKey('bash', '{"b":{"c":3,"d":2},"a":1}'))
    assert(callKey('bash', { a: 1 }) !== callKey('sh', { a: 1 }), 'the name counts')
    assertEqual(callKey('bash', 'not json'), callKey('bash', 'not json'), 'a string that is not JSON compares as itself')
    assertEqual(callKey('bash', undefined), callKey('bash', {}))
  })
})
