/**
 * FenceTracker: the fence rule of DESIGN.md §5.4 (CommonMark fenced code
 * blocks), which the engine and the no-sentinel property rely on. Every input
 * is also tracked split at every offset and one character at a time, and must
 * give the same answer.
 */
import { sanitizeText } from '../../src/dsml/index.ts'
import { createFenceTracker } from '../../src/dsml/fence-tracker.ts'
import { assertEqual } from '../support/assert.ts'
import { normalizeEvents, runChunks } from '../support/chunking.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

/** The state after `text`, tracked whole, at every two-way split and one character at a time (they must agree). */
function inFence(text: string): boolean {
  const whole = createFenceTracker()
  whole.track(text)
  const single = createFenceTracker()
  for (const character of text) single.track(character)
  assertEqual(single.inFence, whole.inFence, `one character at a time differs for ${JSON.stringify(text)}`)
  for (let index = 1; index < text.length; index++) {
    const split = createFenceTracker()
    split.track(text.slice(0, index))
    split.track(text.slice(index))
    assertEqual(split.inFence, whole.inFence, `split at ${index} differs for ${JSON.stringify(text)}`)
  }
  return whole.inFence
}

const BASH = { name: 'bash', arguments: { command: 'ls' } }
const bashBlock = (): string => block([invoke('bash', [param('command', 'ls')])])

export const suite = defineSuite('dsml/fence-tracker', (test) => {
  test('v20-code-fence: three backticks open at the end of their line, three close at the end of theirs', () => {
    assertEqual(inFence('```\n'), true)
    assertEqual(inFence('```'), false, 'the opening line has not ended: what follows on it is its info string')
    assertEqual(inFence('```js\ncode\n```\n'), false)
    assertEqual(inFence('```js\ncode\n```'), true, 'the closing line has not ended yet')
    assertEqual(inFence('``\n'), false, 'two backticks are not a fence')
  })

  test('v20-code-fence (DESIGN §5.4): tilde fences, and a fence closed only by its own character', () => {
    assertEqual(inFence('~~~\n'), true)
    assertEqual(inFence('~~~python\nx\n~~~\n'), false)
    assertEqual(inFence('~~~\n```\n'), true, 'backticks do not close a tilde fence')
    assertEqual(inFence('```\n~~~\n'), true, 'tildes do not close a backtick fence')
  })

  test('v20-code-fence: a closing run must be at least as long as the opener, and hold nothing after it', () => {
    assertEqual(inFence('````\n```\n'), true, 'three do not close four')
    assertEqual(inFence('````\n```\n`````\n'), false, 'five close four')
    assertEqual(inFence('```\n``` x\n'), true, 'a closing fence takes no info string')
    assertEqual(inFence('```\n```   \n'), false, 'spaces after a closing run are allowed')
  })

  test('v20-code-fence (DESIGN §5.4): info strings, and no backtick in a backtick fence info string', () => {
    assertEqual(inFence('```js title="a b"\n'), true)
    assertEqual(inFence('``` js\n'), true)
    assertEqual(inFence('```a`b\n'), false, 'a backtick in the info string: not a fence (inline code)')
    assertEqual(inFence('~~~a`b\n'), true, 'a tilde fence may hold backticks in its info string')
  })

  test('v20-code-fence: runs inside a line are inline code, not fences', () => {
    assertEqual(inFence('a ```\n'), false)
    assertEqual(inFence('Here: ```bash\nls\n'), false)
    assertEqual(inFence('`````x````y`````\n'), false)
  })

  test('v20-code-fence (DESIGN §5.4): indented up to three spaces; four is an indented code block', () => {
    for (const indent of ['', ' ', '  ', '   ']) assertEqual(inFence(`${indent}\`\`\`\n`), true, `indent ${JSON.stringify(indent)}`)
    assertEqual(inFence('    ```\n'), false)
    assertEqual(inFence('\t```\n'), false, 'a tab is four columns')
    assertEqual(inFence('```\ncode\n   ```\n'), false, 'a closing fence may be indented up to three spaces')
    assertEqual(inFence('```\ncode\n    ```\n'), true, 'four spaces: content, not a closing fence')
  })

  test('v20-code-fence (DESIGN §5.4): inside list items', () => {
    assertEqual(inFence('- ```\n'), true, 'a fence right after a bullet')
    assertEqual(inFence('1. Run:\n   ```bash\n'), true, 'indented to the item content')
    assertEqual(inFence('10. Run:\n    ```bash\n'), true, 'a wider ordered marker, four spaces')
    assertEqual(inFence('- a\n  - b\n    ```\n'), true, 'a nested list item')
    assertEqual(inFence('1. Run:\n   ```bash\n   ls\n   ```\n'), false, 'closed inside the item')
    assertEqual(inFence('- item\n  ```\n  code\nback at the margin\n'), false, 'the item ends, and its fence with it')
    assertEqual(inFence('- item\n  ```\n\n  code after a blank line\n'), true, 'a blank line does not end the item')
    assertEqual(inFence('-x ```\n'), false, 'no space after the bullet: not a list item')
  })

  test('v20-code-fence (DESIGN §5.4): inside block quotes', () => {
    assertEqual(inFence('> ```\n'), true)
    assertEqual(inFence('> ```\n> code\n'), true)
    assertEqual(inFence('> ```\n> code\n> ```\n'), false)
    assertEqual(inFence('> ```\nno marker\n'), false, 'a line without the quote marker ends the quote and its fence')
  })

  test('v20-code-fence (DESIGN §5.4): a line that ends the container is outside the fence from its first character', () => {
    const tracker = createFenceTracker()
    tracker.track('> ```\n')
    assertEqual(tracker.inFence, true)
    assertEqual(tracker.inFenceAt('<'.charCodeAt(0)), false, 'a line without the quote marker')
    assertEqual(tracker.inFenceAt('>'.charCodeAt(0)), true, 'the quote marker goes on')
    const list = createFenceTracker()
    list.track('- item\n  ```\n')
    assertEqual(list.inFenceAt('<'.charCodeAt(0)), false, 'back at the margin: the item ended')
    list.track('  ')
    assertEqual(list.inFenceAt('<'.charCodeAt(0)), true, 'indented into the item')
    const fenced = '> ```\n'
    const markup = `</${'\uFF5C'}DSML${'\uFF5C'}tool_calls>`
    assertEqual(sanitizeText(fenced + markup).text, fenced, 'the engine removes markup on the line that ended the quote')
  })

  test('v20-code-fence (DESIGN §5.4): containers end as CommonMark ends them, and so do their fences', () => {
    assertEqual(inFence('> ```\n\n'), false, 'a blank line ends the quote')
    assertEqual(inFence('> ```\n>\n'), true, 'a quote marker alone goes on')
    assertEqual(inFence('```\n    > x\n'), true, 'an indented > inside a fence is content')
    assertEqual(inFence('- > ```\n  > x\n'), true, 'a quote inside a list item: the item, then the quote')
    assertEqual(inFence('-\n\n   ```\n'), true, 'an empty item ends at a blank line: the fence is at the top level')
    assertEqual(inFence('- \n\n   ```\nx\n'), true, 'and the line after it is inside the fence')
    assertEqual(inFence('10. \n  ```\nx\n'), true, 'an empty ordered item: its content is four columns in')
  })

  test('v20-code-fence (DESIGN §5.4): paragraphs: lazy lines, and starts that cannot interrupt them', () => {
    assertEqual(inFence('text\n2. ```\n'), false, 'an item numbered 2 cannot interrupt a paragraph: no fence')
    assertEqual(inFence('text\n1. ```\n'), true, 'numbered 1 it can')
    assertEqual(inFence('text\n-\n```\n'), true, 'a lone - under a paragraph is a setext underline, then a fence')
    assertEqual(inFence('- a\nlazy\n  ```\n  x\n'), true, 'a lazy line keeps the item open for the fence after it')
    assertEqual(inFence('> a\nlazy\n> ```\n'), true, 'a lazy line keeps the quote open')
    assertEqual(inFence('- a\n---\n  ```\n'), true, 'a thematic break ends the item; the fence is at the top level')
    assertEqual(inFence('- a\n\n      ```\n'), false, 'indented code in the item, not a fence')
    assertEqual(inFence('# ```\n'), false, 'a heading is not a fence')
  })

  test('v20-code-fence: tabs count to the next multiple of four columns, also after a quote marker', () => {
    assertEqual(inFence('>\t```\n'), true, 'one column of the tab belongs to the quote: two left')
    assertEqual(inFence('-\t```\n'), true)
    assertEqual(inFence('- a\n\t```\n'), true, 'a tab reaches the item content')
  })

  test('v20-code-fence: CR and CRLF end lines too', () => {
    assertEqual(inFence('```\r\n'), true)
    assertEqual(inFence('```\r'), true)
    assertEqual(inFence('```\r\ncode\r\n```\r\n'), false)
  })

  test('v20-code-fence: quiet mid-line, awake at a line start or on a fence line', () => {
    const tracker = createFenceTracker()
    tracker.track('some prose')
    assertEqual(tracker.quiet, true, 'mid-line')
    tracker.track('\n')
    assertEqual(tracker.quiet, false, 'at a line start')
    tracker.track('```js')
    assertEqual(tracker.quiet, false, 'on an opening fence line')
    tracker.track('\ncode')
    assertEqual(tracker.quiet, true, 'on a content line')
  })

  test('v20-code-fence (DESIGN §5.4): the engine keeps a block inside a tilde fence and recovers one after it', () => {
    const fenced = `~~~xml\n${bashBlock()}\n~~~\n`
    const result = sanitizeText(fenced + bashBlock())
    assertEqual(result.text, fenced, 'text')
    assertEqual(result.calls.map((call) => ({ name: call.name, arguments: { ...call.arguments } })), [BASH], 'calls')
  })

  test('v20-code-fence: the engine removes a block after an inline run, and on the fence line itself', () => {
    assertEqual(sanitizeText(`Use \`\`\` ${bashBlock()} here`).text, 'Use ```  here')
    assertEqual(sanitizeText(`\`\`\`${bashBlock()}\nx`).calls.length, 1, 'markup on the opening line is its info string, not code')
  })

  test('v20-code-fence: the engine tracks fences the same whatever the split, before and after it holds anything', () => {
    const marker = `<${'\uFF5C'}DSML${'\uFF5C'}tool_calls>`
    const input = `\`\`a\`${marker}`
    const whole = normalizeEvents(runChunks([input]))
    assertEqual(normalizeEvents(runChunks(['``', 'a', '`', marker])), whole, 'split into backtick runs')
    assertEqual(sanitizeText(input).text, '``a`', 'no fence was opened: the markup is removed')
    const fenced = `\n\`\`\`\n${marker}`
    assertEqual(normalizeEvents(runChunks(['\n`', '``', '\n', marker])), normalizeEvents(runChunks([fenced])), 'a fence opened across chunks')
    assertEqual(sanitizeText(fenced).text, fenced, 'in the fence the markup stays')
  })
})
