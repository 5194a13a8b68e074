/**
 * name-reader.ts on its own: a tag's name read after its marker, and where
 * the reader hands the tag back to the lexer (`NAME_ENDED`,
 * `NAME_FRAGMENT_END`, `NAME_BACK_TO_MARKER`, or a step result), what it
 * says at the end of input, and what it writes into a tag. The lexer's own
 * tests (tag-lexer.cases.ts) read whole tags through it. Markers are built at
 * run time.
 */
import { MAX_TAG_NAME_LENGTH, MARKERLESS_CLOSER_NAMES, MARKERLESS_OPENER_NAMES } from '../../src/dsml/grammar.ts'
import { MarkerReader, NEXT_NAME, NEXT_WORDLESS_NAME } from '../../src/dsml/marker-reader.ts'
import { ALL_NAMES, CLOSERS, drifting, NO_NAMES, OPENERS, type TagContext } from '../../src/dsml/markup-starts.ts'
import { NAME_BACK_TO_MARKER, NAME_ENDED, NAME_FRAGMENT_END, NameReader, type NameStep } from '../../src/dsml/name-reader.ts'
import { newLexedTag, STEP_COMPLETE_BEFORE, STEP_CONTINUE, STEP_REJECT } from '../../src/dsml/tag.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { ASCII_BAR, eos, FW_BAR, marker, WORD } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const M = marker()

const NAMES: Record<number, string> = {
  [STEP_CONTINUE]: 'continue',
  [STEP_REJECT]: 'reject',
  [STEP_COMPLETE_BEFORE]: 'complete before',
  [NAME_ENDED]: 'ended',
  [NAME_FRAGMENT_END]: 'fragment end',
  [NAME_BACK_TO_MARKER]: 'back to marker',
}

interface Read {
  /** The reader's answer ('open' when the text ended first; 'marker' when the marker answered, not the name). */
  step: string
  /** The character it answered at. */
  at: number
  name: NameReader
}

/**
 * Reads `text`'s marker with a `MarkerReader` until it hands on a name, then
 * the name with a `NameReader` until it answers anything but STEP_CONTINUE.
 * With `run`, the characters a markerless name goes on with are read as a
 * run (`NameReader.run`) after each step; with `throughMarker`, the marker
 * reads on where the name hands back to it, as the lexer does.
 */
function read(text: string, context: TagContext = NO_NAMES, options: { run?: boolean; throughMarker?: boolean } = {}): Read {
  const markerReader = new MarkerReader()
  const name = new NameReader(markerReader)
  name.reset()
  markerReader.begin(text.charCodeAt(0), context)
  let inName = false
  for (let at = 1; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (!inName) {
      const step = markerReader.step(code, at)
      if (step === NEXT_NAME) {
        if (!name.begin(code, at)) return { step: 'reject', at, name }
        inName = true
      } else if (step === NEXT_WORDLESS_NAME) {
        name.beginWordless(at)
        inName = true
      } else if (step !== STEP_CONTINUE) return { step: 'marker', at, name }
      continue
    }
    const step: NameStep = name.step(code)
    if (step === NAME_BACK_TO_MARKER && options.throughMarker) {
      // The marker reads this character again.
      inName = false
      at--
      continue
    }
    if (step !== STEP_CONTINUE) return { step: NAMES[step]!, at, name }
    if (options.run) at = name.run(text, at + 1, text.length) - 1
  }
  return { step: 'open', at: text.length, name }
}

/** The tag the name describes. */
function described(name: NameReader): ReturnType<typeof newLexedTag> {
  const tag = newLexedTag()
  name.describe(tag)
  return tag
}

export const suite = defineSuite('dsml/name-reader', (test) => {
  test('v1-canonical: a name after the word ends at the first character no name has, its kind and place written into the tag', () => {
    const { step, at, name } = read(`<${M}invoke name="x">`)
    assertEqual([step, at, name.known], ['ended', 1 + M.length + 6, true], 'ends at the space, a known name')
    const tag = described(name)
    assertEqual([tag.kind, tag.nameStart, tag.nameEnd, tag.compact], ['invoke', 1 + M.length, 1 + M.length + 6, false])
    assertEqual(read(`<${M}INVOKE>`).name.known, true, 'known names ignore case')
    const compact = read(`<${M}r=bash>`)
    assertEqual([compact.step, described(compact.name).kind, described(compact.name).compact], ['ended', 'invoke', true], 'a compact name, after the word')
  })

  test('v9-orphan-invoke: a markerless name is one of its direction’s words, whole, and a bare opener needs its `>`', () => {
    assertEqual(read('<invoke name="x">', OPENERS).step, 'ended')
    assertEqual(read('<invok name="x">', OPENERS).step, 'reject', 'a word cut short')
    assertEqual(read('<invokes>', OPENERS).step, 'reject', 'a longer name')
    assertEqual(read('<function>', OPENERS).step, 'ended', 'a bare opener at its `>`')
    assertEqual(read('<function x>', OPENERS).step, 'reject', 'a bare opener with anything else after it')
    assertEqual(read('</tool_calls>', CLOSERS).step, 'ended', 'a closer')
    assertEqual(described(read('</tool_calls>', CLOSERS).name).kind, 'block', 'its meaning is its word’s')
    assertEqual(read('< calls>', ALL_NAMES).step, 'ended', 'a spaced opener: `calls`')
    assertEqual(read('< callsx>', ALL_NAMES).step, 'reject', 'a spaced opener: a longer name')
  })

  test('v9-orphan-invoke: a markerless name read as a run (`run`) answers as stepping does, at the same character', () => {
    const afters = ['', '>', ' name="x">', 's>', '/>', '<', FW_BAR, '\n', 'X']
    for (const [context, names, start] of [[OPENERS, MARKERLESS_OPENER_NAMES, '<'], [CLOSERS, MARKERLESS_CLOSER_NAMES, '</']] as const) {
      for (const word of names) {
        for (let cut = 1; cut <= word.length; cut++) {
          for (const after of afters) {
            const text = start + word.slice(0, cut) + after
            const stepped = read(text, context)
            const run = read(text, context, { run: true })
            assertEqual([run.step, run.at, run.name.known], [stepped.step, stepped.at, stepped.name.known], JSON.stringify(text))
          }
        }
      }
    }
    assertEqual(read(`<${M}invoke`).name.run(`<${M}invoke`, 1 + M.length + 1, 1 + M.length + 6), 1 + M.length + 1, 'a marked name is stepped, never run')
  })

  test('v2-doubled-bars / v19-special-tokens: after bars without the word, a known name ends the name; a special token goes back to the marker at its closing bar', () => {
    const wordless = read(`<${FW_BAR}invoke name="x">`)
    assertEqual([wordless.step, wordless.at, wordless.name.known], ['ended', 8, true])
    const token = eos()
    const special = read(token)
    assertEqual(special.step, 'back to marker', 'the closing bars are the marker’s')
    assertEqual(read(`<${FW_BAR}inx>`).step, 'reject', 'no known name, no special token: text')
    assertEqual(described(read(token, NO_NAMES, { throughMarker: true }).name).nameEnd, token.length - 2, 'the token is the name, up to its closing bar')
  })

  test('v24-drift: letters between bars that are no name are a drifted marker word, read on by the marker, in drift only', () => {
    const text = `<${FW_BAR}EPSE${FW_BAR}invoke>`
    assertEqual(read(text, drifting(ALL_NAMES)).step, 'back to marker', 'in drift')
    assertEqual(read(text, ALL_NAMES).step, 'reject', 'outside drift')
  })

  test('v24-drift: a drifted marker word is markup only before a whole known name, and only letters, no longer than a drifted word may be', () => {
    const drift = drifting(ALL_NAMES)
    const bar = ASCII_BAR
    const known = read(`<${bar}EPSE${bar}invoke>`, drift, { throughMarker: true })
    assertEqual([known.step, known.at, known.name.known], ['ended', 13, true], 'a known name after the drifted word: it ends there')
    assertEqual(read(`<${bar}EPSE${bar}invoke>`, drift).step, 'back to marker', 'the word is the marker’s, read on by it')
    assertEqual(read(`<${bar}EPSE${bar}foo>`, drift, { throughMarker: true }).step, 'reject', 'an unknown name after a drifted word: text, at its end')
    assertEqual(read(`<${bar}tool_x${bar}invoke>`, drift).step, 'reject', 'a drifted word holds letters only')
    assertEqual(read(`<${bar}parameter${bar}invoke>`, drift).step, 'reject', 'a word longer than a drifted word may be (nine letters)')
    assertEqual(read(`<${bar}paramete${bar}invoke>`, drift).step, 'back to marker', 'eight letters may be one')
  })

  test('v16-compact: compact names mean something only after the word itself, whole', () => {
    const compact = (text: string): [string, boolean] => {
      const tag = described(read(text).name)
      return [tag.kind, tag.compact]
    }
    const bar = ASCII_BAR
    assertEqual(compact(`<${bar}${WORD}${bar}r=bash>`), ['invoke', true], 'after the word')
    assertEqual(compact(`<${bar}${WORD}${bar}fxyz>`), ['unknown', false], 'no compact name: unknown')
    assertEqual(compact(`${bar}${WORD}${bar}r=bash>`), ['unknown', false], 'a fragment’s `r`: not compact')
  })

  test('fragments: a fragment’s unknown name ends the tag after its marker; a known one goes with it', () => {
    const unknown = read(`${M}hello world`)
    assertEqual(unknown.step, 'fragment end', 'the name is text after the fragment')
    assertEqual(read(`${M}invoke name="x"`).step, 'ended', 'a known name is the fragment’s')
  })

  test('caps: a name longer than the longest is text in an uncommitted tag, and ends a committed one before it', () => {
    const long = 'x'.repeat(MAX_TAG_NAME_LENGTH + 1)
    const committed = read(`<${M}${long}>`)
    assertEqual([committed.step, committed.at], ['complete before', 1 + M.length + MAX_TAG_NAME_LENGTH], 'committed at the word')
    const drifted = read(`<${FW_BAR}EPSE${FW_BAR}${long}>`, drifting(ALL_NAMES), { throughMarker: true })
    assertEqual([drifted.step, drifted.at], ['reject', 7 + MAX_TAG_NAME_LENGTH], 'after a drifted marker word, uncommitted')
  })

  test('end of input in the name: committed tags end with it, uncommitted ones only on a whole known name after bars', () => {
    const finish = (text: string, context: TagContext = NO_NAMES): string => {
      const { step, name } = read(text, context)
      assertEqual(step, 'open', `${JSON.stringify(text)} is still in its name`)
      return NAMES[name.finish()]!
    }
    assertEqual(finish(`<${M}invo`), 'complete before', 'after the word: committed')
    assertEqual(finish(`<${FW_BAR}invoke`), 'complete before', 'after bars, a whole known name')
    assertEqual(finish(`<${FW_BAR}invo`), 'reject', 'after bars, a name cut short: text')
    assertEqual(finish('<invoke', OPENERS), 'reject', 'a markerless name never saw its `>`')
    assertEqual(finish(`${M}inv`), 'fragment end', 'a fragment’s name cut short: the fragment is its marker')
    assert(finish(`${M}invoke`) === 'complete before', 'a fragment’s whole known name goes with it')
  })
})
