/**
 * marker-reader.ts on its own: where a marker hands the tag on to the lexer
 * (`NEXT_NAME`, `NEXT_WORDLESS_NAME`, `NEXT_ATTRIBUTES`,
 * `NEXT_ATTRIBUTES_AFTER_SLASH`, `NEXT_FRAGMENT_END`, or a bare marker's end),
 * and what its record says there. The lexer's own tests (tag-lexer.cases.ts)
 * read whole tags through it. Markers are built at run time.
 */
import { ALL_NAMES, NO_NAMES, OPENERS, drifting, type TagContext } from '../../src/dsml/markup-starts.ts'
import {
  MarkerReader,
  type MarkerStep,
  NEXT_ATTRIBUTES,
  NEXT_ATTRIBUTES_AFTER_SLASH,
  NEXT_FRAGMENT_END,
  NEXT_NAME,
  NEXT_WORDLESS_NAME,
} from '../../src/dsml/marker-reader.ts'
import { STEP_COMPLETE, STEP_COMPLETE_BEFORE, STEP_CONTINUE, STEP_REJECT } from '../../src/dsml/tag.ts'
import { assertEqual } from '../support/assert.ts'
import { FW_BAR, marker } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const M = marker()

const NAMES: Record<number, string> = {
  [STEP_CONTINUE]: 'continue',
  [STEP_REJECT]: 'reject',
  [STEP_COMPLETE]: 'complete',
  [STEP_COMPLETE_BEFORE]: 'complete before',
  [NEXT_NAME]: 'name',
  [NEXT_WORDLESS_NAME]: 'wordless name',
  [NEXT_ATTRIBUTES]: 'attributes',
  [NEXT_ATTRIBUTES_AFTER_SLASH]: 'attributes after slash',
  [NEXT_FRAGMENT_END]: 'fragment end',
}

/** Reads `text` from its first character until the reader answers anything but STEP_CONTINUE: the answer, and at which character. */
function read(text: string, context: TagContext = NO_NAMES): { step: string; at: number; reader: MarkerReader } {
  const reader = new MarkerReader()
  reader.begin(text.charCodeAt(0), context)
  for (let at = 1; at < text.length; at++) {
    const step: MarkerStep = reader.step(text.charCodeAt(at), at)
    if (step !== STEP_CONTINUE) return { step: NAMES[step]!, at, reader }
  }
  return { step: 'open', at: text.length, reader }
}

export const suite = defineSuite('dsml/marker-reader', (test) => {
  test('a marked opener hands on at its name, committed at the word; the record says where the marker is', () => {
    const { step, at, reader } = read(`<${M}invoke name="x">`)
    assertEqual([step, at], ['name', 1 + M.length], 'the name begins after the marker')
    assertEqual([reader.kind, reader.committed, reader.closing, reader.markerStart, reader.markerEnd], ['dsml', true, false, 1, 1 + M.length], 'record')
  })

  test('closers: `</` and the slash drifted past the marker both make a closer', () => {
    assertEqual([read(`</${M}invoke>`).step, read(`</${M}invoke>`).reader.closing], ['name', true], '</‹DSML›')
    const drifted = read(`<${M}/invoke>`)
    assertEqual([drifted.step, drifted.reader.closing], ['name', true], '<‹DSML›/')
  })

  test('bare markers end where they stand: at `>`, before anything else, or with an attribute list after a `/`', () => {
    assertEqual(read(`<${M}>`).step, 'complete', 'a `>` ends it, read')
    assertEqual(read(`<${M}\n`).step, 'complete before', 'a line break ends it, not read')
    assertEqual(read(`<${M}/ x>`).step, 'attributes after slash', 'a `/` then a space: the list the slash began')
  })

  test('bars without the word hand on a wordless name, read; markerless names only where the context allows them', () => {
    const wordless = read(`<${FW_BAR}invoke`)
    assertEqual([wordless.step, wordless.at, wordless.reader.kind], ['wordless name', 2, 'bars'], 'the name\'s first letter is read')
    assertEqual(read('<invoke name="x">', OPENERS).step, 'name', 'a markerless opener, allowed')
    assertEqual(read('<invoke name="x">', NO_NAMES).step, 'reject', 'a markerless opener, not allowed')
    const spaced = read('< calls>', ALL_NAMES)
    assertEqual([spaced.step, spaced.reader.spacedOpener], ['name', true], 'a spaced opener: only those names')
  })

  test('fragments end after their marker when no known name follows; in drift a drifted word waits for its closing bar', () => {
    const fragment = read(`${M}: text`)
    assertEqual([fragment.step, fragment.reader.fragment, fragment.reader.fragmentEnd], ['fragment end', true, M.length], 'a fragment that lost its `<`')
    const drifted = read(`<${FW_BAR}ZZZ${FW_BAR}parameter>`, drifting(ALL_NAMES))
    assertEqual([drifted.step, drifted.reader.driftedWord, drifted.reader.committed], ['name', true, false], 'uncommitted until a known name ends')
    assertEqual(read(`<${FW_BAR}ZZZ${FW_BAR}parameter>`, ALL_NAMES).step, 'reject', 'outside drift: no drifted word')
  })

  test('end of input inside the marker: a tag once the word committed it, text before', () => {
    assertEqual(NAMES[read(`<${M}`).reader.finish()], 'complete before', 'the whole marker: a tag that ends with the input')
    assertEqual(NAMES[read(`<${M.slice(0, 2)}`).reader.finish()], 'reject', 'the word cut short: text')
    assertEqual(NAMES[read('< ').reader.finish()], 'reject', 'a `<` and a space: text')
  })
})
