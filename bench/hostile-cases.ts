/**
 * The rows of the hostile-inputs report (`hostile.ts`): each case builds its
 * input (untimed), runs it through a public entry point (timed), then says
 * what it checked (after the timing). Inputs are deterministic: seeded prose
 * (`inputs.ts`) and markup from the test builders, which make every marker at
 * run time; no marker is written in this file. Docs write a marker as `‹DSML›`.
 *
 * Engine options are the defaults unless a row says otherwise.
 */
import type { ChatCompletionsRepairStreamOptions } from '../src/chat-completions/index.ts'
import { sanitizeText } from '../src/dsml/index.ts'
import { DEFAULT_MAX_SSE_BUFFER, StreamLimitError } from '../src/sse/index.ts'
import { block, close, invoke, open, param, tokenChunks } from '../test/support/dsml-builders.ts'
import {
  type AfterRead,
  byteReads,
  callCountCheck,
  chatChunk,
  chatEvents,
  check,
  type Check,
  concatenateBytes,
  conservedCheck,
  count,
  DEFAULT_MAX_HOLD_CHARS,
  diagnosticTally,
  encodeUtf8,
  type EngineRun,
  expectedTextCheck,
  FINISH_EVENTS,
  heldWithinCheck,
  noMarkersCheck,
  noThrowCheck,
  readRepairedStream,
  type RepairedStream,
  repairedStreamChecks,
  type RepairRun,
  ROLE_EVENT,
  runRepairStream,
  runSanitizerStream,
  textReads,
  totalLength,
  type Verdict,
} from './hostile-support.ts'
import { prose } from './inputs.ts'

export interface PreparedCase {
  /** The input's size as the table shows it: code units (`ch`) or bytes (`B`). */
  size: string
  /** Runs the input through the API (timed) and returns how to read the verdict (untimed). */
  run(afterRead: AfterRead): Promise<() => Verdict>
}

export interface HostileCase {
  key: string
  /** The row's number: the brief's input number, a letter per way it is fed. */
  row: string
  input: string
  /** The entry point and how the input is cut into reads. */
  fedAs: string
  /** Builds the input. Untimed. */
  prepare(): PreparedCase
}

const characters = (text: string | number): string => `${count(typeof text === 'number' ? text : text.length)} ch`
const bytes = (total: number): string => `${count(total)} B`
const megabytes = (total: number): string => `${(total / 1e6).toFixed(1)} MB`

/** The stream's events, one read each, as UTF-8 bytes. */
const eventReads = (events: readonly string[]): Uint8Array[] => events.map(encodeUtf8)

/** Where a failed stream stopped, as a fact for the row. */
function failurePoint(run: RepairRun, reads: ReadonlyArray<string | Uint8Array>): string {
  const read = reads.slice(0, run.written + 1)
  return `failed on read ${count(run.written + 1)} of ${count(reads.length)}, after ${megabytes(totalLength(read))} of ${megabytes(totalLength(reads))}`
}

/**
 * A row fed to `DsmlSanitizerStream` in 64 KB reads: `build` makes the input (untimed), the stream
 * run is timed, and `verdict` reads the run against the input (untimed).
 */
function sanitizerStreamCase<Input extends { text: string }>(
  row: Pick<HostileCase, 'key' | 'row' | 'input'>,
  build: () => Input,
  verdict: (run: EngineRun, input: Input) => Verdict,
): HostileCase {
  return {
    ...row,
    fedAs: '`DsmlSanitizerStream`, 64 KB reads',
    prepare() {
      const input = build()
      const reads = textReads(input.text)
      return {
        size: characters(input.text),
        async run(afterRead) {
          const run = await runSanitizerStream(reads, afterRead)
          return () => verdict(run, input)
        },
      }
    },
  }
}

/** What a `ChatCompletionsRepairStream` row is fed, built untimed. */
interface RepairStreamInput {
  reads: ReadonlyArray<string | Uint8Array>
}

/**
 * A row fed to `ChatCompletionsRepairStream` (with `options`): `build` makes the reads (untimed), the
 * stream run is timed, and the verdict is read untimed. A run that throws fails the row with where it
 * stopped; otherwise `verdict` reads the repaired stream (decoded within `options.maxBufferSize`),
 * after the check that it did not throw. String reads are sized in characters, byte reads in bytes.
 */
function repairStreamCase<Input extends RepairStreamInput>(
  row: Pick<HostileCase, 'key' | 'row' | 'input' | 'fedAs'>,
  build: () => Input,
  verdict: (stream: RepairedStream, input: Input) => Verdict,
  options: ChatCompletionsRepairStreamOptions = {},
): HostileCase {
  return {
    ...row,
    prepare() {
      const input = build()
      const { reads } = input
      const total = totalLength(reads)
      return {
        size: reads.some((read) => typeof read === 'string') ? characters(total) : bytes(total),
        async run(afterRead) {
          const run = await runRepairStream(reads, afterRead, options)
          return () => {
            if (run.error !== undefined) return { checks: [noThrowCheck(run.error)], facts: [failurePoint(run, reads)] }
            const { checks, facts } = verdict(readRepairedStream(run.parts, options.maxBufferSize), input)
            return { checks: [noThrowCheck(undefined), ...checks], facts }
          }
        },
      }
    },
  }
}

// ── 0. the floor ─────────────────────────────────────────────────────────

const baseline: HostileCase = {
  key: 'baseline',
  row: '0',
  input: 'empty text: the floor (Node, tsx, the modules)',
  fedAs: '`sanitizeText`',
  prepare: () => ({
    size: characters(0),
    async run() {
      const result = sanitizeText('')
      return () => ({ checks: [noThrowCheck(undefined), check('empty text out', result.text === '')], facts: [] })
    },
  }),
}

// ── 1. parameter names that are Object.prototype's ──────────────────────

interface PlantedArgument {
  name: string
  raw: string
  string: 'true' | 'false'
}

/** Names and values that would reach a prototype if assigned with `=` or merged naively. */
const PROTOTYPE_ARGUMENTS: readonly PlantedArgument[] = [
  { name: '__proto__', raw: '{"polluted": "via __proto__"}', string: 'false' },
  { name: 'constructor', raw: '{"prototype": {"polluted": "via constructor"}}', string: 'false' },
  { name: 'hasOwnProperty', raw: 'not a function', string: 'true' },
]

const expectedArgument = (argument: PlantedArgument): unknown => (argument.string === 'false' ? JSON.parse(argument.raw) : argument.raw)
const sameJson = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right)

/** A schema naming the three, parsed from JSON as a request body's `tools` would be (a literal `__proto__:` would set the prototype). */
const PROTOTYPE_SCHEMA: unknown = JSON.parse(
  '{"type":"object","properties":{"__proto__":{"type":"object"},"constructor":{"type":"object"},"hasOwnProperty":{"type":"string"}},"required":["__proto__","constructor","hasOwnProperty"]}',
)

function prototypeLeakText(): { text: string; expected: string } {
  const leak = block([invoke('write', PROTOTYPE_ARGUMENTS.map((argument) => param(argument.name, argument.raw, { string: argument.string })))])
  return { text: `Saving the file now. ${leak} Done.`, expected: 'Saving the file now.  Done.' }
}

interface PrototypeSnapshot {
  names: string
  hasOwnProperty: unknown
}

function snapshotObjectPrototype(): PrototypeSnapshot {
  return { names: Object.getOwnPropertyNames(Object.prototype).sort().join(), hasOwnProperty: Object.prototype.hasOwnProperty }
}

function prototypeUntouchedCheck(before: PrototypeSnapshot): Check {
  const probe: Record<string, unknown> = {}
  const untouched = snapshotObjectPrototype().names === before.names && Object.prototype.hasOwnProperty === before.hasOwnProperty && probe.polluted === undefined
  return check('Object.prototype untouched', untouched)
}

function ownArgumentsChecks(args: Record<string, unknown>): Check[] {
  const ownData = PROTOTYPE_ARGUMENTS.every((argument) => {
    const descriptor = Object.getOwnPropertyDescriptor(args, argument.name)
    return descriptor !== undefined && 'value' in descriptor && sameJson(descriptor.value, expectedArgument(argument))
  })
  return [
    check('`__proto__`, `constructor`, `hasOwnProperty` are own data properties with their values', ownData),
    check("arguments' prototype is Object.prototype, nothing inherited from the values", Object.getPrototypeOf(args) === Object.prototype && !('polluted' in args)),
  ]
}

const prototypeKeysText: HostileCase = {
  key: 'prototype-keys-text',
  row: '1a',
  input: 'parameters named `__proto__` (a JSON object), `constructor` (`{"prototype": …}`), `hasOwnProperty`',
  fedAs: '`sanitizeText`, whole',
  prepare() {
    const { text, expected } = prototypeLeakText()
    return {
      size: characters(text),
      async run() {
        const before = snapshotObjectPrototype()
        const result = sanitizeText(text)
        return () => ({
          checks: [
            noThrowCheck(undefined),
            expectedTextCheck(result.text, expected),
            noMarkersCheck(result.text),
            callCountCheck(result.calls.length, 1),
            ...ownArgumentsChecks(result.calls[0]?.arguments ?? {}),
            prototypeUntouchedCheck(before),
          ],
          facts: [],
        })
      },
    }
  },
}

const prototypeKeysStream = repairStreamCase(
  {
    key: 'prototype-keys-sse',
    row: '1b',
    input: 'the same, the request declaring `write` with a JSON schema naming the three',
    fedAs: '`ChatCompletionsRepairStream` (`request`), bytes, one token event per read',
  },
  () => {
    const { text, expected } = prototypeLeakText()
    return { reads: eventReads(chatEvents(tokenChunks(text))), expected, before: snapshotObjectPrototype() }
  },
  (stream, { expected, before }) => {
    const args = JSON.parse(stream.calls[0]?.arguments ?? '{}') as Record<string, unknown>
    return { checks: [...repairedStreamChecks(stream, expected, 1), ...ownArgumentsChecks(args), prototypeUntouchedCheck(before)], facts: [] }
  },
  { request: { model: 'deepseek-chat', messages: [], tools: [{ type: 'function', function: { name: 'write', parameters: PROTOTYPE_SCHEMA } }] } },
)

// ── 2. a 10 MB line ──────────────────────────────────────────────────────

const TEN_MB = 10_000_000
/** A cap above the 10 MB line, for the row that reads it whole. */
const RAISED_SSE_BUFFER = 16 * 1024 * 1024

/** A complete block with no line break anywhere, so the whole line stays one line. */
function singleLineLeak(): string {
  return open('tool_calls') + open('invoke', { name: 'bash' }) + param('command', 'ls -la') + close('invoke') + close('tool_calls')
}

/**
 * Where the first word ending at or after `from` is followed by a space: the
 * index after that space. Markup is planted there, so that no `<` of the
 * prose sits just before it (a `<` or `< ` right before a marker is removed
 * with the markup: README, Policy 8).
 */
function afterWord(text: string, from: number): number {
  const wordEnd = /[A-Za-z] /g
  wordEnd.lastIndex = from
  const match = wordEnd.exec(text)
  return match === null ? text.length : match.index + 2
}

/** The text with whatever follows its last letter turned into dots, its length kept: it ends in no partial tag. */
const endInDots = (text: string): string => text.replace(/[^A-Za-z]+$/, (suffix) => '.'.repeat(suffix.length))

/** 10,000,000 code units of prose with no line break, one leaked call in the middle. */
function tenMegabyteLine(): { line: string; expected: string } {
  const leak = singleLineLeak()
  const filler = prose(TEN_MB, 2).replaceAll('\n', ' ')
  const head = filler.slice(0, afterWord(filler, TEN_MB / 2))
  const tail = endInDots(filler.slice(head.length, TEN_MB - leak.length))
  return { line: head + leak + tail, expected: head + tail }
}

function tenMegabyteEvents(): { reads: Uint8Array[]; expected: string } {
  const { line, expected } = tenMegabyteLine()
  return { reads: byteReads(encodeUtf8(chatEvents([line]).join(''))), expected }
}

const longLineCapped: HostileCase = {
  key: 'long-line-sse',
  row: '2a',
  input: 'a 10 MB line (prose, no line break, one leaked call) as one SSE `data:` line',
  fedAs: '`ChatCompletionsRepairStream`, bytes, 64 KB reads',
  prepare() {
    const { reads } = tenMegabyteEvents()
    return {
      size: bytes(totalLength(reads)),
      async run(afterRead) {
        const run = await runRepairStream(reads, afterRead)
        return () => {
          const limit = run.error instanceof StreamLimitError && run.error.type === 'sse-buffer-limit' && run.error.limit === DEFAULT_MAX_SSE_BUFFER
          const written = readRepairedStream(run.parts)
          return {
            checks: [
              check(`fails with the documented StreamLimitError \`sse-buffer-limit\` (cap \`maxBufferSize\` ${count(DEFAULT_MAX_SSE_BUFFER)} ch, 8 Mi)`, limit),
              check(`none of the line written (${bytes(written.bytes)} out)`, written.content === ''),
            ],
            facts: [run.error === undefined ? 'did not fail' : failurePoint(run, reads)],
          }
        }
      },
    }
  },
}

const longLineRaised = repairStreamCase(
  { key: 'long-line-sse-raised', row: '2b', input: 'the same, `maxBufferSize` raised to 16 Mi', fedAs: '`ChatCompletionsRepairStream`, bytes, 64 KB reads' },
  tenMegabyteEvents,
  (stream, { expected }) => ({ checks: repairedStreamChecks(stream, expected, 1), facts: [] }),
  { maxBufferSize: RAISED_SSE_BUFFER },
)

const longLineText: HostileCase = {
  key: 'long-line-text',
  row: '2c',
  input: 'the same 10 MB line as plain text',
  fedAs: '`sanitizeText`, whole',
  prepare() {
    const { line, expected } = tenMegabyteLine()
    return {
      size: characters(line),
      async run() {
        const result = sanitizeText(line)
        return () => ({
          checks: [
            noThrowCheck(undefined),
            expectedTextCheck(result.text, expected),
            noMarkersCheck(result.text),
            callCountCheck(result.calls.length, 1),
            check('the call is `bash` `{"command":"ls -la"}`', result.calls[0]?.name === 'bash' && sameJson(result.calls[0].arguments, { command: 'ls -la' })),
          ],
          facts: [],
        })
      },
    }
  },
}

// ── 3. five million `<` ──────────────────────────────────────────────────

const LESS_THAN_COUNT = 5_000_000
const onlyLessThan = (text: string): boolean => /^<*$/.test(text)

/** What became of a run of `<`: how many stayed in the text, and how many were reported. */
function lessThanFacts(text: string, reported: number, tally: string): string[] {
  return [`text keeps ${count(text.length)} \`<\`, ${count(reported)} removed and reported (${tally})`]
}

const lessThanText: HostileCase = {
  key: 'less-than-text',
  row: '3a',
  input: '5,000,000 `<`',
  fedAs: '`sanitizeText`, whole',
  prepare() {
    const text = '<'.repeat(LESS_THAN_COUNT)
    return {
      size: characters(text),
      async run() {
        const result = sanitizeText(text)
        return () => {
          const removed = result.diagnostics.map((diagnostic) => diagnostic.text).join('')
          const nothingLost = result.text.length + removed.length === LESS_THAN_COUNT && onlyLessThan(result.text) && onlyLessThan(removed)
          return {
            checks: [noThrowCheck(undefined), check('nothing lost (kept + reported = input)', nothingLost), noMarkersCheck(result.text), callCountCheck(result.calls.length, 0)],
            facts: lessThanFacts(result.text, removed.length, diagnosticTally(result.diagnostics)),
          }
        }
      },
    }
  },
}

const lessThanStream = sanitizerStreamCase(
  { key: 'less-than-stream', row: '3b', input: '5,000,000 `<`' },
  () => ({ text: '<'.repeat(LESS_THAN_COUNT) }),
  (run, { text }) => ({
    checks: [noThrowCheck(undefined), conservedCheck(run, text), ...heldWithinCheck(run.maxHeld, run.heldAtEnd), noMarkersCheck(run.text), callCountCheck(run.calls.length, 0)],
    facts: lessThanFacts(run.text, text.length - run.text.length, diagnosticTally(run.diagnostics)),
  }),
)

// ── 4. 100,000 openers never closed ──────────────────────────────────────

const UNCLOSED_OPENERS = 100_000

/** Block, invoke and parameter openers in turn, each followed by a few words, none ever closed. */
function unclosedOpeners(total: number): string {
  const pieces: string[] = []
  for (let index = 0; index < total; index++) {
    const kind = index % 3
    const opener = kind === 0 ? open('tool_calls') : kind === 1 ? open('invoke', { name: `tool_${index}` }) : open('parameter', { name: 'path', string: 'true' })
    pieces.push(`${opener}step ${index} `)
  }
  return pieces.join('')
}

/** The checks of an engine row whose input holds no complete call. */
function engineInvariantChecks(run: EngineRun, input: string, expectedCalls: number): Check[] {
  return [noThrowCheck(undefined), conservedCheck(run, input), ...heldWithinCheck(run.maxHeld, run.heldAtEnd), noMarkersCheck(run.text), callCountCheck(run.calls.length, expectedCalls)]
}

const unclosedOpenersStream = sanitizerStreamCase(
  { key: 'unclosed-openers', row: '4', input: '100,000 unclosed openers (block, invoke, parameter in turn, words between)' },
  () => ({ text: unclosedOpeners(UNCLOSED_OPENERS) }),
  (run, { text }) => ({ checks: engineInvariantChecks(run, text, 0), facts: [`text keeps ${characters(run.text)}; ${diagnosticTally(run.diagnostics)}`] }),
)

// ── 5. invalid UTF-8 ─────────────────────────────────────────────────────

/** Byte sequences no UTF-8 decoder may accept. */
const INVALID_SEQUENCES: readonly (readonly number[])[] = [
  [0xff], // never valid
  [0xc0, 0x80], // overlong NUL
  [0xed, 0xa0, 0x80], // an encoded surrogate (U+D800)
  [0xe2, 0x82], // a three-byte character cut short
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0x80], // a lone continuation byte
  [0xf0, 0x9f, 0x98], // a four-byte character cut short
]
const INVALID_EVENTS = 20_000
/** Stands for the invalid bytes in an event's text until they are spliced in; `JSON.stringify` leaves it as it is. */
const PLACEHOLDER = '\u00a7'

interface InvalidUtf8Stream {
  reads: Uint8Array[]
  expected: string
}

/**
 * Content events each holding one invalid sequence, the even ones cut into two
 * reads inside the sequence; a leaked call, one token event per read, in the
 * middle. `expected` is each event's content decoded as the WHATWG decoder does
 * (a U+FFFD per maximal invalid subpart), the call's events left out.
 */
function invalidUtf8Stream(): InvalidUtf8Stream {
  const reads: Uint8Array[] = [encodeUtf8(ROLE_EVENT)]
  const expected: string[] = []
  const addInvalidEvent = (index: number): void => {
    const sequence = Uint8Array.from(INVALID_SEQUENCES[index % INVALID_SEQUENCES.length]!)
    const [before, after] = [`token ${index} `, ' ok ']
    const [head, tail] = chatChunk({ content: before + PLACEHOLDER + after }).split(PLACEHOLDER) as [string, string]
    const event = concatenateBytes([encodeUtf8(head), sequence, encodeUtf8(tail)])
    const cut = encodeUtf8(head).length + 1
    if (index % 2 === 0) reads.push(event.subarray(0, cut), event.subarray(cut))
    else reads.push(event)
    expected.push(new TextDecoder().decode(concatenateBytes([encodeUtf8(before), sequence, encodeUtf8(after)])))
  }
  for (let index = 0; index < INVALID_EVENTS / 2; index++) addInvalidEvent(index)
  const leak = block([invoke('bash', [param('command', 'ls -la')])])
  for (const token of tokenChunks(leak)) reads.push(encodeUtf8(chatChunk({ content: token })))
  for (let index = INVALID_EVENTS / 2; index < INVALID_EVENTS; index++) addInvalidEvent(index)
  reads.push(encodeUtf8(FINISH_EVENTS))
  return { reads, expected: expected.join('') }
}

const replacementCount = (text: string): number => text.split('\uFFFD').length - 1

const invalidUtf8 = repairStreamCase(
  {
    key: 'invalid-utf8',
    row: '5',
    input: '20,000 events, each with one invalid UTF-8 sequence (7 kinds), a leaked call in the middle',
    fedAs: '`ChatCompletionsRepairStream`, bytes, one event per read, every other event cut in two after its first invalid byte',
  },
  invalidUtf8Stream,
  (stream, { expected }) => ({
    checks: repairedStreamChecks(stream, expected, 1, 'content = input decoded with U+FFFD, minus the markup'),
    facts: [`${count(replacementCount(stream.content))} U+FFFD out`],
  }),
)

// ── 6. lone surrogates across reads ──────────────────────────────────────

const HIGH = '\uD83D'
const LOW = '\uDE00'
const EMOJI = HIGH + LOW
const LONE_HIGH = '\uD800'
const SURROGATE_READS = 24
const SURROGATE_READ_SIZE = 60_000
const LEAK_READ = SURROGATE_READS / 2

/** How one read ends and the next begins: a pair split, a lone high surrogate, a lone low surrogate. */
const READ_BOUNDARIES: ReadonlyArray<readonly [string, string]> = [
  [HIGH, LOW + ' '],
  [HIGH, 'x '],
  ['y', LOW + ' '],
]

const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const unpairedCount = (text: string): number => text.match(UNPAIRED)?.length ?? 0
const withReplacements = (text: string): string => text.replace(UNPAIRED, '\uFFFD')

interface SurrogateInput {
  reads: string[]
  leak: string
  /** The call's value: a lone high surrogate and a pair, the pair split across two reads. */
  value: string
}

/** Prose with an emoji in its middle (a pair a read can be cut inside). */
function proseWithEmoji(seed: number): string {
  const text = prose(SURROGATE_READ_SIZE, seed)
  const middle = text.indexOf(' ', SURROGATE_READ_SIZE / 2) + 1
  return text.slice(0, middle) + EMOJI + text.slice(middle)
}

/** 24 reads of prose cut at surrogates in turn (`READ_BOUNDARIES`); with `withLeak`, a call cut inside its value's pair spans the middle boundary. */
function surrogateInput(withLeak: boolean): SurrogateInput {
  const value = `lone ${LONE_HIGH} here, pair ${EMOJI} split`
  const leak = withLeak ? block([invoke('write', [param('content', value)])]) : ''
  const cut = leak.indexOf(EMOJI) + 1
  const reads: string[] = []
  let carried = ''
  for (let index = 0; index < SURROGATE_READS; index++) {
    const body = carried + proseWithEmoji(100 + index)
    if (index === LEAK_READ) {
      reads.push(body + ' ' + HIGH + leak.slice(0, cut))
      carried = leak.slice(cut) + ' '
      continue
    }
    const [ending, nextStart] = READ_BOUNDARIES[index % READ_BOUNDARIES.length]!
    reads.push(body + ending)
    carried = nextStart
  }
  reads.push(carried + 'end.')
  return { reads, leak, value }
}

const surrogatesEngine: HostileCase = {
  key: 'surrogates-engine',
  row: '6a',
  input: 'reads ending in a high surrogate, starting with a low one or not (pairs split, lone high, lone low); a call whose value holds a lone surrogate and a pair cut across reads',
  fedAs: '`DsmlSanitizerStream`, 25 string reads of ~60,000 ch, cut at surrogates',
  prepare() {
    const { reads, leak, value } = surrogateInput(true)
    const text = reads.join('')
    return {
      size: characters(text),
      async run(afterRead) {
        const run = await runSanitizerStream(reads, afterRead)
        return () => ({
          checks: [
            noThrowCheck(undefined),
            check('code units conserved', run.replay === text),
            expectedTextCheck(run.text, text.replace(leak, ''), 'text = input minus the markup, code unit for code unit'),
            noMarkersCheck(run.text),
            callCountCheck(run.calls.length, 1),
            check('call value keeps its lone surrogate and its pair', run.calls[0]?.arguments.content === value),
            ...heldWithinCheck(run.maxHeld, run.heldAtEnd),
          ],
          facts: [`${count(unpairedCount(run.text))} unpaired surrogates kept in the text`],
        })
      },
    }
  },
}

/** Each read's event text cut in two between the code units of its emoji (a pair split across string reads). */
function cutInsideEmoji(events: readonly string[]): string[] {
  return events.flatMap((event) => {
    const at = event.indexOf(EMOJI)
    return at === -1 ? [event] : [event.slice(0, at + 1), event.slice(at + 1)]
  })
}

const surrogatesEscaped = repairStreamCase(
  {
    key: 'surrogates-sse-escaped',
    row: '6b',
    input: 'the same text, one content delta per read above: deltas end and start with unpaired surrogates (JSON-escaped, as `JSON.stringify` writes them)',
    fedAs: '`ChatCompletionsRepairStream`, string reads, each event cut between the two code units of a raw emoji',
  },
  () => {
    const { reads: deltas, leak, value } = surrogateInput(true)
    return { reads: cutInsideEmoji(chatEvents(deltas)), expected: deltas.join('').replace(leak, ''), value }
  },
  (stream, { expected, value }) => {
    const args = JSON.parse(stream.calls[0]?.arguments ?? '{}') as Record<string, unknown>
    return {
      checks: [...repairedStreamChecks(stream, expected, 1, 'content = input minus the markup, code unit for code unit'), check('call value keeps its lone surrogate and its pair', args.content === value)],
      facts: [`${count(unpairedCount(stream.content))} unpaired surrogates kept (escaped in the JSON)`],
    }
  },
)

/** An event whose JSON holds unpaired surrogates raw (not escaped): a string no UTF-8 encoder can write as is. */
function rawSurrogateEvent(content: string): string {
  return chatChunk({ content }).replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}

const surrogatesRaw = repairStreamCase(
  {
    key: 'surrogates-sse-raw',
    row: '6c',
    input: 'the same deltas without the call, unpaired surrogates raw in the JSON text',
    fedAs: '`ChatCompletionsRepairStream`, string reads, each event cut between the two code units of a raw emoji',
  },
  () => {
    const { reads: deltas } = surrogateInput(false)
    return { reads: cutInsideEmoji([ROLE_EVENT, ...deltas.map(rawSurrogateEvent), FINISH_EVENTS]), expected: deltas.map(withReplacements).join(''), deltas }
  },
  (stream, { expected, deltas }) => ({
    checks: repairedStreamChecks(stream, expected, 0, 'content = input, each unpaired surrogate as U+FFFD (output is UTF-8), pairs cut across reads kept'),
    facts: [`${count(replacementCount(stream.content))} U+FFFD out for ${count(deltas.reduce((sum, delta) => sum + unpairedCount(delta), 0))} unpaired surrogates in`],
  }),
)

// ── 7. NUL ───────────────────────────────────────────────────────────────

const NUL = '\u0000'

/** A NUL after every `every` code units. */
function scatterNul(text: string, every: number): string {
  const pieces: string[] = []
  for (let start = 0; start < text.length; start += every) pieces.push(text.slice(start, start + every))
  return pieces.join(NUL)
}

const nulCount = (text: string): number => text.split(NUL).length - 1

interface NulInput {
  text: string
  expected: string
  /** Leaks with a NUL in the value: each is a call. */
  calls: number
}

/**
 * Paragraphs of prose with a NUL every 50 code units, each followed by a
 * leaked call: a NUL in the value (a call), and, with `withBadNames`, every
 * other one a NUL in the tool name (not a tool name: removed, no call).
 */
function nulInput(paragraphs: number, withBadNames: boolean): NulInput {
  const pieces: string[] = []
  const expected: string[] = []
  let calls = 0
  for (let index = 0; index < paragraphs; index++) {
    const paragraph = scatterNul(endInDots(prose(10_000, 300 + index)), 50)
    const badName = withBadNames && index % 2 === 1
    const leak = badName
      ? block([invoke(`ba${NUL}sh`, [param('command', 'ls')])])
      : block([invoke('bash', [param('command', `echo ${index}${NUL}done`)])])
    if (!badName) calls++
    pieces.push(paragraph, ' ', leak, ' ')
    expected.push(paragraph, ' ', ' ')
  }
  return { text: pieces.join(''), expected: expected.join(''), calls }
}

function nulFacts(text: string): string[] {
  return [`${count(nulCount(text))} NUL kept in the text`]
}

const nulEngine = sanitizerStreamCase(
  { key: 'nul-engine', row: '7a', input: 'prose with a NUL every 50 ch; 200 leaked calls: 100 with a NUL in the value, 100 with a NUL in the tool name' },
  () => nulInput(200, true),
  (run, { text, expected, calls }) => ({
    checks: [
      noThrowCheck(undefined),
      conservedCheck(run, text),
      expectedTextCheck(run.text, expected),
      noMarkersCheck(run.text),
      callCountCheck(run.calls.length, calls),
      check('every call keeps its NUL', run.calls.every((call) => String(call.arguments.command).includes(NUL))),
      ...heldWithinCheck(run.maxHeld, run.heldAtEnd),
    ],
    facts: nulFacts(run.text),
  }),
)

const nulStream = repairStreamCase(
  {
    key: 'nul-sse',
    row: '7b',
    input: 'prose with a NUL every 50 ch (`\\u0000` in the JSON); 10 leaked calls with a NUL in the value',
    fedAs: '`ChatCompletionsRepairStream`, bytes, one token event per read',
  },
  () => {
    const { text, expected, calls } = nulInput(10, false)
    return { reads: eventReads(chatEvents(tokenChunks(text))), expected, calls }
  },
  (stream, { expected, calls }) => {
    const keepsNul = stream.calls.every((call) => String((JSON.parse(call.arguments) as Record<string, unknown>).command).includes(NUL))
    return { checks: [...repairedStreamChecks(stream, expected, calls), check('every call keeps its NUL', keepsNul)], facts: nulFacts(stream.content) }
  },
)

// ── 8. deeply repeated tags ──────────────────────────────────────────────

const REPEATS = 100_000

const repeatedOpener = sanitizerStreamCase(
  { key: 'repeated-opener', row: '8a', input: 'the same invoke opener 100,000 times (`<‹DSML›invoke name="bash">`)' },
  () => ({ text: open('invoke', { name: 'bash' }).repeat(REPEATS) }),
  (run, { text }) => ({ checks: engineInvariantChecks(run, text, 0), facts: [`text keeps ${characters(run.text)}; ${diagnosticTally(run.diagnostics)}`] }),
)

/** A block holding `depth` invokes each opened inside the last, each with a parameter, then all their closers. */
function nestedInvokes(depth: number): string {
  const level = open('invoke', { name: 'bash' }) + '\n' + param('command', 'ls') + '\n'
  const closer = close('invoke') + '\n'
  return open('tool_calls') + '\n' + level.repeat(depth) + closer.repeat(depth) + close('tool_calls')
}

const nestedInvoke = sanitizerStreamCase(
  { key: 'nested-invoke', row: '8b', input: 'invoke inside invoke, 100,000 levels deep, each with a parameter, then 100,000 closers, in one block' },
  () => ({ text: nestedInvokes(REPEATS) }),
  (run, { text }) => ({
    checks: [noThrowCheck(undefined), conservedCheck(run, text), ...heldWithinCheck(run.maxHeld, run.heldAtEnd), noMarkersCheck(run.text)],
    facts: [`${count(run.calls.length)} call${run.calls.length === 1 ? '' : 's'}; text keeps ${characters(run.text)}; ${diagnosticTally(run.diagnostics)}`],
  }),
)

const NESTING_DEPTH = 5_000

/** A call whose `string="false"` value is `depth` nested JSON arrays: 10 KB, well inside the default hold cap. */
function nestedJsonLeak(depth: number): { text: string; expected: string } {
  const value = '['.repeat(depth) + ']'.repeat(depth)
  const leak = block([invoke('write', [param('value', value, { string: 'false' })])])
  return { text: `Here it is: ${leak} done.`, expected: 'Here it is:  done.' }
}

function stringifies(value: unknown): boolean {
  try {
    JSON.stringify(value)
    return true
  } catch {
    return false
  }
}

const nestedJsonStream = repairStreamCase(
  {
    key: 'nested-json-sse',
    row: '8c',
    input: `(extra) a \`string="false"\` value of ${count(NESTING_DEPTH)} nested JSON arrays (${count(NESTING_DEPTH * 2)} ch, under \`maxHoldChars\` ${count(DEFAULT_MAX_HOLD_CHARS)})`,
    fedAs: '`ChatCompletionsRepairStream`, bytes, one token event per read',
  },
  () => {
    const { text, expected } = nestedJsonLeak(NESTING_DEPTH)
    return { reads: eventReads(chatEvents(tokenChunks(text))), expected }
  },
  (stream, { expected }) => ({ checks: repairedStreamChecks(stream, expected, 1), facts: [] }),
)

const nestedJsonAsText: HostileCase = {
  key: 'nested-json-text',
  row: '8d',
  input: '(extra) the same call as plain text',
  fedAs: '`sanitizeText`, whole',
  prepare() {
    const { text, expected } = nestedJsonLeak(NESTING_DEPTH)
    return {
      size: characters(text),
      async run() {
        const result = sanitizeText(text)
        return () => ({
          checks: [
            noThrowCheck(undefined),
            expectedTextCheck(result.text, expected),
            callCountCheck(result.calls.length, 1),
            check("the call's arguments survive `JSON.stringify`", stringifies(result.calls[0]?.arguments)),
          ],
          facts: [],
        })
      },
    }
  },
}

export const HOSTILE_CASES: readonly HostileCase[] = [
  baseline,
  prototypeKeysText,
  prototypeKeysStream,
  longLineCapped,
  longLineRaised,
  longLineText,
  lessThanText,
  lessThanStream,
  unclosedOpenersStream,
  invalidUtf8,
  surrogatesEngine,
  surrogatesEscaped,
  surrogatesRaw,
  nulEngine,
  nulStream,
  repeatedOpener,
  nestedInvoke,
  nestedJsonStream,
  nestedJsonAsText,
]
