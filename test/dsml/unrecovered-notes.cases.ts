/**
 * `unrecoveredNote` (src/dsml/unrecovered-notes.ts; issue "beyond recovery",
 * part 2): where markup that held a call is removed without one, the text
 * gets a note naming the tool and the reason. The note holds no markup, is
 * the same whatever the split, is never written for a recovered call, and is
 * read back by history repair so that the next request's nudge names the call.
 */
import { containsDsmlSentinel, createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import { notedCalls, RemovalRun, unrecoveredNote } from '../../src/dsml/unrecovered-notes.ts'
import { sanitizeChatCompletionsRequest } from '../../src/chat-completions/index.ts'
import { repairHistoryText } from '../../src/parts/history-repair.ts'
import { recoveryNudgeText } from '../../src/parts/prevention.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { assertChunkInvariant, textOf } from '../support/chunking.ts'
import { block, close, eos, invoke, open, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const NOTE = { unrecoveredNote: true }
const PREFIX = 'Writing the file now.\n\n'
/** A write_file call cut off inside its content parameter (the output ended there). */
const CUT = `${PREFIX}${open('tool_calls')}\n${open('invoke', { name: 'write_file' })}\n${param('path', 'a.txt')}\n${open('parameter', { name: 'content', string: 'true' })}first line\nsecond li`

export const suite = defineSuite('dsml/unrecovered-notes', (test) => {
  test('a call cut off by the end of the output leaves a note naming the tool and why, after the text before it', () => {
    const off = sanitizeText(CUT)
    assertEqual(off.text, PREFIX, 'without the option, nothing is written')
    const on = sanitizeText(CUT, NOTE)
    assertEqual(on.text, `${PREFIX}[tool call to "write_file" could not be recovered: the output was cut off]`)
    assertEqual(on.calls, [])
    assertEqual(on.diagnostics, off.diagnostics, 'the diagnostics are the same')
    assert(!containsDsmlSentinel(on.text), 'the note holds no markup')
  })

  test('the reason follows what became of the markup: an undeclared tool, arguments against the schema, the hold limit', () => {
    const undeclared = sanitizeText(`Run it.\n${block([invoke('rm_rf', [param('path', '/')])])}\nDone.`, { ...NOTE, knownTools: ['read'] })
    assertEqual(undeclared.text, 'Run it.\n[tool call to "rm_rf" could not be recovered: the tool is not declared]\nDone.')
    const schema = sanitizeText(`Go.\n${block([invoke('read', [param('file', 'a.txt')])])}`, {
      ...NOTE,
      tools: [{ name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } }],
    })
    const kinds = sanitizeText(`Go.\n${block([invoke('read', [param('file', 'a.txt')])])}`, { tools: [{ name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } }] }).diagnostics.map((diagnostic) => diagnostic.kind)
    assert(kinds.includes('schema-mismatch'), `the harness: a schema mismatch (${kinds})`)
    assertEqual(schema.text, 'Go.\n[tool call to "read" could not be recovered: its arguments did not fit the tool\'s schema]')
    const long = sanitizeText(`Big.\n${open('tool_calls')}\n${open('invoke', { name: 'write_file' })}\n${open('parameter', { name: 'content', string: 'true' })}${'x'.repeat(3000)}`, { ...NOTE, maxHoldChars: 1024 })
    assert(long.text.startsWith('Big.\n'), `kept: ${JSON.stringify(long.text.slice(0, 40))}`)
    assert(long.text.includes('could not be recovered'), `a note past the hold limit: ${JSON.stringify(long.text.slice(0, 200))}`)
  })

  test('no note for a recovered call, for a removed special token, or in mode off', () => {
    const recovered = sanitizeText(`Sure.\n${block([invoke('read', [param('path', 'a.txt')])])}`, NOTE)
    assertEqual([recovered.text, recovered.calls.length], ['Sure.\n', 1])
    assertEqual(sanitizeText(`A ${eos()} B`, NOTE).text, 'A  B', 'a special token held no call')
    assertEqual(sanitizeText(CUT, { ...NOTE, mode: 'off' }).text, CUT)
    assertThrows(() => sanitizeText('x', { unrecoveredNote: 'yes' as never }), TypeError, /unrecoveredNote/)
  })

  test('the same notes whatever the split: whole, every two-way split, one code point at a time', () => {
    for (const input of [CUT, `Run it.\n${block([invoke('rm_rf', [param('path', '/')])])}\nDone.`]) {
      const events = assertChunkInvariant(input, { ...NOTE, knownTools: ['write_file', 'read'] }, assertEqual)
      assert(textOf(events).includes('could not be recovered'), `a note: ${JSON.stringify(textOf(events))}`)
    }
  })

  test('a note comes out before the text after the markup, as soon as that text does', () => {
    const sanitizer = createDsmlSanitizer({ ...NOTE, knownTools: ['read'] })
    const first = sanitizer.feed(`Run it.\n${block([invoke('rm_rf', [param('path', '/')])])}`)
    const second = sanitizer.feed('\nDone.')
    assertEqual(second.filter((event) => event.type === 'text').map((event) => (event as { text: string }).text)[0], '[tool call to "rm_rf" could not be recovered: the tool is not declared]')
    assert(!first.some((event) => event.type === 'text' && event.text.includes('could not')), 'not before the run ends')
    assertEqual(sanitizer.end(), [])
  })

  test('one rule for runs that held a call: history repair notes the same runs', () => {
    // A stray closer of a call counts as its markup, for history and notes alike (`holdsCallMarkup`).
    for (const input of [CUT, `Run it.\n${block([invoke('rm_rf', [param('path', '/')])])}\nDone.`, `A ${close('parameter')} B`, `A ${eos()} B`]) {
      const history = repairHistoryText(input, { knownTools: ['read'] })
      const streamed = sanitizeText(input, { ...NOTE, knownTools: ['read'] })
      assertEqual(history.removedCalls, notedCalls(streamed.text).length, `same runs: ${JSON.stringify(input.slice(0, 30))}`)
    }
    const run = new RemovalRun()
    assertEqual([run.open, run.close()], [false, []])
  })

  test('notes are read back: history leaves them as they are, counts them, and the nudge names the tool', () => {
    const reply = sanitizeText(CUT, NOTE).text
    const history = repairHistoryText(reply)
    assertEqual([history.text, history.removedCalls, history.unrunTools], [reply, 1, ['write_file']])
    assertEqual(notedCalls(`${unrecoveredNote({ tool: undefined, reason: 'x' })} ${unrecoveredNote({ tool: 'a', reason: 'y' })}`), [undefined, 'a'])
    const body = sanitizeChatCompletionsRequest(
      { messages: [{ role: 'user', content: 'write it' }, { role: 'assistant', content: reply }, { role: 'user', content: 'go on' }] },
      { recoveryNudge: true },
    )
    assertEqual(body.messages.at(-1), { role: 'system', content: recoveryNudgeText(['write_file']) })
    assert(recoveryNudgeText(['write_file']).includes('"write_file"'), 'the nudge names the call that did not run')
  })
})
