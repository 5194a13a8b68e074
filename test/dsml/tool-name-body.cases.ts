/**
 * tool-name-body.ts: the body of a tag named after a tool (issue 21's
 * tool-name tags, `<‹DSML›execute_command>…`) read into arguments: plain
 * elements, or a JSON object when the tag has no fields; a body that is
 * neither makes the call impossible. The tags through the engine:
 * drift.cases.ts and config.cases.ts (the `toolNameTag` rescue).
 */
import { closeBodyElement, readToolNameBody } from '../../src/dsml/tool-name-body.ts'
import { newInvoke } from '../../src/dsml/states.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

const UNREADABLE = 'DSML tag named after a tool removed: its body is neither elements nor a JSON object'

function invokeWithBody(body: string, argumentCount = 0): ReturnType<typeof newInvoke> {
  const invoke = newInvoke('execute_command', false)
  invoke.body.push(body)
  invoke.argumentCount = argumentCount
  return invoke
}

export const suite = defineSuite('dsml/tool-name-body', (test) => {
  test('a generic parameter closer closes the plain element the body opened last: it becomes an argument, and the body is read', () => {
    const invoke = invokeWithBody('<path>C:/x')
    closeBodyElement(invoke)
    assertEqual(invoke.args, { path: 'C:/x' })
    assertEqual(invoke.argumentCount, 1)
    assertEqual(invoke.body, [])
    assertEqual(invoke.bodyUnreadable, false)
  })

  test('a body that is not elements is marked unreadable at the closer (never read again), and the tag\'s end says why no call is made', () => {
    const invoke = invokeWithBody('run this for me')
    closeBodyElement(invoke)
    assertEqual(invoke.bodyUnreadable, true)
    assertEqual(invoke.args, {})
    assertEqual(readToolNameBody(invoke), UNREADABLE)
  })

  test('a body past the cap is not read at a closer', () => {
    const invoke = invokeWithBody('<path>C:/x')
    invoke.overflowed = true
    closeBodyElement(invoke)
    assertEqual(invoke.args, {})
    assertEqual(invoke.body, ['<path>C:/x'])
  })

  test('at the end: plain elements become arguments (their text as strings)', () => {
    const invoke = invokeWithBody('<timeout>600</timeout>\n<mode>fast</mode>')
    assertEqual(readToolNameBody(invoke), undefined)
    assertEqual(invoke.args, { timeout: '600', mode: 'fast' })
  })

  test('at the end: a JSON object as the whole body of a tag with no fields becomes the arguments; with a field read, it is not read as JSON', () => {
    const bare = invokeWithBody('{"command": "ls", "n": 2}')
    assertEqual(readToolNameBody(bare), undefined)
    assertEqual(bare.args, { command: 'ls', n: 2 })
    const withField = invokeWithBody('{"command": "ls"}', 1)
    assertEqual(readToolNameBody(withField), UNREADABLE)
    assertEqual(withField.args, {})
  })

  test('at the end: a blank body gives nothing and no reason', () => {
    const invoke = invokeWithBody('  \n ')
    assertEqual(readToolNameBody(invoke), undefined)
    assertEqual(invoke.args, {})
  })
})
