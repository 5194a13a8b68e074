/**
 * The repair rows of seeds/TEST-MATRIX.md at engine level: stored assistant
 * text is repaired with sanitizeText (the message-level wrapper lives above
 * the engine). repair-strip-only uses mode strip (and the native-call path);
 * repair-append is the default recover mode; repair-thinking runs the same
 * engine over reasoning text; repair-idempotent runs sanitizeText twice.
 */
import { createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { callsOf, textOf } from '../support/chunking.ts'
import { EOS_VARIANTS, block, close, dialect, eos, invoke, marker, open, param } from '../support/dsml-builders.ts'
import { essentials, expectOutcome, kindsOf } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }

const BASH = { name: 'bash', arguments: { command: 'ls -la' } }
const bashBlock = (): string => block([invoke('bash', [param('command', 'ls -la')])])

/** A stored assistant message: prose, a leaked call, more prose. */
const STORED = `I will list the files.\n\n${bashBlock()}\n\nThe listing follows.`
const STORED_TEXT = 'I will list the files.\n\n\n\nThe listing follows.'

/** Inputs whose repaired text must be stable under a second repair. */
function corpus(): string[] {
  const v41 = dialect({ tagSpace: true })
  return [
    STORED,
    'plain prose, nothing to do',
    `${bashBlock()}${eos()}`,
    ...EOS_VARIANTS.map((variant) => `Done.${eos(variant)}`),
    `hello${open('tool_calls')}world`,
    `a ${invoke('read', [param('path', 'x')])} b`,
    `a ${param('content', 'x')} b`,
    `Fixing.\n\n<parameter name="edit">\n${param('path', 'a.kt')}\n${param('oldString', 'x')}\n${v41.close('invoke')}\n${v41.close('calls')}`,
    'Pass <parameter name="x">the value</parameter> to the template.',
    '<invoke name="read">\n<parameter name="p">v</parameter>\n</invoke>',
    '```\n' + bashBlock() + '\n```',
    `${open('tool_calls')}\n${open('invoke', { name: 'read' })}\n${open('parameter', { name: 'p', string: 'true' })}unfinished`,
    `stray ${close('parameter')} closers ${close('tool_calls')}`,
    `${marker()}tool_calls> fragment`,
    ...leaks.map((leak) => leak.input),
  ]
}

export const suite = defineSuite('dsml/repair', (test) => {
  test('repair-strip-only: mode strip removes the leaked block and appends no call', () => {
    const outcome = expectOutcome(STORED, { calls: [], text: STORED_TEXT }, { mode: 'strip' })
    assert(outcome.diagnostics.some((d) => d.kind === 'dropped-markup' && d.tool === 'bash'), 'the would-be bash call is reported with its tool')
  })

  test('repair-strip-only: with the native call already on the message, the leaked copy is stripped, not appended', () => {
    const sanitizer = createDsmlSanitizer()
    sanitizer.noteNativeToolCall({ name: 'bash', arguments: '{"command":"ls -la"}' })
    const events = [...sanitizer.feed(STORED), ...sanitizer.end()]
    assertEqual(callsOf(events), [], 'calls')
    assertEqual(textOf(events), STORED_TEXT, 'text')
    assert(kindsOf(events.flatMap((e) => (e.type === 'diagnostic' ? [e.diagnostic] : []))).includes('duplicate-call'), 'duplicate-call reported')
  })

  test('repair-append: recover strips the text and gives the call to append', () => {
    expectOutcome(STORED, { calls: [BASH], text: STORED_TEXT })
  })

  test('repair-append: several leaked calls come back in order', () => {
    const input = `Step one.\n${bashBlock()}\nStep two.\n${invoke('read', [param('path', 'a.txt')])}`
    expectOutcome(input, { calls: [BASH, { name: 'read', arguments: { path: 'a.txt' } }], text: 'Step one.\n\nStep two.\n' })
  })

  test('repair-thinking: a leaked block in reasoning text is stripped; plain <think> tags stay', () => {
    const input = `<think>\nI should list the files first.\n${bashBlock()}\n</think>\nHere is the plan.`
    expectOutcome(input, { calls: [BASH], text: '<think>\nI should list the files first.\n\n</think>\nHere is the plan.' })
  })

  test('repair-thinking: reasoning that only explains DSML in a fence is untouched', () => {
    const input = `<think>\nThe format looks like:\n\`\`\`\n${bashBlock()}\n\`\`\`\nI will not use it.\n</think>`
    expectOutcome(input, { calls: [], text: input, ranges: [], allowMarkupInText: true })
  })

  test('repair-idempotent: a second sanitizeText run is a no-op', () => {
    for (const input of corpus()) {
      const first = sanitizeText(input)
      const second = sanitizeText(first.text)
      const label = JSON.stringify(input.slice(0, 60))
      assertEqual(second.text, first.text, `second run changed the text of ${label}`)
      assertEqual(second.calls, [], `second run found calls in ${label}`)
      assertEqual(second.diagnostics.map(essentials), [], `second run reported diagnostics for ${label}`)
    }
  })

  test('repair-idempotent: also in strip mode', () => {
    for (const input of corpus()) {
      const first = sanitizeText(input, { mode: 'strip' })
      const second = sanitizeText(first.text, { mode: 'strip' })
      assertEqual(second.text, first.text, `second strip run changed the text of ${JSON.stringify(input.slice(0, 60))}`)
      assertEqual(second.diagnostics.map(essentials), [], `second strip run reported diagnostics for ${JSON.stringify(input.slice(0, 60))}`)
    }
  })
})
