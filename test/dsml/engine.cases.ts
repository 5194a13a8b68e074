/**
 * engine.ts: the path of a short chunk read outside markup with nothing held.
 * The tag start such a chunk ends in, undecided, waits for the next chunk
 * (the tail) instead of going to the scanner: it counts as held, the next
 * short chunk is read after it, and a long chunk, `flush` and `end` hand it
 * to the scanner first. Fed in short chunks, a text gives the events it
 * gives whole; and in a code fence nothing waits.
 */
import fc from 'fast-check'
import { createDsmlSanitizer } from '../../src/dsml/index.ts'
import { SHORT_TEXT } from '../../src/dsml/markup-starts.ts'
import type { DsmlSanitizer, SanitizerEvent } from '../../src/dsml/types.ts'
import { assertEqual } from '../support/assert.ts'
import { normalizeEvents, textOf } from '../support/chunking.ts'
import { block, invoke, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

/** Feeds `chunks` in order, then ends; every event. */
function run(chunks: readonly string[], sanitizer: DsmlSanitizer = createDsmlSanitizer({ knownTools: ['read'], generateId: () => 'call' })): SanitizerEvent[] {
  const events: SanitizerEvent[] = []
  for (const chunk of chunks) events.push(...sanitizer.feed(chunk))
  events.push(...sanitizer.end())
  return events
}

/** Pieces that end chunks inside tag starts: markerless openers cut short, their look-alikes, a real block. */
const PIECES = ['see ', '<para', 'meters>', '<param ', 'name="x">', '</param>', '<invoke', ' name="read">', '<', '<<', 'a < b', '\n', '```\n', '`', '|', 'x'.repeat(30), block([invoke('read', [param('path', '/a')])])]

export const suite = defineSuite('dsml/engine', (test) => {
  test('a tag start a short chunk ends in waits as held, and the next chunk decides it', () => {
    const sanitizer = createDsmlSanitizer()
    assertEqual(textOf(sanitizer.feed('see <para')), 'see ', 'the plain part comes out')
    assertEqual([sanitizer.heldChars, sanitizer.idle], [5, false], 'the tag start waits')
    assertEqual(textOf(sanitizer.feed('meters> here')), '<parameters> here', 'not a markerless opener: text')
    assertEqual([sanitizer.heldChars, sanitizer.idle], [0, true], 'nothing waits')
  })

  test('end, flush and a long chunk read the tag start that waits first, as the scanner would have', () => {
    const ended = createDsmlSanitizer()
    ended.feed('see <para')
    assertEqual([textOf(ended.end()), ended.heldChars], ['<para', 0], 'end: a markerless name cut short is text')
    const flushed = createDsmlSanitizer()
    flushed.feed('see <para')
    assertEqual([textOf(flushed.flush()), flushed.heldChars], ['<para', 0], 'flush: a markerless name begun is decided')
    const lessThan = createDsmlSanitizer()
    lessThan.feed('see <')
    assertEqual([textOf(lessThan.flush()), lessThan.heldChars], ['', 1], 'flush: a lone `<` may still begin a marker, and stays held')
    const long = `meters>${'z'.repeat(SHORT_TEXT)}`
    assertEqual(normalizeEvents(run(['see <para', long])), normalizeEvents(run([`see <para${long}`])), 'a long chunk after it')
  })

  test('a chunk longer than SHORT_TEXT with no tag start waiting is the scanner\'s, whole: not read as split before its first tag', () => {
    // An unmatched backtick run, V4.1's opener that lost its marker, then a span holding a marked tag.
    const chunk = `${'w'.repeat(SHORT_TEXT - 24)} \`\`<calls>\`${'\uFF5C'}DSML${'\uFF5C'}invoke name="x">\``
    assertEqual(chunk.length > SHORT_TEXT, true)
    assertEqual(normalizeEvents(run(['x'.repeat(SHORT_TEXT + 26), chunk])), normalizeEvents(run([`${'x'.repeat(SHORT_TEXT + 26)}${chunk}`])))
  })

  test('in a code fence nothing waits: the tag start is text at once', () => {
    const fenced = createDsmlSanitizer()
    fenced.feed('```\n')
    assertEqual([textOf(fenced.feed('code <para')), fenced.heldChars], ['code <para', 0])
  })

  test('property: fed in short chunks cut anywhere, the events whole (tags cut at every point, a real call among them)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 1, maxLength: 40 }), (pieces, sizes) => {
        const text = pieces.join('')
        const chunks: string[] = []
        for (let at = 0, index = 0; at < text.length; index++) {
          const size = sizes[index % sizes.length]!
          chunks.push(text.slice(at, at + size))
          at += size
        }
        assertEqual(normalizeEvents(run(chunks)), normalizeEvents(run([text])), JSON.stringify(chunks))
      }),
      { numRuns: 400 },
    )
  })
})
