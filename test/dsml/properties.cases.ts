/**
 * Properties of the engine (DESIGN.md §7), checked with fast-check over a
 * grammar alphabet: the pieces DSML is made of, plus the characters that
 * confuse naive scanners (bars of every kind, quotes, backticks, astral
 * characters). Marker bytes are built here at runtime, never written literally.
 */
import fc from 'fast-check'
import { containsDsmlSentinel, createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import { MAX_MARKER_SPACES } from '../../src/dsml/grammar.ts'
import { SHORT_TEXT } from '../../src/dsml/markup-starts.ts'
import { resolveOptions } from '../../src/dsml/options.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { normalizeEvents, reassemble, runChunks, textOf } from '../support/chunking.ts'
import { outsideCode } from '../support/code-text.ts'
import { defineSuite } from '../support/harness.ts'
import { propertyRuns } from '../support/runs.ts'

const FULLWIDTH = '\uFF5C'
const WORD = 'DSML'
const MARKER = `${FULLWIDTH}${WORD}${FULLWIDTH}`
const EOS = `<${FULLWIDTH}end\u2581of\u2581sentence${FULLWIDTH}>`

/** Grammar alphabet: whole tags, their pieces, and confusers. */
const TOKENS: readonly string[] = [
  '<', '</', '/', '>', '/>', '=', '"', "'", ' ', '  ', '\n', '\t', '`', '```', '````',
  '|', FULLWIDTH, '\u2016', '\u2502', WORD, 'D', 'SM', 'L',
  MARKER, `${FULLWIDTH}${FULLWIDTH}${WORD}${FULLWIDTH}${FULLWIDTH}`, `|${WORD}|`, ` | ${WORD} | `,
  'tool_calls', ' calls', 'function_calls', 'invoke', 'inv', 'parameter', 'param', 'tool',
  'name="', 'name="bash"', ' name="x"', 'string="true"', 'string="false"', ' string="false"',
  `<${MARKER}tool_calls>`, `</${MARKER}tool_calls>`, `<${MARKER} calls>`, `</${MARKER} calls>`,
  `<${MARKER}invoke name="bash">`, `</${MARKER}invoke>`, `</${MARKER}inv>`, `</${MARKER}>`,
  `<${MARKER}parameter name="cmd" string="true">`, `<${MARKER}parameter name="n" string="false">`, `</${MARKER}parameter>`,
  '<invoke name="read">', '</invoke>', '<parameter name="edit">', '<parameter name="p" string="true">', '</parameter>',
  EOS, `<${FULLWIDTH}end of sentence${FULLWIDTH}>`,
  'ls -la', 'x', 'hello world', '{"a":1}', '&amp;', '&lt;', '\u{1F600}', '\u00e9', 'a < b',
  // partial markers that removed markup could join, fences and list lines
  `<${FULLWIDTH}DS`, `ML${FULLWIDTH}tool_calls>`, `${FULLWIDTH}DS`, `<${FULLWIDTH}`, '<<', '~~~', '\n```\n', '\n~~~~\n', '- ', '> ', '1. ', '    ',
  // the wild families: `< /` closers, doubled bars with spaces, mixed bar counts
  '< /', '< / ', `< / | ${WORD} | parameter>`, `< / | ${WORD} | invoke>`, ' | | ', `< | | ${WORD} | | calls>`, `</ | | ${WORD} | | calls>`,
  `<${FULLWIDTH}${FULLWIDTH}${WORD}${FULLWIDTH} parameter name="p" string="true">`, `${FULLWIDTH} ${FULLWIDTH}`,
  // pre-DSML special tokens
  `<${FULLWIDTH}tool\u2581calls\u2581begin${FULLWIDTH}>`, `<${FULLWIDTH}tool\u2581call\u2581begin${FULLWIDTH}>`, `<${FULLWIDTH}tool\u2581sep${FULLWIDTH}>`,
  `<${FULLWIDTH}tool\u2581call\u2581end${FULLWIDTH}>`, `<${FULLWIDTH}tool\u2581calls\u2581end${FULLWIDTH}>`, '<|tool_sep|>', '< | tool_call_end | >',
  'function', '{"command": "ls"}', '```json\n',
  // JSON in a tag, and names carried around the arguments
  '<tool_call name="bash">', '</tool_call>', '<function_call>', '</function_call>', '<function>', '</function>',
  '{"name": "bash", "arguments": {"command": "ls"}}', '<name>bash</name>', '<parameter name="name">bash',
  `<${MARKER}ToolCall>`, `<${MARKER}ToolName>`, `</${MARKER}ToolName>`,
  // issue 21: drift read by shape inside a block, fragments that lost their <, the compact form, tool-name fields, code spans
  `</ / | ${WORD} | | parameter>`, `< / ${MARKER} invoke>`, `<${MARKER}/invoke>`, '</|EPSE|parameter>', '<|EPSE|invoke name="bash">', '<|X|', 'EPSE',
  `<${WORD}invoke name="bash">`, `</${WORD}parameter>`, `${FULLWIDTH}${WORD} ${FULLWIDTH}invoke name="x">`, `${FULLWIDTH}${WORD}tool_use>`, `\u2016 ${WORD}`,
  `| ${WORD} |`, `|${WORD} |invoke>`, `${FULLWIDTH} `, `<${FULLWIDTH}${FULLWIDTH}${WORD}${FULLWIDTH}${FULLWIDTH}r=bash>`, `<${MARKER}m>`, `</${MARKER}m>`, `</${MARKER}r>`,
  `<${MARKER}execute_command>`, `<${MARKER}command>`, '<timeout>600</timeout>', '<![CDATA[', ']]>', '1e999', '< calls>', '<calls>',
  '\\', '\\`', '`x`', '``', ' `', '\n\n', '# ',
]

/** A smaller alphabet where backtick runs meet tags and fragments often (the code-span gate's cases). */
const CODE_SPAN_TOKENS: readonly string[] = [
  '`', '``', '```', ' ', 'x', '\n', '\n\n', '- ', '<calls>', '< calls>', `<${MARKER}invoke name="bash">`, `</${MARKER}invoke>`,
  `${FULLWIDTH}${WORD}`, `${FULLWIDTH}${WORD}${FULLWIDTH}`, `\u2016 ${WORD}`, `<${FULLWIDTH}DS`, 'tool_calls>', '<invoke name="read">', '</invoke>',
]

const textArbitrary = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((tokens) => tokens.join(''))

/** Split points for a text: sorted distinct offsets inside it. */
function chunksAt(text: string, cuts: number[]): string[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b)
  const chunks: string[] = []
  let previous = 0
  for (const offset of offsets) {
    chunks.push(text.slice(previous, offset))
    previous = offset
  }
  chunks.push(text.slice(previous))
  return chunks
}

/**
 * The marker oracle: a sentinel the lexer reads (`containsDsmlSentinel`), or,
 * read independently of it, a fragment that lost its `<`: a full-width or `‖`
 * bar next to the word, with any spacing a marker may have between them (up
 * to `MAX_MARKER_SPACES` spaces or tabs: deciding a longer gap would mean
 * holding past it, and every hold has a cap) (issue 21).
 */
const FRAGMENT = new RegExp(`[\\uFF5C\\u2016][ \\t]{0,${MAX_MARKER_SPACES}}DSML`)
function holdsMarker(text: string): boolean {
  return containsDsmlSentinel(text) || FRAGMENT.test(text)
}

/** Every preset and mode, and caps down to the smallest allowed. */
const optionsArbitrary: fc.Arbitrary<DsmlSanitizerOptions> = fc.record({
  preset: fc.constantFrom<'relaxed' | 'strict'>('relaxed', 'strict'),
  mode: fc.constantFrom<'recover' | 'strip'>('recover', 'strip'),
  maxHoldChars: fc.constantFrom(256, 257, 300, 320, 511, 4096, 65_536),
  eagerStopChars: fc.constantFrom(1, 2, 7, 32, 1024),
  // Declared tools: none, names only, or with schemas (markerless forms, coercion, required arguments).
  tools: fc.constantFrom<DsmlSanitizerOptions['tools']>(undefined, [{ name: 'bash' }, { name: 'read' }], [
    { name: 'bash', parameters: { type: 'object', properties: { command: { type: 'string' }, n: { type: 'integer' } }, required: ['command'] } },
    { name: 'x', parameters: { type: 'object', properties: {} } },
  ]),
})

/**
 * Grammar tokens with a run of plain characters as long as the tag limit, give
 * or take: where a tag being read reaches the limit (issue 8's counterexample).
 */
const paddedArbitrary = optionsArbitrary.chain((options) => {
  const limit = resolveOptions(options).maxTagChars
  return fc.record({
    options: fc.constant(options),
    text: fc
      .tuple(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }),
        fc.integer({ min: Math.max(0, limit - 48), max: limit + 8 }),
        fc.constantFrom('x', ' ', "'", '"'),
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }),
      )
      .map(([before, pad, unit, after]) => before.join('') + unit.repeat(pad) + after.join('')),
  })
})

/**
 * Grammar tokens after a run of prose longer than `SHORT_TEXT`: fed whole,
 * the engine reads such a text by its long path (`PlainStretch` searches it);
 * fed in short pieces, by its short one (each piece read one tag start at a
 * time). The two must agree (the code-span gate's held runs once judged a
 * run at the text's end differently from the gate itself). The tokens lean
 * to backtick runs, and the text may end in one: where a run is judged at
 * the end of the text. With that fix undone, the test failed in 4 of 60
 * runs with the tokens drawn evenly and 400 cases, in 14 of 60 with these
 * tokens and 400 cases, and in 33 of 60 with these tokens and 1,000 cases.
 */
const BACKTICK_RUNS = ['`', '``', '```'] as const
const longPathArbitrary = fc
  .tuple(
    fc.integer({ min: 0, max: 40 }),
    fc.constantFrom('x', ' ', '`', 'a\n'),
    fc.oneof(
      { arbitrary: fc.array(fc.constantFrom(...TOKENS), { maxLength: 16 }), weight: 1 },
      { arbitrary: fc.array(fc.oneof({ arbitrary: fc.constantFrom(...BACKTICK_RUNS), weight: 1 }, { arbitrary: fc.constantFrom(...CODE_SPAN_TOKENS), weight: 2 }), { maxLength: 10 }), weight: 3 },
    ),
    fc.constantFrom('', ...BACKTICK_RUNS),
  )
  .map(([extra, unit, tokens, end]) => unit.repeat(SHORT_TEXT + extra) + tokens.join('') + end)

const RUNS = 400
/** The long-path property runs more cases: what it looks for is rarer than its texts (see `longPathArbitrary`). */
const LONG_PATH_RUNS = 1000

export const suite = defineSuite('dsml/properties', (test) => {
  test('property no-throw and conservation: text + call sources + dropped text === input', () => {
    fc.assert(
      fc.property(textArbitrary, optionsArbitrary, (text, options) => {
        assertEqual(reassemble(runChunks([text], options)), text)
      }),
      { numRuns: propertyRuns(RUNS) },
    )
  })

  test('property chunk invariance: any split gives the same events (adjacent text merged)', () => {
    fc.assert(
      fc.property(textArbitrary, fc.array(fc.nat(), { maxLength: 8 }), optionsArbitrary, (text, cuts, options) => {
        const whole = normalizeEvents(runChunks([text], options))
        const split = normalizeEvents(runChunks(chunksAt(text, cuts), options))
        assertEqual(split, whole)
      }),
      { numRuns: propertyRuns(RUNS) },
    )
  })

  test('property chunk invariance: a long text read whole (long path) equals it fed in short pieces (short path)', () => {
    fc.assert(
      fc.property(longPathArbitrary, fc.integer({ min: 1, max: 9 }), optionsArbitrary, (text, size, options) => {
        const pieces: string[] = []
        for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size))
        assertEqual(normalizeEvents(runChunks(pieces, options)), normalizeEvents(runChunks([text], options)))
      }),
      { numRuns: propertyRuns(LONG_PATH_RUNS) },
    )
  })

  test('property chunk invariance: one UTF-16 unit at a time equals whole', () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        assertEqual(normalizeEvents(runChunks(text.split(''))), normalizeEvents(runChunks([text])))
      }),
      { numRuns: propertyRuns(200) },
    )
  })

  test('property no marker (sentinel or fragment) in output text outside code (fences, code spans)', () => {
    fc.assert(
      fc.property(textArbitrary, optionsArbitrary, (text, options) => {
        const output = textOf(runChunks([text], options))
        assert(!holdsMarker(outsideCode(output)), `marker in output ${JSON.stringify(output)}`)
      }),
      { numRuns: propertyRuns(RUNS) },
    )
  })

  test('property no marker in output text outside code, with a tag reaching the tag limit (any caps)', () => {
    fc.assert(
      fc.property(paddedArbitrary, fc.array(fc.nat(), { maxLength: 4 }), ({ options, text }, cuts) => {
        const whole = runChunks([text], options)
        assertEqual(reassemble(whole), text, 'conservation')
        const output = textOf(whole)
        assert(!holdsMarker(outsideCode(output)), `marker in output ${JSON.stringify(output.slice(0, 200))}`)
        assertEqual(normalizeEvents(runChunks(chunksAt(text, cuts), options)), normalizeEvents(whole), 'chunk invariance')
      }),
      { numRuns: propertyRuns(Math.max(100, Math.floor(RUNS / 2))) },
    )
  })

  test('property hold never above maxHoldChars, after every chunk', () => {
    fc.assert(
      fc.property(
        textArbitrary,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom(256, 257, 300, 400),
        fc.constantFrom(1, 7, 1024),
        (text, cuts, maxHoldChars, eagerStopChars) => {
          const sanitizer = createDsmlSanitizer({ maxHoldChars, eagerStopChars })
          const events = []
          for (const chunk of chunksAt(text.repeat(3), cuts)) {
            events.push(...sanitizer.feed(chunk))
            assert(sanitizer.heldChars <= maxHoldChars, `held ${sanitizer.heldChars} > ${maxHoldChars}`)
          }
          events.push(...sanitizer.end())
          assertEqual(sanitizer.heldChars, 0)
          assertEqual(reassemble(events), text.repeat(3))
        },
      ),
      { numRuns: propertyRuns(RUNS) },
    )
  })

  test('property plain prose (no "<", no bar) is never held and passes unchanged', () => {
    const prose = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '.', 'é', '\u{1F600}', '>', '`', 'D', 'DSML') })
    fc.assert(
      fc.property(fc.array(prose, { maxLength: 6 }), (chunks) => {
        const sanitizer = createDsmlSanitizer()
        let out = ''
        for (const chunk of chunks) {
          out += textOf(sanitizer.feed(chunk))
          assertEqual(sanitizer.heldChars, 0)
        }
        out += textOf(sanitizer.end())
        assertEqual(out, chunks.join(''))
      }),
      { numRuns: propertyRuns(200) },
    )
  })

  test('property mode off and role user pass text through byte for byte', () => {
    fc.assert(
      fc.property(textArbitrary, fc.constantFrom<DsmlSanitizerOptions>({ mode: 'off' }, { role: 'user' }, { role: 'tool' }), (text, options) => {
        const result = sanitizeText(text, options)
        assertEqual(result.text, text)
        assertEqual(result.calls.length, 0)
      }),
      { numRuns: propertyRuns(200) },
    )
  })

  test('property strip mode gives the same text as recover mode, and no calls', () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        const recovered = sanitizeText(text)
        const stripped = sanitizeText(text, { mode: 'strip' })
        assertEqual(stripped.text, recovered.text)
        assertEqual(stripped.calls.length, 0)
      }),
      { numRuns: propertyRuns(RUNS) },
    )
  })
})
