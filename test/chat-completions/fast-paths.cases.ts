/**
 * The fused repair's shortcuts (src/chat-completions/repair.ts) against the
 * chain without them, on every fixture and on generated odd streams, read in
 * many ways:
 *
 * - a read of whole plain events is forwarded as it came (the stream passes
 *   the same bytes on), a plain chunk is forwarded without being parsed, a
 *   chunk shaped like the last plain one is read and written without
 *   parsing it whole;
 * - the reference is the same core with every shortcut off: every message
 *   decoded, every chunk parsed, the SSE text fed in pieces too short to be
 *   a whole event, the bytes decoded in one go; each shortcut is also turned
 *   off on its own (the bench's ablation), which must change nothing;
 *   independently, the fused stream is compared with the six composed
 *   stages;
 * - compared: the repaired text, every diagnostic (in order), the fused
 *   stream's bytes, and (on a sample) the six composed stages' bytes.
 *
 * Generated streams mix what real upstreams send and what they should not:
 * keep-alive comments, CRLF and CR line endings, `data:` without a space,
 * multi-line data, id / event / retry fields, `event: error`, a BOM, `\u`
 * escapes (an escaped `<` or backtick), `null` usage / tool_calls /
 * reasoning_content, nested `content` keys, duplicate keys, malformed JSON,
 * invalid UTF-8, characters cut across reads, DSML markup and code fences
 * split across chunks. Marker bytes are built at run time from escapes.
 */
import fc from 'fast-check'
import { generateCallId } from '../../src/dsml/index.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { decodeChatCompletionsMessage } from '../../src/chat-completions/decoder.ts'
import { createChatCompletionsDecoderCore } from '../../src/chat-completions/decoder.ts'
import { createChatCompletionsEncoderCore } from '../../src/chat-completions/encoder.ts'
import { createChatCompletionsRepairCore, type ChatCompletionsRepairOptions } from '../../src/chat-completions/repair.ts'
import type { DialectDecoder } from '../../src/dialect-kit/dialect-hooks.ts'
import { ALL_SHORTCUTS, createDialectRepair, type DialectShortcuts, NO_SHORTCUTS } from '../../src/dialect-kit/dialect-repair.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import {
  bytesEqual,
  composedBytes,
  counterIds,
  cutAt,
  ENVELOPE,
  firstDifference,
  fromUtf8,
  fusedBytes,
  loadSseFixture,
  randomCuts,
  utf8,
} from './support.ts'
import { propertyRuns } from '../support/runs.ts'

const BAR = '\uFF5C'
const MARKER = `${BAR}DSML${BAR}`

interface Run {
  output: string
  diagnostics: Diagnostic[]
  /** Reads the core forwarded as they came. */
  unchanged: number
  error?: unknown
}

/** The fused core (every shortcut on, unless told) over `reads`. */
function fused(reads: readonly (string | Uint8Array)[], options: ChatCompletionsRepairOptions = {}, shortcuts: DialectShortcuts = ALL_SHORTCUTS): Run {
  const diagnostics: Diagnostic[] = []
  const core = createChatCompletionsRepairCore({ generateId: counterIds(), ...options, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) }, shortcuts)
  let output = ''
  let unchanged = 0
  try {
    for (const read of reads) {
      const out = core.feed(read)
      if (out === undefined) {
        unchanged++
        output += core.text()
        if (typeof read === 'string') assertEqual(core.text(), read, 'an unchanged string read is the read itself')
        else assertEqual(core.text(), new TextDecoder().decode(read), 'an unchanged byte read is valid UTF-8, whole')
      } else {
        output += out
      }
    }
    output += core.end()
  } catch (error) {
    return { output, diagnostics, unchanged, error }
  }
  return { output, diagnostics, unchanged }
}

/** Each shortcut off on its own (the bench's ablation table): the others must not lean on it. */
const ABLATIONS: Array<[string, DialectShortcuts]> = [
  ['no plain chunks', { ...ALL_SHORTCUTS, plainMessages: false }],
  ['no shaped chunks', { ...ALL_SHORTCUTS, shapedMessages: false }],
  ['no passed texts', { ...ALL_SHORTCUTS, passedTexts: false }],
  ['no whole-event reads', { ...ALL_SHORTCUTS, wholeEvents: false }],
]

/** How the fused core took a chunk: as it came (not decoded), shaped (read without `JSON.parse`), or decoded. */
type Taken = 'as it came' | 'shaped' | 'decoded'

/**
 * How the fused core takes the chunk `data` right after the plain chunk
 * `base` (after a lead-in chunk: `base` is read mid-line), one event per
 * read, with nothing held; and the content it read
 * without parsing, when shaped. The decoder is watched: which of its hooks
 * the core called says how.
 */
function takenAfter(base: string, data: string): { found: Taken; content?: string } {
  const decoder = createChatCompletionsDecoderCore()
  let found: Taken = 'as it came'
  let content: string | undefined
  const watched: DialectDecoder = {
    feed: (message) => ((found = 'decoded'), decoder.feed(message)),
    plainSpan: (message) => decoder.plainSpan!(message),
    shapedParts: (message, text, shape, counter) => ((found = 'shaped'), (content = text), decoder.shapedParts!(message, text, shape, counter)),
  }
  const core = createDialectRepair(watched, createChatCompletionsEncoderCore(), {}, {})
  // The first text is read at a line start, where the sanitizer is not idle: a lead-in chunk takes it.
  core.feed(LEAD_IN)
  found = 'as it came'
  assertEqual(core.feed(`data: ${base}\n\n`), undefined, `the base chunk goes by as it came: ${base}`)
  assertEqual(found, 'as it came', `the base chunk is plain: ${base}`)
  core.feed(`data: ${data}\n\n`)
  return { found, content }
}

const LEAD_IN = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'lead' }, finish_reason: null }] })}\n\n`

/** Does the core without shortcuts write the chunk `data`, read as `takenAfter` reads it (after the lead-in and `base`), as it came? */
function referenceKeeps(base: string, data: string): boolean {
  const core = createChatCompletionsRepairCore({}, NO_SHORTCUTS)
  core.feed(LEAD_IN)
  core.feed(`data: ${base}\n\n`)
  const event = `data: ${data}\n\n`
  const out = core.feed(event)
  return out === undefined || out === event
}

/** The reads (by index) the fused core decoded a message of, or read one without parsing; the others went by as they came. */
function decodedReads(reads: readonly (string | Uint8Array)[]): number[] {
  const decoder = createChatCompletionsDecoderCore()
  let read = false
  const watched: DialectDecoder = {
    feed: (message) => ((read = true), decoder.feed(message)),
    plainSpan: (message) => decoder.plainSpan!(message),
    shapedParts: (message, text, shape, counter) => ((read = true), decoder.shapedParts!(message, text, shape, counter)),
  }
  const core = createDialectRepair(watched, createChatCompletionsEncoderCore(), { generateId: counterIds() }, {})
  const decoded: number[] = []
  reads.forEach((chunk, index) => {
    read = false
    core.feed(chunk)
    if (read) decoded.push(index)
  })
  core.end()
  return decoded
}

/** The core without shortcuts: every message decoded and parsed; the SSE text fed 7 characters at a time. */
function reference(input: string | Uint8Array, options: ChatCompletionsRepairOptions = {}): Run {
  const diagnostics: Diagnostic[] = []
  const core = createChatCompletionsRepairCore({ generateId: counterIds(), ...options, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) }, NO_SHORTCUTS)
  let output = ''
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8', { ignoreBOM: true }).decode(input)
  try {
    for (let at = 0; at < text.length; at += 7) {
      const piece = text.slice(at, at + 7)
      output += core.feed(piece) ?? piece
    }
    output += core.end()
  } catch (error) {
    return { output, diagnostics, unchanged: 0, error }
  }
  return { output, diagnostics, unchanged: 0 }
}

function checkSame(actual: Run, expected: Run, label: string): void {
  assertEqual(actual.error === undefined, expected.error === undefined, `${label}: both fail or neither (${String(actual.error ?? expected.error)})`)
  if (actual.error !== undefined) {
    assertEqual((actual.error as Error).name, (expected.error as Error).name, `${label}: the same error`)
    return
  }
  if (actual.output !== expected.output) assertEqual(actual.output, expected.output, `${label}: repaired text`)
  assertEqual(actual.diagnostics, expected.diagnostics, `${label}: diagnostics`)
}

/** One read per SSE event (blank-line separated, any line ending), as the pipeline benchmark feeds them. */
function perEvent(bytes: Uint8Array): Uint8Array[] {
  const reads: Uint8Array[] = []
  let start = 0
  for (let index = 0; index < bytes.length; index++) {
    if (bytes[index] !== 0x0a) continue
    const previous = bytes[index - 1]
    const isBlankEnd = previous === 0x0a || (previous === 0x0d && bytes[index - 2] === 0x0a)
    if (isBlankEnd) {
      reads.push(bytes.subarray(start, index + 1))
      start = index + 1
    }
  }
  if (start < bytes.length) reads.push(bytes.subarray(start))
  return reads
}

/** Groups of `size` consecutive reads joined (several events per read). */
function grouped(reads: readonly Uint8Array[], size: number): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let index = 0; index < reads.length; index += size) {
    const group = reads.slice(index, index + size)
    const joined = new Uint8Array(group.reduce((sum, read) => sum + read.length, 0))
    let at = 0
    for (const read of group) {
      joined.set(read, at)
      at += read.length
    }
    out.push(joined)
  }
  return out
}

/** Ways to read a stream: whole, one event per read, several, random cuts (through characters too). */
function readings(bytes: Uint8Array, seed: number): Array<[string, Uint8Array[]]> {
  const events = perEvent(bytes)
  return [
    ['whole', [bytes]],
    ['one event per read', events],
    ['two events per read', grouped(events, 2)],
    ['three events per read', grouped(events, 3)],
    [`random reads of 1-9 bytes (seed ${seed})`, cutAt(bytes, randomCuts(bytes.length, seed, 9))],
    [`random reads of 1-300 bytes (seed ${seed})`, cutAt(bytes, randomCuts(bytes.length, seed + 1, 300))],
  ]
}

// ---------------------------------------------------------------- generated streams

const CONTENT_TOKENS: readonly string[] = [
  ' the', ' value', ' x', 'ok', ' ', '\n', '\n\n', '\t', '"', '\\', '/', "'", 'é', '\u{1F600}', '\uFFFD', '\u0001', '\u2028',
  '<', '</', '>', ' < ', 'a<b', '|', '||', BAR, '\u2016', '\u2502', '`', '``', '```', 'DSML', 'tool_calls', '"usage"', 'error',
  `<${MARKER}tool_calls>`, `</${MARKER}tool_calls>`, `<${MARKER}invoke name="bash">`, `</${MARKER}invoke>`,
  `<${MARKER}parameter name="command" string="true">`, 'ls -la', `</${MARKER}parameter>`, `\n\n<${MARKER}tool_calls>\n`,
  '<invoke name="read">', '</invoke>', '<parameter name="path" string="true">', '</parameter>',
]

const contentArbitrary = fc.array(fc.constantFrom(...CONTENT_TOKENS), { maxLength: 6 }).map((tokens) => tokens.join(''))

type EventSpec =
  | { kind: 'content'; text: string; style: number }
  | { kind: 'reasoning'; text: string; style: number }
  | { kind: 'role'; style: number }
  | { kind: 'finish'; reason: string; style: number }
  | { kind: 'usage'; style: number }
  | { kind: 'native'; style: number }
  | { kind: 'raw'; data: string }
  | { kind: 'done' }
  | { kind: 'comment'; text: string }

const eventArbitrary: fc.Arbitrary<EventSpec> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('content' as const), text: contentArbitrary, style: fc.nat(255) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reasoning' as const), text: contentArbitrary, style: fc.nat(255) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('role' as const), style: fc.nat(255) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('finish' as const), reason: fc.constantFrom('stop', 'length', 'tool_calls'), style: fc.nat(255) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('usage' as const), style: fc.nat(255) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('native' as const), style: fc.nat(255) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      data: fc.constantFrom(
        '{"choices":[{"index":0,"delta":{"content":"half',
        '{"not":"a chat chunk"}',
        '[1,2,3]',
        '{"error":{"message":"overloaded"}}',
        '{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"choices":{"no":1}}',
        '{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]} trailing',
        '{"choices":[{"index":0,"delta":{"content":"x\\u003c"},"finish_reason":null}]}',
        '{"choices":[{"index":0,"delta":{"content":"bad \\x escape"},"finish_reason":null}]}',
        '{"choices":[{"index":0,"delta":{"content":"01"},"finish_reason":null,"n":01}]}',
        '{"choices":[{"index":1,"delta":{"content":"other choice"},"finish_reason":null}]}',
        '{"choices":[],"x":{"content":"nested"}}',
        '{"cho\\u0069ces":[{"index":0,"delta":{"content":"escaped key"},"finish_reason":null}]}',
        '{"choices":[{"index":0,"delta":{"tool\\u005fcalls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}',
        '{"choices":[{"index":0,"delta":{"content":"num"},"finish_reason":null,"v":[1.5e3,-0,0.25,1E-2,{},[]]}]}',
        '',
        '[DONE]',
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'done' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('comment' as const), text: fc.constantFrom('keep-alive', '', ' spaced', 'ping') }) },
)

/** A chunk object for `spec`, in one of several shapes (style bits). */
function chunkObject(delta: Record<string, unknown>, finish: string | null, style: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const choice: Record<string, unknown> = style & 1 ? { index: 0, delta, finish_reason: finish, logprobs: null } : { index: 0, delta, logprobs: null, finish_reason: finish }
  const chunk: Record<string, unknown> = style & 2 ? { choices: [choice], ...ENVELOPE } : { ...ENVELOPE, choices: [choice] }
  if (style & 4) chunk.usage = null
  if (style & 8) chunk.meta = { content: 'nested', finish_reason: null }
  return { ...chunk, ...extra }
}

/** JSON text for `value`, compact or with spaces, `<` and backticks sometimes `\u`-escaped. */
function json(value: unknown, style: number): string {
  let text = JSON.stringify(value)
  if (style & 16) text = JSON.stringify(value, null, 1).replace(/\n */g, (match) => (style & 32 ? ' ' : match))
  if (style & 64) text = text.replace(/</g, '\\u003c').replace(/`/g, '\\u0060')
  return text
}

function eventData(spec: EventSpec, streamStyle: number | undefined): string | undefined {
  if (streamStyle !== undefined && 'style' in spec) spec = { ...spec, style: streamStyle }
  switch (spec.kind) {
    case 'content':
      return json(chunkObject(spec.style & 128 ? { content: spec.text, reasoning_content: null } : { content: spec.text }, null, spec.style), spec.style)
    case 'reasoning':
      return json(chunkObject({ content: null, reasoning_content: spec.text }, null, spec.style), spec.style)
    case 'role':
      return json(chunkObject({ role: 'assistant', content: '' }, null, spec.style), spec.style)
    case 'finish':
      return json(chunkObject({ content: '' }, spec.reason, spec.style), spec.style)
    case 'usage':
      return json({ ...ENVELOPE, choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } }, spec.style)
    case 'native':
      return json(
        chunkObject({ tool_calls: spec.style & 1 ? null : [{ index: 0, id: 'call_native', type: 'function', function: { name: 'bash', arguments: '{}' } }] }, null, spec.style),
        spec.style,
      )
    case 'raw':
      return spec.data
    case 'done':
      return '[DONE]'
    case 'comment':
      return undefined
  }
}

interface Framing {
  /** One chunk style for every event (as real upstreams do), or undefined: each event its own. */
  style: number | undefined
  /** Line ending: LF, CRLF or CR. */
  eol: string
  /** `data: ` or `data:`. */
  space: boolean
  /** Per event: extra fields (0 none, 1 id, 2 event, 3 retry, 4 event: error). */
  fields: number[]
  bom: boolean
}

function render(specs: readonly EventSpec[], framing: Framing): string {
  const eol = framing.eol
  let out = framing.bom ? '\uFEFF' : ''
  specs.forEach((spec, index) => {
    const data = eventData(spec, framing.style)
    if (data === undefined) {
      out += `:${spec.kind === 'comment' && spec.text !== '' ? ` ${spec.text}` : ''}${eol}${index % 2 === 0 ? eol : ''}`
      return
    }
    const field = framing.fields[index % Math.max(1, framing.fields.length)] ?? 0
    if (field === 1) out += `id: ${index}${eol}`
    if (field === 2) out += `event: message${eol}`
    if (field === 3) out += `retry: 1000${eol}`
    if (field === 4) out += `event: error${eol}`
    for (const line of data.split('\n')) out += `data:${framing.space ? ' ' : ''}${line}${eol}`
    out += eol
  })
  return out
}

const framingArbitrary: fc.Arbitrary<Framing> = fc.record({
  style: fc.option(fc.nat(255), { freq: 4 }).map((style) => style ?? undefined),
  eol: fc.constantFrom('\n', '\n', '\n', '\r\n', '\r'),
  space: fc.boolean(),
  fields: fc.array(fc.constantFrom(0, 0, 0, 0, 1, 2, 3, 4), { maxLength: 4 }),
  bom: fc.boolean(),
})

/** The stream as bytes; `invalid` puts a byte that is never UTF-8 at that spot (mod length). */
function streamBytes(text: string, invalid: number | undefined): Uint8Array {
  const bytes = utf8(text)
  if (invalid === undefined || bytes.length === 0) return bytes
  const at = invalid % bytes.length
  const out = new Uint8Array(bytes.length + 1)
  out.set(bytes.subarray(0, at))
  out[at] = 0xff
  out.set(bytes.subarray(at), at + 1)
  return out
}

const streamArbitrary = fc.record({
  specs: fc.array(eventArbitrary, { minLength: 1, maxLength: 24 }),
  framing: framingArbitrary,
  invalid: fc.option(fc.nat(), { freq: 8 }),
  cuts: fc.array(fc.nat(), { maxLength: 12 }),
  strict: fc.boolean(),
})

function checkAllReadings(bytes: Uint8Array, options: ChatCompletionsRepairOptions, seed: number, label: string): Run {
  const expected = reference(bytes, options)
  let perEventRun: Run | undefined
  for (const [name, reads] of readings(bytes, seed)) {
    const run = fused(reads, options)
    checkSame(run, expected, `${label}, ${name}`)
    if (name === 'one event per read') {
      perEventRun = run
      for (const [ablation, shortcuts] of ABLATIONS) checkSame(fused(reads, options, shortcuts), expected, `${label}, ${name}, ${ablation}`)
    }
  }
  // As text: string reads take the same shortcuts.
  const text = fromUtf8(bytes)
  checkSame(fused(perEvent(bytes).map((read) => fromUtf8(read)), options), reference(text, options), `${label}, one event per string read`)
  return perEventRun!
}

export const suite = defineSuite('chat-completions/fast-paths', (test) => {
  test('fixtures: fused core with its shortcuts = the chain without them, text and diagnostics, in every reading', async () => {
    let unchanged = 0
    for (const capture of leaks as Array<{ id: string }>) {
      const fixture = await loadSseFixture(capture.id)
      const run = checkAllReadings(fixture.bytes, {}, 17, capture.id)
      unchanged += run.unchanged
      checkAllReadings(fixture.bytes, { preset: 'strict' }, 29, `${capture.id} (strict)`)
    }
    // The shortcut must have been taken, or this proves nothing.
    assert(unchanged > 50, `reads forwarded as they came: ${unchanged}`)
  })

  test('fixtures: the fused stream and the six composed stages give the same bytes, one event per read', async () => {
    for (const capture of leaks as Array<{ id: string }>) {
      const fixture = await loadSseFixture(capture.id)
      const reads = perEvent(fixture.bytes)
      const fusedOut = await fusedBytes(reads)
      const composed = await composedBytes(reads)
      assert(bytesEqual(fusedOut, composed), `${capture.id}: fused and composed differ\n${firstDifference(fusedOut, composed)}`)
      assertEqual(fromUtf8(fusedOut), reference(fixture.bytes).output, `${capture.id}: the stream gives the reference output`)
    }
  })

  test('generated streams: fused core = reference in every reading (property)', () => {
    fc.assert(
      fc.property(streamArbitrary, ({ specs, framing, invalid, cuts, strict }) => {
        const bytes = streamBytes(render(specs, framing), invalid ?? undefined)
        const options: ChatCompletionsRepairOptions = strict ? { preset: 'strict' } : {}
        checkAllReadings(bytes, options, cuts.length + 1, 'generated')
        checkSame(fused(cutAt(bytes, [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)), options), reference(bytes, options), 'generated, given cuts')
      }),
      { numRuns: propertyRuns(400) },
    )
  })

  test('generated streams: the fused stream and the six composed stages give the same bytes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(streamArbitrary, async ({ specs, framing, invalid, cuts }) => {
        const bytes = streamBytes(render(specs, framing), invalid ?? undefined)
        const expected = utf8(reference(bytes).output)
        for (const reads of [perEvent(bytes), cutAt(bytes, randomCuts(bytes.length, cuts.length + 3, 40))]) {
          const fusedOut = await fusedBytes(reads)
          assert(bytesEqual(fusedOut, expected), `fused stream and reference differ\n${firstDifference(fusedOut, expected)}`)
          const composed = await composedBytes(reads)
          assert(bytesEqual(composed, expected), `composed stages and reference differ\n${firstDifference(composed, expected)}`)
        }
      }),
      { numRuns: propertyRuns(60) },
    )
  })

  test('prose one event per read: every read but those at a line start comes out as it went in, the same bytes', async () => {
    // JSON escapes in the raw bytes (a quote, a tab), not in the text: forwarded. (A backslash or a backtick in the
    // text is read: it may open an inline code span, issue 21.)
    const pieces = ['Hello', ' there', ',', ' "quoted"', ' tab\t', 'é', ' \u{1F600}', ' done.']
    const events = [
      `data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] })}\n\n`,
      ...pieces.map((piece) => `data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }] })}\n\n`),
    ]
    const reads = events.map(utf8)
    const run = fused(reads)
    // Every read comes out as it went in, and only the first chunks are decoded: the stream starts at a line
    // start, where text may begin a code fence, so the sanitizer reads the role chunk and "Hello" (they come out
    // the same, and so does their read); every later one goes by without being decoded.
    assertEqual(run.unchanged, events.length, 'reads forwarded as they came')
    assertEqual(decodedReads(reads), [0, 1], 'the reads decoded')
    const out = await fusedBytes(reads)
    assert(bytesEqual(out, utf8(events.join(''))), 'the stream gives the input bytes back')
    const more = (pieces: readonly string[]): Uint8Array[] =>
      pieces.map((piece) => utf8(`data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }] })}\n\n`))
    // A backslash, a backtick or a line break in the text is read by the sanitizer (a backtick may open an inline code
    // span, issue 21; a line break may open a fence), which passes such text as it is: the read goes by as it came.
    const code = [...reads, ...more([' C:\\path', ' `x` ', ' and\n', '```', '\n'])]
    assertEqual(decodedReads(code), [0, 1], 'a backslash, a backtick or a line break in the text: read by the sanitizer, not decoded')
    // A tag start the read's end leaves undecided is held: that read is decoded, and the one that decides it.
    const held = [...reads, ...more([' a <', 'b', ' c'])]
    assertEqual(decodedReads(held), [0, 1, events.length, events.length + 1], 'a read ending in an undecided tag start is decoded, and the next')
  })

  test('a read that ends inside a character, or holds invalid UTF-8, is not forwarded as it came', () => {
    const event = utf8(`data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: 'é' }, finish_reason: null }] })}\n\n`)
    const role = utf8(`data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }] })}\n\n`)
    const split = event.indexOf(0xc3) + 1
    const reads = [role, role, event.subarray(0, split), event.subarray(split), role]
    const run = fused(reads)
    checkSame(run, reference(new Uint8Array([...role, ...role, ...event, ...role])), 'split character')
    // The whole reads (the first, at a line start, decoded and written the same): not the two halves of the character.
    assertEqual(run.unchanged, 3, 'only the whole reads')
    const bad = utf8(`data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: 'xy' }, finish_reason: null }] })}\n\n`)
    const invalid = new Uint8Array(bad)
    invalid[invalid.indexOf(0x78)] = 0xff
    const badRun = fused([role, role, invalid, role])
    assertEqual(badRun.unchanged, 3, 'invalid UTF-8 is decoded (U+FFFD), not forwarded')
    checkSame(badRun, reference(new Uint8Array([...role, ...role, ...invalid, ...role])), 'invalid byte')
  })

  test('a backtick run across chunks, or text right after removed markup: those chunks are not skipped', () => {
    const text = (content: string): string => `data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
    const block = `<${MARKER}tool_calls>\n<${MARKER}invoke name="bash">\n<${MARKER}parameter name="command" string="true">ls</${MARKER}parameter>\n</${MARKER}invoke>\n</${MARKER}tool_calls>`
    for (const pieces of [
      ['say ``', 'a', '`', ' then ', block, ' end'],
      ['``', 'b', '`', block, '```', block],
      ['x', '<', 'y', '``', 'z', '`', block],
      [block, ' word', '</invoke>', ' end'],
      [block, ' ', '</parameter>', ' end'],
      [block, 'word', ' more', '</invoke>'],
    ]) {
      const input = text('') + pieces.map(text).join('') + `data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }] })}\n\n` + 'data: [DONE]\n\n'
      const bytes = utf8(input)
      checkAllReadings(bytes, {}, 5, JSON.stringify(pieces.slice(0, 3)))
    }
  })

  test('a line past maxBufferSize fails the same way with or without the shortcut', () => {
    const event = (content: string): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
    // The long chunk has the shape of the short ones: only its content differs.
    const bytes = utf8(event('y') + event('y') + event('x'.repeat(300)) + event('y'))
    for (const [name, reads] of readings(bytes, 3)) {
      const run = fused(reads, { maxBufferSize: 256 })
      assert(run.error !== undefined && (run.error as Error).name === 'StreamLimitError', `${name}: StreamLimitError, got ${String(run.error)}`)
    }
  })

  test('plain and shaped chunks: whatever the core takes without JSON.parse parses as JSON.parse reads it, to the parts the decoder gives (property)', () => {
    const base = [
      JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: 'abc' }, logprobs: null, finish_reason: null }] }),
      JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }], usage: null }),
      JSON.stringify({ choices: [{ index: 0, delta: { content: 'q', reasoning_content: null, tool_calls: null }, finish_reason: null }], n: [1, -2.5e-3, true, false, null, {}, []] }),
    ]
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', '\\u0041', '\\n', ' ', '\t', '0', '1', '-', '.', 'e', 'null', 'true', 'x', '<', '`', '|', 'content', 'choices', '"usage"', '"error"']
    const mutation = fc.record({
      which: fc.nat(base.length - 1),
      edits: fc.array(fc.record({ at: fc.nat(), remove: fc.nat(3), insert: fc.constantFrom('', ...alphabet) }), { minLength: 1, maxLength: 3 }),
    })
    fc.assert(
      fc.property(mutation, ({ which, edits }) => {
        const original = base[which]!
        let data = original
        for (const edit of edits) {
          const at = edit.at % (data.length + 1)
          data = data.slice(0, at) + edit.insert + data.slice(at + edit.remove)
        }
        const { found, content } = takenAfter(original, data)
        if (found === 'decoded') return
        let parsed: unknown
        try {
          parsed = JSON.parse(data)
        } catch {
          throw new Error(`classified ${found} but not JSON: ${data}`)
        }
        assert(parsed !== null && typeof parsed === 'object' && Array.isArray((parsed as { choices?: unknown }).choices), `a chat chunk: ${data}`)
        const parts = decodeChatCompletionsMessage({ data })
        const kinds = parts.map((part) => part.type)
        assert(kinds.every((kind) => kind === 'text' || kind === 'chunk-end'), `only text and chunk-end: ${kinds.join(', ')} for ${data}`)
        if (found === 'as it came') {
          // Plain by the scanner (nothing an idle sanitizer minds), or passed as it is by the sanitizer: either way what
          // every stage would write.
          assert(referenceKeeps(original, data), `went by as it came, but the stages change it: ${data}`)
        } else {
          const text = parts.find((part) => part.type === 'text')
          assertEqual(text?.type === 'text' ? text.text : undefined, content, `the content read from the shape: ${data}`)
        }
      }),
      { numRuns: propertyRuns(3000) },
    )
  })

  test('plain and shaped chunks: tricky chunks after a plain one of the same shape', () => {
    const plain = (content: string, extra = ''): string =>
      `{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"},"logprobs":null,"finish_reason":null}]${extra}}`
    const cases: Array<[string, string, Taken]> = [
      ['plain again', plain('more words'), 'as it came'],
      ['simple escapes', plain('a\\fb\\"c\\/'), 'as it came'],
      // A line break may open or close a code fence at the next line: the sanitizer reads it, and passes it as it is.
      ['an escaped line break', plain('a\\nb'), 'as it came'],
      ['an escaped line break, then a tag start the next chunk decides', plain('a\\n<'), 'shaped'],
      ['a backslash taking the closing quote', plain('abc\\'), 'decoded'],
      ['a quote inside: another shape, not JSON', plain('a","b'), 'decoded'],
      ['an escaped <', plain('\\u003c'), 'shaped'],
      // A `<` the next characters decide as text: the sanitizer passes it as it is.
      ['a raw <', plain('a < b'), 'as it came'],
      ['a raw < that may begin a tag', plain('a <invoke'), 'shaped'],
      ['a raw control character', plain('a\u0001b'), 'decoded'],
      ['a bad escape', plain('\\x41'), 'decoded'],
      ['usage with a value', plain('u', ',"usage":{"total_tokens":3}'), 'decoded'],
      ['usage null', plain('u', ',"usage":null'), 'as it came'],
      ['an error key', plain('e', ',"error":null'), 'decoded'],
      ['choices only nested', '{"x":{"choices":[]},"choices":5}', 'decoded'],
      ['choices only nested, after', '{"choices":5,"x":{"choices":[]}}', 'decoded'],
      ['a later choices that is not an array', plain('d', ',"choices":{}'), 'decoded'],
      ['a later choices that is a number', plain('d', ',"choices":5'), 'decoded'],
      ['tool_calls null', '{"choices":[{"index":0,"delta":{"tool_calls":null,"content":"t"},"finish_reason":null}]}', 'as it came'],
      ['tool_calls empty', '{"choices":[{"index":0,"delta":{"tool_calls":[],"content":"t"},"finish_reason":null}]}', 'decoded'],
      ['finish_reason a string', '{"choices":[{"index":0,"delta":{"content":"t"},"finish_reason":"stop"}]}', 'decoded'],
      ['a key with an escape', '{"choices":[{"index":0,"delta":{"cont\\u0065nt":"t"},"finish_reason":null}]}', 'decoded'],
      ['leading zero', '{"choices":[],"n":01}', 'decoded'],
      ['trailing comma', '{"choices":[],}', 'decoded'],
      ['numbers', '{"choices":[],"n":[-0,0.5,1e3,2E+2,3.25e-1]}', 'as it came'],
      ['a tab between tokens', '{"choices":[],\t"n":1}', 'decoded'],
      ['trailing text', '{"choices":[]} x', 'decoded'],
    ]
    for (const [label, raw, expected] of cases) {
      const data = raw.replace(/\\u0001/g, '\u0001').replace(/\\t/g, '\t')
      const { found } = takenAfter(plain('first'), data)
      assertEqual(found, expected, `${label}: ${data}`)
      if (found !== 'decoded') JSON.parse(data)
    }
  })

  test('SSE shortcut: empty reads before the first event, then a BOM later, read as the parser reads them', () => {
    const event = `data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }] })}\n\n`
    for (const reads of [
      ['', event, `\uFEFF${event}`, event],
      [new Uint8Array(0), utf8(event), utf8(`\uFEFF${event}`), utf8(event)],
      ['\u00EF', event, event],
      [utf8(event), utf8(event), new Uint8Array([...utf8(event), 0xc3]), new Uint8Array([0xa9, ...utf8(`\n${event}`)]), utf8(event)],
    ] as Array<Array<string | Uint8Array>>) {
      const joined = reads.map((read) => (typeof read === 'string' ? read : fromUtf8(read))).join('')
      const bytes = reads.some((read) => typeof read !== 'string') ? new Uint8Array(reads.flatMap((read) => [...(read as Uint8Array)])) : joined
      checkSame(fused(reads), reference(bytes), JSON.stringify(joined.slice(0, 12)))
    }
  })

  test('generateCallId: call_ + 24 alphanumerics, unique, every letter about equally likely', () => {
    const seen = new Set<string>()
    const counts = new Map<string, number>()
    for (let index = 0; index < 4000; index++) {
      const id = generateCallId()
      assert(/^call_[A-Za-z0-9]{24}$/.test(id), `shape: ${id}`)
      seen.add(id)
      for (const character of id.slice(5)) counts.set(character, (counts.get(character) ?? 0) + 1)
    }
    assertEqual(seen.size, 4000, 'unique')
    assertEqual(counts.size, 62, 'every character used')
    // 96,000 characters, 1548 expected each; modulo bias (bytes 248–255 folded in) would give the first 8 about 3% more.
    const expected = (4000 * 24) / 62
    let chiSquare = 0
    for (const count of counts.values()) chiSquare += (count - expected) ** 2 / expected
    // 61 degrees of freedom: p = 1e-6 is at about 130.
    assert(chiSquare < 130, `uniform (chi-square ${chiSquare.toFixed(1)})`)
  })
})
