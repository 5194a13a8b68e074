/**
 * sanitizer.ts: `DsmlSanitizerCore`, what the fused repairs ask a
 * sanitizer (its engine, `engine.ts`, answers once it is built).
 * `passesAsItIs` asks, without feeding it, whether a chunk would come out
 * as it is (the engine's short-chunk path, or a chunk that could hold no
 * markup before the engine is built); the fused repairs forward a text it
 * accepts as it came, and `passed` then reads it as feeding would.
 */
import fc from 'fast-check'
import { createDsmlSanitizer } from '../../src/dsml/index.ts'
import { createDsmlSanitizerCore } from '../../src/dsml/sanitizer.ts'
import { assertEqual } from '../support/assert.ts'
import { normalizeEvents, textOf } from '../support/chunking.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

/** A real call, recovered outside a fence or a code span. */
const CALL = block([invoke('read', [param('path', '/a')])])

/** Pieces that end chunks inside tag starts, open fences and code spans, and a real call. */
const PIECES = ['see ', '<para', 'meters>', '<param ', 'name="x">', '</param>', '<invoke', ' name="read">', '<', '<<', 'a < b', '\n', '```\n', '`', '|', 'x'.repeat(30), CALL]

export const suite = defineSuite('dsml/sanitizer', (test) => {
  test('passesAsItIs (property): a chunk it accepts, fed instead, comes out as it is; passed reads it as feeding does; asking changes nothing', () => {
    const options = { knownTools: ['read'], generateId: () => 'call' }
    const chunks = fc.array(fc.constantFrom(...PIECES, ' word', '\n\n', 'a\nb', '  ', '~~~\n', 'C:\\x'), { minLength: 0, maxLength: 6 })
    fc.assert(
      // The chunk asked about often opens or closes a fence or a code span, and a call follows it: reading it or not shows.
      fc.property(chunks, fc.constantFrom(...PIECES, ' word', '\n', 'x\n', ' `y` ', '```', '```\n', '\n```\n', 'a `', '\n~~~\n'), chunks, (before, chunk, following) => {
        const after = [...following, '\n', CALL]
        const asked = createDsmlSanitizerCore(options)
        const fed = createDsmlSanitizer(options)
        assertEqual(before.flatMap((piece) => asked.feed(piece)), before.flatMap((piece) => fed.feed(piece)), 'the same sanitizers before')
        const passes = asked.passesAsItIs(chunk)
        if (passes) {
          assertEqual(fed.feed(chunk), [{ type: 'text', text: chunk }], `fed instead: ${JSON.stringify([...before, chunk])}`)
          asked.passed(chunk)
        } else {
          // Asking took nothing: the sanitizer reads the chunk as one never asked does.
          assertEqual(asked.feed(chunk), fed.feed(chunk), `not accepted, then fed: ${JSON.stringify([...before, chunk])}`)
        }
        const rest = [after.flatMap((piece) => asked.feed(piece)).concat(asked.end()), after.flatMap((piece) => fed.feed(piece)).concat(fed.end())]
        assertEqual(normalizeEvents(rest[0]!), normalizeEvents(rest[1]!), `what follows reads the same: ${JSON.stringify([before, chunk, after])}`)
      }),
      { numRuns: 1500 },
    )
  })

  test('passesAsItIs: a line start, a line break and a `<` decided as text pass; a tag start held, a waiting note, a sanitizer off or ended do not', () => {
    const after = (text: string, options = {}): ReturnType<typeof createDsmlSanitizerCore> => {
      const sanitizer = createDsmlSanitizerCore(options)
      sanitizer.feed(text)
      return sanitizer
    }
    // A sanitizer at a line start is not idle (a line may begin a fence), but the chunk is read: it passes.
    const lineStart = after('one <b>two</b>\n')
    assertEqual([lineStart.idle, lineStart.passesAsItIs(' word')], [false, true], 'at a line start')
    assertEqual(after('one <b>').passesAsItIs('a\nb < 10'), true, 'a line break, and a `<` the next characters decide as text')
    assertEqual(after('one <b>').passesAsItIs('a <'), false, 'a `<` at the end, undecided')
    assertEqual(after('one <').passesAsItIs(' b'), false, 'a tag start waits from the last chunk')
    assertEqual(after('x').passesAsItIs(''), false, 'nothing to pass')
    assertEqual(after('x', { mode: 'off' }).passesAsItIs('y'), false, 'off: no shortcut asked for')
    const ended = after('x')
    ended.end()
    assertEqual(ended.passesAsItIs('y'), false, 'ended')
    const marker = '\uFF5CDSML\uFF5C'
    const noted = after(`<${marker}tool_calls><${marker}invoke name="nope"><${marker}parameter name="a">1</${marker}parameter></${marker}invoke></${marker}tool_calls>`, { unrecoveredNote: true, knownTools: ['read'] })
    assertEqual(noted.passesAsItIs(' after'), false, 'a note waits for the next text')
    assertEqual(textOf(noted.feed(' after')).endsWith(' after'), true, 'and the next text takes it')
  })
})
