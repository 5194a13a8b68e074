/**
 * partial-tags.ts: where a chain of partial tags begins, where the first one
 * past the pending cap begins, and the gate that lets an idle sanitizer skip
 * the engine. The engine reading a text whole must cut a chain exactly where
 * reading it split does (DESIGN.md §5.5, the hold cap).
 */
import fc from 'fast-check'
import { ALL_NAMES, NO_NAMES, OPENERS, SHORT_TEXT } from '../../src/dsml/markup-starts.ts'
import { createDsmlSanitizer } from '../../src/dsml/sanitizer.ts'
import { couldHoldMarkup, isTextTagStart, PartialTagChains, plainPieceUntil } from '../../src/dsml/partial-tags.ts'
import { acceptsMarkerless } from '../../src/dsml/acceptance.ts'
import { resolveOptions } from '../../src/dsml/options.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { normalizeEvents, reassemble, runChunks } from '../support/chunking.ts'
import { defineSuite } from '../support/harness.ts'

const NONE = NO_NAMES

/** Pieces that make chains (`<`, `< `, `<i`, `</`) and pieces that end them. */
const PIECES = ['<', '< ', '<i', '<in', '</', '</ ', 'x', ' ', 'ab', '<x', '\n', 'y z']

export const suite = defineSuite('dsml/partial-tags', (test) => {
  test('isTextTagStart: a start the lexer rejects at its next character, unless that is another start', () => {
    assertEqual(isTextTagStart('a < b', 2, OPENERS), true, '"< b": no marker, slash or spaced opener follows "< "')
    assertEqual(isTextTagStart('a < |', 2, OPENERS), false, '"< " may be a marker with a space')
    assertEqual(isTextTagStart('a < /', 2, OPENERS), false, '"< /" may be a closer')
    assertEqual(isTextTagStart('a < c', 2, OPENERS), false, '"< c" may be V4.1\'s "< calls>" where openers are read')
    assertEqual(isTextTagStart('a < c', 2, NONE), true, 'but text where they are not')
    assertEqual(isTextTagStart('a < <', 2, NONE), false, 'a "<" after "< " makes it a partial tag')
    assertEqual(isTextTagStart('a < ', 2, NONE), false, 'the text ends after "< ": undecided')
    assertEqual(isTextTagStart('<div>', 0, OPENERS), true, '"<d" is text')
    assertEqual(isTextTagStart('<invoke', 0, OPENERS), false, 'a markerless opener where openers are allowed')
    assertEqual(isTextTagStart('<invoke', 0, NONE), true, 'but text where they are not')
    assertEqual(isTextTagStart('<<', 0, NONE), false, 'a "<" before a "<" is a partial tag')
    assertEqual(isTextTagStart('</x', 0, NONE), true, '"</x" is text')
    assertEqual(isTextTagStart('<', 0, NONE), false, 'the text ends: undecided')
  })

  test('start: the chain running up to a point, and nothing when the tag start before it was decided', () => {
    const chains = new PartialTagChains()
    assertEqual(chains.start('ab<<<x', 0, 5, NONE), 2, 'three partial tags reach the x')
    assertEqual(chains.start('ab<<<x', 3, 5, NONE), 3, 'no earlier than from')
    assertEqual(chains.start('a<d<x', 0, 3, NONE), 3, '"<d" was rejected at the d')
    assertEqual(chains.start('<i<i<', 0, 4, OPENERS), 0, '"<i" reads on where openers are allowed')
  })

  test('firstLong: the first chain whose held part passes the cap, at the exact boundary', () => {
    const chains = new PartialTagChains()
    for (const cap of [4, 32, 100]) {
      for (const padding of [0, 1, 17, 200]) {
        const before = 'p'.repeat(padding)
        // `cap + 1` partial tags hold `cap` characters (the last one is decided by the x): not past the cap.
        const atCap = `${before}${'<'.repeat(cap + 1)}x tail`
        assertEqual(chains.firstLong(atCap, 0, atCap.length, NONE, cap), atCap.length, `cap ${cap}, padding ${padding}: at the cap`)
        const pastCap = `${before}${'<'.repeat(cap + 2)}x tail`
        assertEqual(chains.firstLong(pastCap, 0, pastCap.length, NONE, cap), padding, `cap ${cap}, padding ${padding}: past it`)
      }
    }
    const html = '<div><span>a</span></div> '.repeat(50)
    assertEqual(chains.firstLong(html, 0, html.length, ALL_NAMES, 32), html.length, 'HTML holds no chain')
  })

  test('couldHoldMarkup: false for long prose with "<" (the gate), true for a long chain or a markerless opener', () => {
    const prose = 'a < b and Map<string, Set<number>> is typed here; '.repeat(10)
    assertEqual(couldHoldMarkup(prose, 32), false, 'prose')
    assertEqual(couldHoldMarkup(`${prose}${'<'.repeat(40)}x${prose}`, 32), true, 'a chain past the cap')
    assertEqual(couldHoldMarkup(`${prose}${'<'.repeat(40)}x${prose}`, 4096), false, 'the same chain under the default cap')
    assertEqual(couldHoldMarkup(`${prose}<invoke name="x">${prose}`, 4096), true, 'a markerless opener')
    assertEqual(couldHoldMarkup('short <', 4096), true, 'a short text ending in a "<": undecided')
  })

  test('couldHoldMarkup, a short piece of a stream: false when every "<" and bar is text by what follows it; true at a bar that may be a marker\'s, a "<" the piece ends inside, a chain, an opener', () => {
    for (const text of ['a < b and c', 'Map<string> and <div> here', 'x <- y', 'if (a<b) return', '</x> done', '', 'a | b', 'void | Promise<void>', '| a | b', `a ${'\uFF5C'} b`]) {
      assertEqual(couldHoldMarkup(text, 4096), false, JSON.stringify(text))
    }
    for (const text of ['ends with <', 'ends with < ', 'a << b', '<invoke name', '< calls>', `a ${'\uFF5C'} DS`, 'a || b', 'a |DSML', 'ends with |', 'x </', '<function_call']) {
      assertEqual(couldHoldMarkup(text, 4096), true, JSON.stringify(text))
    }
  })

  test('couldHoldMarkup, short pieces (property): a piece it clears, fed to a sanitizer whose engine runs idle, comes out as it is, and the stream reads as the whole text does', () => {
    // Long enough to be searched, with a "<" near its end: the engine is built, and idle after it.
    const before = `${'Some words first, long enough to be searched. '.repeat(6)}a <b> `
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, '<p>', '< b', 'invoke', '|', '>', 'calls', 'DSML'), { maxLength: 48 }), (pieces) => {
        const text = pieces.join('').slice(0, SHORT_TEXT)
        if (couldHoldMarkup(text, 4096)) return
        const options = { knownTools: ['invoke', 'x'] }
        const sanitizer = createDsmlSanitizer(options)
        sanitizer.feed(before)
        assertEqual(sanitizer.heldChars, 0, 'idle before the piece')
        const events = sanitizer.feed(text)
        assertEqual([events.map((event) => (event.type === 'text' ? event.text : event.type)).join(''), sanitizer.heldChars], [text, 0], JSON.stringify(text))
        assertEqual(normalizeEvents(runChunks([before, text, ' end'], options)), normalizeEvents(runChunks([`${before}${text} end`], options)), `${JSON.stringify(text)}: split as whole`)
      }),
      { numRuns: 2000 },
    )
  })

  test('couldHoldMarkup, whole, no tool declared: only a bar that may be a marker\'s opens markup (acceptsMarkerless)', () => {
    const prose = 'long enough to be searched, '.repeat(10)
    const FW = '\uFF5C'
    const markerless = ['<function_calls>\n<invoke name="bash">', '<invoke name="x"><parameter name="a">1</parameter></invoke>', '<function>{"name":"x","arguments":{}}</function>', '< calls>\n']
    for (const leak of markerless) {
      assertEqual(couldHoldMarkup(`${prose}${leak}`, 4096, true), true, `${JSON.stringify(leak)}: a markerless form, where one may be a call`)
      assertEqual(couldHoldMarkup(`${prose}${leak}`, 4096, true, false), false, `${JSON.stringify(leak)}: a markerless form, where none may`)
      assertEqual(couldHoldMarkup(`${prose}${leak}`, 4096, false, false), true, `${JSON.stringify(leak)}: a stream's piece, where a marked tag may still come`)
    }
    const inert = ['type A = B | C | null', '| a | b |\n|---|---|', 'x │ y', `a ${FW} b`, `CJK ${FW} table`, 'a | DSML |', '<b>x</b> | y', 'a |']
    for (const text of inert) assertEqual(couldHoldMarkup(`${prose}${text}`, 4096, true, false), false, `${JSON.stringify(text)}: a bar no marker reads`)
    const marked = [`<${FW}DSML${FW}invoke name="x">`, '< | DSML | tool_calls>', '</ / |DSML|parameter>', '|DSML|invoke>', '||DSML||calls>', `${FW}DSML${FW}invoke`, `${FW} DSML ${FW}invoke`, '<|end_of_sentence|>', 'a || b', '<|', '< | z', `${FW}DSML`, `${FW} DS`]
    for (const text of marked) assertEqual(couldHoldMarkup(`${prose}${text}`, 4096, true, false), true, `${JSON.stringify(text)}: a bar that may be a marker's`)
    assertEqual(acceptsMarkerless(resolveOptions()), false, 'no tool declared')
    assertEqual(acceptsMarkerless(resolveOptions({ knownTools: [] })), false, 'an empty list declares none')
    assertEqual(acceptsMarkerless(resolveOptions({ knownTools: ['bash'] })), true, 'a declared tool')
    assertEqual(acceptsMarkerless(resolveOptions({ tools: [{ name: 'bash' }] })), true, 'a declared tool with a schema')
    assertEqual(acceptsMarkerless(resolveOptions({ knownTools: ['bash'], rescues: { markerlessTags: false } })), false, 'the rescue off')
  })

  test('couldHoldMarkup, whole, no tool declared (property): a text it clears comes out of the engine itself as it is', () => {
    // The engine, fed and ended (not sanitizeText, which asks the same predicate), over markerless forms, bars in and out of markers, and chains.
    const FW = '\uFF5C'
    const pieces = ['<', '</', '< ', 'a', ' ', '\n', '`', '```\n', '|', ' | ', FW, `${FW} `, '│', '‖', 'DSML', '||', '<invoke name="bash">', '<parameter name="command">', '</parameter>', '</invoke>', '<function_calls>', '</function_calls>', '<tool_calls>', '<function>', '{"name":"bash","arguments":{"command":"ls"}}', '< calls>', '<name>bash</name>', '<DSMLinvoke>', 'tool▁sep', '<r=bash>', 'invoke', 'end_of_sentence', '/', '>', '<<']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('')
        if (couldHoldMarkup(text, 4096, true, false)) return
        const sanitizer = createDsmlSanitizer()
        const events = [...sanitizer.feed(text), ...sanitizer.end()]
        assert(events.every((event) => event.type === 'text') && events.map((event) => (event.type === 'text' ? event.text : '')).join('') === text, `cleared whole with no tool declared, but the engine changed it: ${JSON.stringify(text)}`)
      }),
      { numRuns: 5000 },
    )
  })

  test('hold cap: a run of "<" read at once is cut where reading it a character at a time cuts it', () => {
    // The scanner adds a run of `<` as its one-character partial tags at once; the cap must fall where each added in turn puts it.
    for (const options of [{ maxHoldChars: 256 }, {}]) {
      const cap = options.maxHoldChars === undefined ? 4096 : 32
      for (const length of [cap, cap + 1, cap + 2, 2 * cap + 2, 2 * cap + 3, 3 * cap + 7]) {
        for (const [before, after] of [['a ', ' b'], ['a <i', 'x'], ['< ', ''], ['', `${'\uFF5C'}DSML${'\uFF5C'}tool_calls>`]]) {
          const input = `${before}${'<'.repeat(length)}${after}`
          const whole = normalizeEvents(runChunks([input], options))
          assertEqual(normalizeEvents(runChunks([...input], options)), whole, `${JSON.stringify(before)} + ${length} "<" + ${JSON.stringify(after)}: a character at a time`)
          assertEqual(normalizeEvents(runChunks([input.slice(0, 5 + length / 2), input.slice(5 + length / 2)], options)), whole, `${length}: split in the run`)
          assertEqual(reassemble(runChunks([input], options)), input, `${length}: conservation`)
        }
      }
    }
  })

  test('plainPieceUntil (property): the part of a short piece before it is plain by itself, and a stream fed such pieces reads as the whole text', () => {
    // The engine emits that part at once and scans only the rest, as if the piece had been split there.
    const before = `${'Some words first, long enough to be searched. '.repeat(6)}a <b> `
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, '<p>', '< b', '<invoke name="x">', '|', '\uFF5CDSML\uFF5C', '>', 'calls', '</parameter>'), { maxLength: 48 }), (pieces) => {
        const text = pieces.join('').slice(0, SHORT_TEXT)
        const plain = plainPieceUntil(text)
        assertEqual(plainPieceUntil(text.slice(0, plain)), plain, `${JSON.stringify(text)}: the part before ${plain} is plain by itself`)
        const options = { knownTools: ['invoke', 'x'] }
        assertEqual(normalizeEvents(runChunks([before, text, text, ' end'], options)), normalizeEvents(runChunks([`${before}${text}${text} end`], options)), `${JSON.stringify(text)}: fed as pieces, as whole`)
      }),
      { numRuns: 2000 },
    )
  })

  test('stream-text-passthrough (property): chains of partial tags decided alike whole, split, and a character at a time', () => {
    const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 160 }).map((pieces) => pieces.join(''))
    fc.assert(
      fc.property(text, fc.integer({ min: 256, max: 700 }), fc.integer({ min: 1, max: SHORT_TEXT + 8 }), (input, maxHoldChars, size) => {
        const options = { maxHoldChars }
        const whole = normalizeEvents(runChunks([input], options))
        const chunks: string[] = []
        for (let index = 0; index < input.length; index += size) chunks.push(input.slice(index, index + size))
        assertEqual(normalizeEvents(runChunks(chunks, options)), whole, `fed ${size} at a time`)
        assertEqual(normalizeEvents(runChunks([...input], options)), whole, 'a character at a time')
        assertEqual(reassemble(runChunks(chunks, options)), input, 'conservation')
      }),
      { numRuns: 300 },
    )
  })
})
