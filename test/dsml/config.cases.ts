/**
 * Options of the DSML engine (src/dsml/options.ts): defaults, presets,
 * single rescues over a preset, modes, roles, knownTools, native-call
 * de-duplication and option validation. Rows: config-*, parse-flags-off,
 * parse-orphan-off, reject-native-present (seeds/TEST-MATRIX.md), and the
 * modes / roles / known-tools policies of DESIGN.md §5.
 *
 * Reading taken for the rescue matrix: each rescue governs its own shape only.
 * Where two shapes plausibly depend on each other (a markerless invoke is also
 * an invoke without a block; tool-name tags have loose children; a fenced JSON
 * body is also a JSON body), the "others stay on" checks skip that pair.
 */
import { createDsmlSanitizer, parseDsml, resolveDsmlSanitizerOptions, sanitizeText } from '../../src/dsml/index.ts'
import { resolveOptions } from '../../src/dsml/options.ts'
import type { DsmlRescues, DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, codePoints, normalizeEvents, runChunks, textOf } from '../support/chunking.ts'
import { block, close, dialect, invoke, leaksMarkup, marker, open, param } from '../support/dsml-builders.ts'
import { analyse, expectOutcome, kindsOf, type CallShape } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }

type RescueName = keyof Required<DsmlRescues>

interface Shape {
  input: string
  call: CallShape
  /** Markerless: with its rescue off the input comes back unchanged. */
  markerless?: boolean
  /** What its request declares, where the shape needs it (markup with no marker needs a declared tool). */
  declared?: DsmlSanitizerOptions
}

const M = marker()

/** One input per rescue, each needing that rescue (and, by our reading, only it). */
const SHAPES: Record<RescueName, Shape> = {
  orphanInvoke: {
    input: `Reading.\n${invoke('read', [param('path', 'a.txt')])}`,
    call: { name: 'read', arguments: { path: 'a.txt' } },
  },
  looseParameters: {
    input: block([invoke('write', [param('path', 'a.txt', { noCloser: true }) + param('content', 'hi')])]),
    call: { name: 'write', arguments: { path: 'a.txt', content: 'hi' } },
  },
  rawJsonBody: {
    input: block([invoke('write', [], { body: '{"path":"a.txt","content":"hi"}\n' })]),
    call: { name: 'write', arguments: { path: 'a.txt', content: 'hi' } },
  },
  wrappedTool: {
    input: `Fixing.\n\n<parameter name="edit">\n${param('path', 'a.kt')}\n${param('oldString', 'x = 1')}\n${close('invoke')}`,
    call: { name: 'edit', arguments: { path: 'a.kt', oldString: 'x = 1' } },
  },
  markerlessTags: {
    input: '<invoke name="read">\n<parameter name="filePath" string="true">/src/api.ts</parameter>\n</invoke>',
    call: { name: 'read', arguments: { filePath: '/src/api.ts' } },
    markerless: true,
    declared: { knownTools: ['read'] },
  },
  toolNameTag: {
    input: `<${M}web_fetch>\n <url>https://example.test/a</url>\n <budgetTokens>3000</budgetTokens>\n</${M}web_fetch>`,
    call: { name: 'web_fetch', arguments: { url: 'https://example.test/a', budgetTokens: '3000' } },
  },
  unclosedInvoke: {
    input: block([invoke('bash', [param('command', 'ls')], { noCloser: true })]),
    call: { name: 'bash', arguments: { command: 'ls' } },
  },
  fencedJson: {
    input: `Let me read it.\n\n<${M}toolcall>Read\n\n\`\`\`json\n{"file_path":"/tmp/a.js","limit":20}\n\`\`\`\n`,
    call: { name: 'Read', arguments: { file_path: '/tmp/a.js', limit: 20 } },
  },
}

const RESCUES = Object.keys(SHAPES) as RescueName[]

/** Pairs (rescue off → shape) skipped in "others stay on" checks: plausible couplings, see the header. */
const COUPLED: ReadonlyArray<[RescueName, RescueName]> = [
  ['orphanInvoke', 'markerlessTags'],
  ['looseParameters', 'toolNameTag'],
  ['looseParameters', 'wrappedTool'],
  ['rawJsonBody', 'fencedJson'],
  ['markerlessTags', 'wrappedTool'],
]

function coupled(off: RescueName, shape: RescueName): boolean {
  return COUPLED.some(([a, b]) => a === off && b === shape)
}

function allOff(): Record<RescueName, boolean> {
  return Object.fromEntries(RESCUES.map((name) => [name, false])) as Record<RescueName, boolean>
}

/** With the shape's rescue unavailable: no call, markered markup removed, markerless input unchanged. */
function expectNoCall(shape: Shape, options: DsmlSanitizerOptions, label: string): void {
  const outcome = analyse(shape.input, { ...shape.declared, ...options })
  assertEqual(outcome.calls, [], `${label}: calls`)
  if (shape.markerless) assertEqual(outcome.text, shape.input, `${label}: markerless input is released unchanged`)
  else assert(!leaksMarkup(outcome.text), `${label}: markered markup must still be removed, got ${JSON.stringify(outcome.text)}`)
}

function expectCall(shape: Shape, options: DsmlSanitizerOptions, label: string): void {
  const outcome = analyse(shape.input, { ...shape.declared, ...options })
  assertEqual(outcome.calls, [shape.call], `${label}: calls`)
  assert(!leaksMarkup(outcome.text), `${label}: markup leaked into text`)
}

const BASH = { name: 'bash', arguments: { command: 'ls -la' } }
const bashBlock = (): string => block([invoke('bash', [param('command', 'ls -la')])])

export const suite = defineSuite('dsml/config', (test) => {
  test('config-defaults: resolveOptions() gives recover, relaxed (every rescue on), 64 KiB cap, 1024 eager stop', () => {
    const resolved = resolveOptions()
    assertEqual(resolved.mode, 'recover', 'mode')
    assertEqual(resolved.rescues, Object.fromEntries(RESCUES.map((name) => [name, true])), 'rescues')
    assertEqual(resolved.knownTools, undefined, 'knownTools')
    assertEqual(resolved.maxHoldChars, 65_536, 'maxHoldChars')
    assertEqual(resolved.eagerStopChars, 1024, 'eagerStopChars')
    assert(/^call_[A-Za-z0-9]{24}$/.test(resolved.generateId()), 'default id shape')
  })

  test('config-defaults: with no options every rescue shape becomes a call', () => {
    for (const name of RESCUES) expectCall(SHAPES[name], {}, `default options, ${name}`)
  })

  test('config-defaults: default ids are call_ + 24 alphanumerics and unique', () => {
    const input = block([invoke('a', [param('x', '1')]), invoke('b', [param('x', '2')])])
    const { calls } = sanitizeText(input)
    assertEqual(calls.length, 2, 'calls')
    for (const call of calls) assert(/^call_[A-Za-z0-9]{24}$/.test(call.id), `id ${call.id}`)
    assert(calls[0]?.id !== calls[1]?.id, 'ids are unique')
  })

  test('config-defaults: generateId is used for ids', () => {
    let n = 0
    const { calls } = sanitizeText(block([invoke('a', [param('x', '1')]), invoke('b', [param('x', '2')])]), { generateId: () => `id-${++n}` })
    assertEqual(calls.map((call) => call.id), ['id-1', 'id-2'], 'ids')
  })

  test('config-granular: relaxed preset with one rescue off disables only that rescue', () => {
    for (const off of RESCUES) {
      const options: DsmlSanitizerOptions = { rescues: { [off]: false } }
      const resolved = resolveOptions(options)
      for (const name of RESCUES) assertEqual(resolved.rescues[name], name !== off, `resolveOptions: ${off} off, ${name}`)
      expectNoCall(SHAPES[off], options, `${off} off`)
      for (const name of RESCUES) {
        if (name === off || coupled(off, name)) continue
        expectCall(SHAPES[name], options, `${off} off, ${name} stays on`)
      }
    }
  })

  test('config-granular: strict preset with orphanInvoke switched back on', () => {
    const options: DsmlSanitizerOptions = { preset: 'strict', rescues: { orphanInvoke: true } }
    assertEqual(resolveOptions(options).rescues, { ...allOff(), orphanInvoke: true }, 'resolveOptions')
    expectCall(SHAPES.orphanInvoke, options, 'strict + orphanInvoke')
    expectNoCall(SHAPES.looseParameters, options, 'strict + orphanInvoke, looseParameters')
    expectNoCall(SHAPES.rawJsonBody, options, 'strict + orphanInvoke, rawJsonBody')
    expectNoCall(SHAPES.markerlessTags, options, 'strict + orphanInvoke, markerlessTags')
  })

  test('config-layers: strict preset turns every rescue off; each shape gives no call', () => {
    assertEqual(resolveOptions({ preset: 'strict' }).rescues, allOff(), 'resolveOptions')
    for (const name of RESCUES) expectNoCall(SHAPES[name], { preset: 'strict' }, `strict, ${name}`)
  })

  test('config-layers: each rescue off alone disables its shape', () => {
    for (const name of RESCUES) expectNoCall(SHAPES[name], { rescues: { [name]: false } }, `${name} off`)
  })

  // options.ts: looseParameters also covers nameless closers (V11), parameter
  // openers without the marker, and self-closing parameters with the value in
  // an attribute (codex-relay-49). Missing `string` attributes are left out:
  // DESIGN §4 makes "no attribute" the canonical raw-string default.
  test('config-layers: looseParameters off also rejects nameless closers, unmarked parameter openers and value-in-attribute parameters', () => {
    const codex = leaks.find((leak) => leak.id.startsWith('codex-relay-49'))?.input ?? ''
    const shapes = [
      block([invoke('c', [open('parameter', { name: 'alpha', string: 'true' }) + 'A' + `</${M}>`, param('beta', 'B')])]),
      block([invoke('bash', ['<parameter name="command" string="true">ls' + close('parameter')])]),
      codex,
    ]
    for (const options of [{ preset: 'strict' }, { rescues: { looseParameters: false } }] as DsmlSanitizerOptions[]) {
      for (const input of shapes) {
        const outcome = expectOutcome(input, { calls: [], text: '', diagnostics: ['dropped-markup'] }, options)
        assertEqual(outcome.ranges, [[0, input.length]], 'ranges')
      }
    }
  })

  test('config-layers: undefined rescue values keep the preset', () => {
    assertEqual(resolveOptions({ preset: 'strict', rescues: { orphanInvoke: undefined } }).rescues, allOff(), 'strict')
    expectCall(SHAPES.orphanInvoke, { rescues: { orphanInvoke: undefined } }, 'relaxed, orphanInvoke undefined')
  })

  test('parse-flags-off: a complete block still parses with the strict preset and with all rescues off', () => {
    for (const options of [{ preset: 'strict' }, { rescues: allOff() }] as DsmlSanitizerOptions[]) {
      const input = `Listing.\n${bashBlock()}\nDone.`
      expectOutcome(input, { calls: [BASH], text: 'Listing.\n\nDone.' }, options)
    }
  })

  test('parse-flags-off: strict accepts an unclosed markered block with complete invokes, spaced V4.1 tags and doubled bars', () => {
    const v41 = dialect({ tagSpace: true })
    const unclosed = open('tool_calls') + '\n' + invoke('bash', [param('command', 'ls -la')])
    expectOutcome(unclosed, { calls: [BASH], text: '' }, { preset: 'strict' })
    const spaced = v41.block([v41.invoke('bash', [v41.param('command', 'ls -la')])], { name: 'calls' })
    expectOutcome(spaced, { calls: [BASH], text: '' }, { preset: 'strict' })
    const d2 = dialect({ bars: 2 })
    expectOutcome(d2.block([d2.invoke('bash', [d2.param('command', 'ls -la')])]), { calls: [BASH], text: '' }, { preset: 'strict' })
  })

  test('parse-orphan-off: orphan invoke with the strict preset gives no call, markup removed', () => {
    const inv = invoke('edit', [param('path', 'a.kt')])
    const input = `a ${inv} b`
    expectOutcome(input, { calls: [], text: 'a  b', ranges: [[2, 2 + inv.length]] }, { preset: 'strict' })
    expectOutcome(input, { calls: [], text: 'a  b' }, { rescues: { orphanInvoke: false } })
  })

  test('modes: strip gives the same text as recover, no calls, each would-be call reported with its tool', () => {
    const inputs = [
      `Intro ${block([invoke('bash', [param('command', 'ls')]), invoke('read', [param('path', 'a')])])} outro`,
      SHAPES.orphanInvoke.input,
      SHAPES.wrappedTool.input,
      SHAPES.markerlessTags.input,
    ]
    for (const input of inputs) {
      const recovered = analyse(input)
      const stripped = expectOutcome(input, { calls: [] }, { mode: 'strip' })
      assertEqual(stripped.text, recovered.text, 'strip text equals recover text')
      for (const call of recovered.calls) {
        assert(
          stripped.diagnostics.some((d) => d.kind === 'dropped-markup' && d.tool === call.name),
          `strip reports the would-be ${call.name} call as dropped-markup with tool set; got ${JSON.stringify(stripped.diagnostics.map((d) => [d.kind, d.tool]))}`,
        )
      }
      assertEqual(parseDsml(input, { mode: 'strip' }).calls, [], 'parseDsml calls in strip mode')
    }
  })

  test('modes: off passes every input through unchanged, no calls, no diagnostics', () => {
    const inputs = [bashBlock(), SHAPES.orphanInvoke.input, SHAPES.wrappedTool.input, ...leaks.map((leak) => leak.input)]
    for (const input of inputs) {
      const result = sanitizeText(input, { mode: 'off' })
      assertEqual(result, { text: input, calls: [], diagnostics: [] }, 'sanitizeText, mode off')
      const events = normalizeEvents(runChunks(codePoints(input), { mode: 'off' }))
      assertEqual(events, input === '' ? [] : [{ type: 'text', text: input }], 'engine, mode off, one code point at a time')
    }
  })

  test('modes: off holds nothing, every chunk comes straight out', () => {
    const input = `Intro ${bashBlock()} outro <parameter name="x">`
    const sanitizer = createDsmlSanitizer({ mode: 'off' })
    for (const chunk of codePoints(input)) {
      assertEqual(normalizeEvents(sanitizer.feed(chunk)), [{ type: 'text', text: chunk }], `chunk ${JSON.stringify(chunk)}`)
      assertEqual(sanitizer.heldChars, 0, 'heldChars')
    }
    assertEqual(sanitizer.end(), [], 'end()')
  })

  for (const role of ['user', 'tool', 'system'] as const) {
    test(`modes (roles): role ${role} content passes byte for byte`, () => {
      for (const input of [bashBlock(), `a ${bashBlock()} b`, SHAPES.wrappedTool.input, ...leaks.map((leak) => leak.input)]) {
        assertEqual(sanitizeText(input, { role }), { text: input, calls: [], diagnostics: [] }, `sanitizeText, role ${role}`)
        assertEqual(sanitizeText(input, { role, mode: 'recover' }).text, input, `role ${role} wins over mode recover`)
        const events = normalizeEvents(runChunks(codePoints(input), { role }))
        assertEqual(events, [{ type: 'text', text: input }], `engine, role ${role}`)
      }
    })
  }

  test('modes (roles): role assistant is the default and is rewritten', () => {
    expectOutcome(bashBlock(), { calls: [BASH], text: '' }, { role: 'assistant' })
  })

  test('v13-undeclared-tool: knownTools excluding the name removes the call with an unknown-tool diagnostic', () => {
    const b = block([invoke('totally_made_up', [param('x', 'y')])])
    const input = `Trying.\n${b}`
    const outcome = expectOutcome(input, { calls: [], text: 'Trying.\n' }, { knownTools: ['bash', 'read'] })
    const unknown = outcome.diagnostics.filter((d) => d.kind === 'unknown-tool')
    assertEqual(unknown.length, 1, `unknown-tool diagnostics (got ${JSON.stringify(kindsOf(outcome.diagnostics))})`)
    assertEqual(unknown[0]?.tool, 'totally_made_up', 'tool')
    assert((unknown[0]?.text ?? '').includes('totally_made_up'), 'the unknown-tool diagnostic carries the removed invoke')
  })

  test('v13-undeclared-tool: knownTools including the name keeps the call (array or Set)', () => {
    const input = block([invoke('totally_made_up', [param('x', 'y')]), invoke('bash', [param('command', 'ls -la')])])
    for (const knownTools of [['totally_made_up', 'bash'], new Set(['bash', 'totally_made_up'])]) {
      expectOutcome(input, { calls: [{ name: 'totally_made_up', arguments: { x: 'y' } }, BASH], text: '' }, { knownTools })
    }
    expectOutcome(input, { calls: [BASH], text: '', diagnostics: ['unknown-tool'] }, { knownTools: ['bash'] })
  })

  test('v9-orphan-invoke: markerless invoke without string attribute becomes a call when the tool is known', () => {
    const input = '<invoke name="read">\n<parameter name="filePath">/src/api.ts</parameter>\n</invoke>'
    expectOutcome(input, { calls: [{ name: 'read', arguments: { filePath: '/src/api.ts' } }], text: '' }, { knownTools: ['read'] })
    expectOutcome(input, { calls: [], text: input }, { knownTools: ['write'] })
    expectOutcome(input, { calls: [], text: input })
  })

  test('v9-orphan-invoke: markerless invoke with markerlessTags off is released as text even for a known tool', () => {
    const input = SHAPES.markerlessTags.input
    expectOutcome(input, { calls: [], text: input }, { knownTools: ['read'], rescues: { markerlessTags: false } })
  })

  test('reject-native-present: noteNativeToolCall before an identical recovered call removes it (duplicate-call)', () => {
    const b = bashBlock()
    const input = `Listing.\n${b}`
    for (const args of [{ command: 'ls -la' }, '{"command":"ls -la"}', '{ "command" : "ls -la" }']) {
      const sanitizer = createDsmlSanitizer()
      sanitizer.noteNativeToolCall({ name: 'bash', arguments: args })
      const events = [...sanitizer.feed(input), ...sanitizer.end()]
      assertEqual(callsOf(events), [], `calls (native arguments ${JSON.stringify(args)})`)
      assertEqual(textOf(events), 'Listing.\n', 'text')
      const duplicates = events.flatMap((e) => (e.type === 'diagnostic' && e.diagnostic.kind === 'duplicate-call' ? [e.diagnostic] : []))
      assertEqual(duplicates.length, 1, 'one duplicate-call diagnostic')
      assertEqual(duplicates[0]?.tool, 'bash', 'duplicate-call tool')
    }
  })

  test('reject-native-present: key order of the native arguments does not matter', () => {
    const input = block([invoke('write', [param('path', 'a.txt'), param('n', '3', { string: 'false' })])])
    for (const args of [{ n: 3, path: 'a.txt' }, '{"n":3,"path":"a.txt"}']) {
      const sanitizer = createDsmlSanitizer()
      sanitizer.noteNativeToolCall({ name: 'write', arguments: args })
      const events = [...sanitizer.feed(input), ...sanitizer.end()]
      assertEqual(callsOf(events), [], `calls (native ${JSON.stringify(args)})`)
      assert(kindsOf(events.flatMap((e) => (e.type === 'diagnostic' ? [e.diagnostic] : []))).includes('duplicate-call'), 'duplicate-call')
    }
  })

  test('reject-native-present: a different call still recovers', () => {
    const input = block([invoke('bash', [param('command', 'ls -la')]), invoke('bash', [param('command', 'pwd')]), invoke('read', [param('command', 'ls -la')])])
    const sanitizer = createDsmlSanitizer()
    sanitizer.noteNativeToolCall({ name: 'bash', arguments: { command: 'ls -la' } })
    const events = [...sanitizer.feed(input), ...sanitizer.end()]
    assertEqual(
      callsOf(events),
      [
        { name: 'bash', arguments: { command: 'pwd' } },
        { name: 'read', arguments: { command: 'ls -la' } },
      ],
      'calls',
    )
    assertEqual(textOf(events), '', 'text')
  })

  test('reject-native-present: noted mid-stream, before the invoke closes', () => {
    const input = `Listing.\n${bashBlock()}`
    const cut = input.indexOf(`</${M}invoke>`)
    const sanitizer = createDsmlSanitizer()
    const events = [...sanitizer.feed(input.slice(0, cut))]
    sanitizer.noteNativeToolCall({ name: 'bash', arguments: '{"command":"ls -la"}' })
    events.push(...sanitizer.feed(input.slice(cut)), ...sanitizer.end())
    assertEqual(callsOf(events), [], 'calls')
    assertEqual(textOf(events), 'Listing.\n', 'text')
  })

  test('reject-native-present: chunk invariance with a noted native call', () => {
    const input = `Listing.\n${bashBlock()}`
    // assertChunkInvariant creates fresh sanitizers, so check the plain
    // invariance here and the dedupe on every split by hand.
    assertChunkInvariant(input, {}, assertEqual)
    for (let index = 1; index < input.length; index++) {
      const sanitizer = createDsmlSanitizer()
      sanitizer.noteNativeToolCall({ name: 'bash', arguments: { command: 'ls -la' } })
      const events = [...sanitizer.feed(input.slice(0, index)), ...sanitizer.feed(input.slice(index)), ...sanitizer.end()]
      assertEqual(callsOf(events), [], `calls (split at ${index})`)
      assertEqual(textOf(events), 'Listing.\n', `text (split at ${index})`)
    }
  })

  test('options: bad options throw a TypeError from every entry point', () => {
    const bad: unknown[] = [
      null,
      'recover',
      { mode: 'repair' },
      { role: 'admin' },
      { preset: 'lenient' },
      { rescues: { noSuchRescue: true } },
      { maxHoldChars: 10 },
      { maxHoldChars: 255 },
      { maxHoldChars: 100.5 },
      { maxHoldChars: '65536' },
      { eagerStopChars: 0 },
      { eagerStopChars: -5 },
      { generateId: 'call_1' },
    ]
    for (const options of bad) {
      const o = options as DsmlSanitizerOptions
      assertThrows(() => createDsmlSanitizer(o), TypeError)
      assertThrows(() => sanitizeText('hello', o), TypeError)
      assertThrows(() => parseDsml('hello', o), TypeError)
    }
  })

  test('options: resolved once (resolveDsmlSanitizerOptions), then accepted as they are by every entry point', () => {
    const resolved = resolveDsmlSanitizerOptions({ knownTools: ['bash'], maxHoldChars: 4096 })
    assert(Object.isFrozen(resolved), 'resolved options are frozen')
    assertEqual(resolveDsmlSanitizerOptions(resolved), resolved, 'resolving resolved options gives them back')
    // Opaque to users; the engine's own reading (resolveOptions) shows how the cap was shared out.
    const shares = resolveOptions(resolved)
    assertEqual(shares.maxTagChars + shares.maxPendingChars + shares.eagerStopChars + shares.maxMarkupChars, 4096, 'maxHoldChars is shared out whole')
    const input = `a ${bashBlock()} b ${block([invoke('read', [param('path', 'x')])])}`
    const result = sanitizeText(input, resolved)
    assertEqual(result.text, 'a  b ', 'sanitizeText(resolved): text')
    assertEqual(result.calls.map((call) => call.name), ['bash'], 'sanitizeText(resolved): calls')
    assert(kindsOf(result.diagnostics).includes('unknown-tool'), 'knownTools applied')
    const sanitizer = createDsmlSanitizer(resolved)
    assertEqual(callsOf([...sanitizer.feed(input), ...sanitizer.end()]), [BASH], 'createDsmlSanitizer(resolved)')
    const spread = resolveOptions(resolveDsmlSanitizerOptions({ ...resolved, maxHoldChars: 300 }))
    assertEqual(spread.maxTagChars + spread.maxPendingChars + spread.eagerStopChars + spread.maxMarkupChars, 300, 'options spread from resolved ones are resolved again')
  })

  test('options: minimal legal values are accepted', () => {
    const input = `a ${bashBlock()} b`
    expectOutcome(input, { calls: [BASH], text: 'a  b' }, { maxHoldChars: 4096 })
    expectOutcome(input, { calls: [BASH], text: 'a  b' }, { rescues: {} })
    expectOutcome('plain text', { calls: [], text: 'plain text' }, { maxHoldChars: 256, eagerStopChars: 1 })
  })

  test('v13-undeclared-tool: an empty knownTools list allows no tool', () => {
    const input = `a ${bashBlock()} b`
    expectOutcome(input, { calls: [], text: 'a  b', diagnostics: ['unknown-tool'] }, { knownTools: [] })
  })

  test('config-layers: chunk invariance holds under strict preset and strip mode', () => {
    for (const options of [{ preset: 'strict' }, { mode: 'strip' }] as DsmlSanitizerOptions[]) {
      for (const name of RESCUES) assertChunkInvariant(SHAPES[name].input, options, assertEqual)
    }
  })
})
