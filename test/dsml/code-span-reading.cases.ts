/**
 * code-span-reading.ts through the engine: each way a tag that stands where
 * an inline code span may be open is decided — by a gate that finds the span
 * closed (out as it is), not closed (read as usual), or closed right before
 * markup (read as documentation); by the runs of text a gate held (they
 * answer there, so no second gate holds that text again); with partial tags before the tag; and when the text ends or
 * is interrupted while a gate holds. Every input whole, split at every
 * offset and one character at a time, every character kept or removed,
 * never lost. Markers are built at run time; the gate itself:
 * code-span-gate.cases.ts.
 */
import { createDsmlSanitizer, type DsmlSanitizerOptions } from '../../src/dsml/index.ts'
import { assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, reassemble, textOf } from '../support/chunking.ts'
import { marker } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const M = marker()
const BASH = { name: 'bash', arguments: { command: 'ls' } }
const CALL = `<${M}tool_calls><${M}invoke name="bash"><${M}parameter name="command" string="true">ls</${M}parameter></${M}invoke></${M}tool_calls>`

/** `input` through the engine, whole and split: its calls and text, every character kept or removed. */
function read(input: string, options: DsmlSanitizerOptions = {}): [Array<{ name: string; arguments: Record<string, unknown> }>, string] {
  const events = assertChunkInvariant(input, options, assertEqual)
  assertEqual(reassemble(events), input, `conservation: ${JSON.stringify(input.slice(0, 40))}`)
  return [callsOf(events), textOf(events)]
}

export const suite = defineSuite('dsml/code-span-reading', (test) => {
  test('a gate finds the span closed: the span comes out as it is, nothing run', () => {
    const input = `Use \`${CALL}\` here.`
    assertEqual(read(input), [[], input])
  })

  test('a gate finds no run closing the span before the paragraph ends: the held text is read again as usual', () => {
    assertEqual(read(`Stray \` then ${CALL}\n\nNext.`), [[BASH], 'Stray ` then \n\nNext.'])
  })

  test('a gate finds the span closed right before markup: its content is read as documentation, the closing run and what follows as usual', () => {
    const input = `Example \`<${M}invoke name="bash">\`<${M}parameter name="command" string="true">ls</${M}parameter></${M}invoke> done`
    assertEqual(read(input), [[], 'Example `` done'])
  })

  test('a span a gate found closed holds every tag in it: out as it is with the first', () => {
    const input = `\`\`a ${CALL} b ${CALL} c\`\` end`
    assertEqual(read(input), [[], input])
  })

  test('a tag in the text a gate held is decided by the runs the gate read: here in a span of its own, after a stray backtick', () => {
    // The gate at the first tag finds no single backtick closing its run: the held text is read again, and the
    // second tag, after a double run the gate saw closed, is in that span.
    assertEqual(read(`\`a ${CALL} \`\`b ${CALL}\`\` c\n\nNext.`), [[BASH], `\`a  \`\`b ${CALL}\`\` c\n\nNext.`])
  })

  test('the runs of held text judge a span they find closed as a gate would: closed right before markup, it is documentation (review regression)', () => {
    // A fuzz case: the gate at the first fragment held the text; the second fragment's span, found in its runs,
    // closes right before a tag that may be markup, so its fragment is removed (not kept as code), and nothing runs.
    const double = '\u2016'
    const full = '\uFF5C'
    assertEqual(read(`\`\`/${double}DSML\`${full}DSML\`<${full}`, { knownTools: ['bash'] }), [[], `\`\`/\`\`<${full}`])
  })

  test('partial tags pending before a tag: the runs of held text do not answer for it, a gate holds them with it (review regression)', () => {
    // A fuzz case: the bar before the `<` is a partial tag the tag cut short; it is read again through a gate with the
    // tag, and the span that gate finds keeps both.
    const full = '\uFF5C'
    assertEqual(read(`\`\`${full}DSMLs\`${full}<${full}DSML\``, { maxHoldChars: 300, eagerStopChars: 7 }), [[], `\`\`s\`${full}<${full}DSML\``])
  })

  test('text a gate held and found in no span is read again with its runs, which answer for the tags in it (review regression)', () => {
    // A fuzz case (`|` stands for the full-width bar): the gate at the first fragment finds no run closing its span;
    // what it held is read again, and a later closer that the runs place outside any span is markup, removed.
    const full = (text: string): string => text.replaceAll('|', '\uFF5C')
    const input = full(
      '``|< | DSMLeter name="command" string="true">ls</ | DSML | parameter>\n</ | DSML | invoke>\n</ | DSML | tool_calls>` > |<||DSML||parameter name="command">echo `hi`</||DSML||parameter><<<<<lsls</|DSML|invoke></ | DSML | parameter><<|<|DSML|parameter name="command" strinme="command">echi`</',
    )
    assertEqual(read(input, { maxHoldChars: 300, eagerStopChars: 7 }), [[], full('``rue">ls\n\n` > |<||DSML||parameter name="command">echo `hi`<<<<<lsls`</')])
  })

  test('the text after a span the runs found is read on with those runs (review regression)', () => {
    // A fuzz case (`|` stands for the full-width bar): past the gate's cap (300) no run closes the first span, so the
    // held text is read again with its runs; after the short span they find, the rest is read with them too, and the
    // markup after it is read as markup (a call, from arguments the garbled tags before it began).
    const full = (text: string): string => text.replaceAll('|', '\uFF5C')
    const input = full(
      '```>`<|invoke ring="true">ls<tool_calls><<`<|DSML|parameter name="command">echo `hi`</|DSML|parameter> <|DSML|<|DSML|<<</||DSML||parameter><|DSML|tool_calls>\n<|DSML|invoke name="bash">\n<|DSML|parameter name="command" string="true">ls</|DSML|parameter>\n</|DSML|invoke>\n</|DSML|tool_calls>```',
    )
    const [calls, text] = read(input, { maxHoldChars: 300, eagerStopChars: 7 })
    assertEqual([calls.map((call) => call.name), text], [['bash'], '```>`<tool_calls><<` ```'])
  })

  test('partial tags before the tag are held with it, and read again through the gate first', () => {
    const input = `Use \`<<${CALL}\` here.`
    assertEqual(read(input), [[], input])
  })

  test('the text ends while a gate holds: no run closed the span, so the held text is read as usual', () => {
    assertEqual(read(`Stray \` then ${CALL} and more`), [[BASH], 'Stray ` then  and more'])
  })

  test('the text is interrupted while a gate holds (flush): decided as at the end, and reading goes on after', () => {
    const sanitizer = createDsmlSanitizer()
    const events = [...sanitizer.feed(`Stray \` then ${CALL}`), ...sanitizer.flush(), ...sanitizer.feed(' and ` more'), ...sanitizer.end()]
    assertEqual([callsOf(events), textOf(events)], [[BASH], 'Stray ` then  and ` more'])
  })
})
