/**
 * The body of a tag named after a tool (`<‹DSML›execute_command>…`): the
 * text it holds between its DSML-marked fields. Plain elements in it
 * (`<timeout>600</timeout>`), or a JSON object as its whole body, become
 * arguments; a body that is neither makes the call impossible. The
 * transitions (`invoke-transitions.ts`) keep the body; what becomes of the
 * call is `Markup.finishToolNameTag`'s.
 */
import { parseJsonObjectBody, parseXmlChildren, setArgument } from './arguments.ts'
import type { Invoke } from './states.ts'

/** Why a tool-name tag's call is not made when its body cannot give arguments. */
const UNREADABLE = 'DSML tag named after a tool removed: its body is neither elements nor a JSON object'

/**
 * A tool-name tag's generic parameter closer (`</‹DSML›parameter>`) with no
 * field open: it closes the plain element its text opened last
 * (`<path>C:/x</‹DSML›parameter>`). The text so far (complete elements, and
 * that open one) becomes arguments; text that is not elements stays in the body.
 */
export function closeBodyElement(invoke: Invoke): void {
  if (invoke.overflowed || invoke.bodyUnreadable) return
  const children = parseXmlChildren(invoke.body.join(''), true)
  if (children === undefined) {
    // Text that is not elements: more text cannot make it so; not read again at every closer.
    invoke.bodyUnreadable = true
    return
  }
  for (const [name, value] of Object.entries(children)) {
    setArgument(invoke.args, name, value)
    invoke.argumentCount++
  }
  invoke.body = []
}

/**
 * At the tag's end: the arguments its body gives (its elements, or a JSON
 * object as its whole body when it has no fields), set on `invoke`. Returns
 * why the call cannot be made when the body is neither, else undefined.
 */
export function readToolNameBody(invoke: Invoke): string | undefined {
  if (invoke.bodyUnreadable) return UNREADABLE
  const body = invoke.body.join('')
  if (body.trim() === '') return undefined
  const children = parseXmlChildren(body) ?? (invoke.argumentCount === 0 ? parseJsonObjectBody(body) : undefined)
  if (children === undefined) return UNREADABLE
  for (const [name, value] of Object.entries(children)) setArgument(invoke.args, name, value)
  return undefined
}
