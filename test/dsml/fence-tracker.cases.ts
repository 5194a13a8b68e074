/** createFenceTracker: the fence rule the engine (and the no-sentinel property) rely on. */
import { createFenceTracker } from '../../src/dsml/fence-tracker.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

/** The state after each input, fed whole and one character at a time (they must agree). */
function states(text: string): boolean {
  const whole = createFenceTracker()
  whole.track(text)
  const split = createFenceTracker()
  for (const character of text) split.track(character)
  assertEqual(split.inFence, whole.inFence, `split differs for ${JSON.stringify(text)}`)
  return whole.inFence
}

export const suite = defineSuite('dsml/fence-tracker', (test) => {
  test('v20-code-fence: three backticks open, three close', () => {
    assertEqual(states('```'), true)
    assertEqual(states('```js\ncode\n```'), false)
    assertEqual(states('a `b` c'), false, 'inline code is not a fence')
    assertEqual(states('``'), false)
  })

  test('v20-code-fence: a closing run must be at least as long as the opener', () => {
    assertEqual(states('````\n```\n'), true, 'three do not close four')
    assertEqual(states('````\n```\n`````'), false, 'five close four')
  })

  test('v20-code-fence: a run that opened a fence sets its length while it grows, in any split', () => {
    const tracker = createFenceTracker()
    for (const piece of ['``', '`', '``', 'x', '````', 'y', '`````']) tracker.track(piece)
    assertEqual(tracker.inFence, false, 'opened by 5, not closed by 4, closed by 5')
    assertEqual(states('`````x````y`````'), false)
  })

  test('v20-code-fence: runs joined across tracked pieces count as one run', () => {
    const tracker = createFenceTracker()
    tracker.track('a ``')
    tracker.track('` b')
    assertEqual(tracker.inFence, true)
  })

  test('v20-code-fence: the engine tracks fences the same whatever the split, before and after it holds anything', async () => {
    const { sanitizeText } = await import('../../src/dsml/sanitize-text.ts')
    const { runChunks, normalizeEvents } = await import('../support/chunking.ts')
    const marker = `<${'\uFF5C'}DSML${'\uFF5C'}tool_calls>`
    const input = `\`\`a\`${marker}`
    const whole = normalizeEvents(runChunks([input]))
    assertEqual(normalizeEvents(runChunks(['``', 'a', '`', marker])), whole, 'split into backtick runs')
    assertEqual(sanitizeText(input).text, '``a`', 'no fence was opened: the markup is removed')
  })
})
