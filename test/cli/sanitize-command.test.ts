// `dsml-streams sanitize` reads its input a piece at a time: text and SSE are repaired and written as
// they are read, the format is detected from the input's start, and a JSON body is read whole. These
// tests hold it to the command as it was when it read the whole input first (`before`, below, kept
// as it was): the same bytes on stdout and the same summary, for every format and flag, however the
// input is split into reads. Node only: the command is the Node glue.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { createChatCompletionsRepair } from '../../src/chat-completions/repair.ts'
import { repairChatCompletion } from '../../src/chat-completions/response.ts'
import { builtInCaptures } from '../../src/cli/captures.ts'
import { detectFormat, FORMAT_WINDOW, type InputFormat } from '../../src/cli/input-format.ts'
import { InputReads } from '../../src/cli/input-reads.ts'
import { textInput, textWriter } from '../../src/cli/node-text-io.ts'
import { sanitize, type SanitizeSettings } from '../../src/cli/sanitize-command.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import { sanitizeTextEvents } from '../../src/dsml/sanitize-text.ts'
import type { Diagnostic } from '../../src/dsml/types.ts'
import { parseBoundedJson } from '../../src/json-text.ts'
import { createSeededRandom } from '../../src/seeded-random.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'dsml-streams-sanitize-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

// ── the command before: the whole input read first ──────────────────────────

function detectBefore(input: string): InputFormat {
  const trimmed = input.trimStart()
  if (trimmed.startsWith('{')) {
    const value = parseBoundedJson(trimmed)?.value
    if (value !== null && typeof value === 'object' && 'choices' in value) return 'json'
  }
  return /^data:/m.test(input) ? 'sse' : 'text'
}

function summarizeBefore(format: InputFormat, diagnostics: readonly Diagnostic[]): string {
  const recovered = diagnostics.filter((diagnostic) => diagnostic.kind === 'recovered-call').map((diagnostic) => diagnostic.tool ?? '?')
  const removed = diagnostics.filter((diagnostic) => diagnostic.kind !== 'recovered-call' && diagnostic.text !== '').length
  const calls = recovered.length === 0 ? 'no call recovered' : `${recovered.length} call${recovered.length === 1 ? '' : 's'} recovered (${recovered.join(', ')})`
  const markup = removed === 0 ? 'no other markup removed' : `${removed} other markup region${removed === 1 ? '' : 's'} removed`
  return `dsml-streams: ${format}: ${calls}; ${markup}`
}

function before(input: string, format: InputFormat, options: DsmlSanitizerOptions, asEvents: boolean): { output: string; summary: string } {
  const diagnostics: Diagnostic[] = []
  if (format === 'text') {
    const events = sanitizeTextEvents(input, options)
    let text = ''
    for (const event of events) {
      if (event.type === 'text') text += event.text
      else if (event.type === 'diagnostic') diagnostics.push(event.diagnostic)
    }
    return { output: asEvents ? events.map((event) => `${JSON.stringify(event)}\n`).join('') : text, summary: summarizeBefore(format, diagnostics) }
  }
  const repairOptions = { ...options, onDiagnostic: (diagnostic: Diagnostic) => diagnostics.push(diagnostic) }
  let output: string
  if (format === 'sse') {
    const repair = createChatCompletionsRepair(repairOptions)
    output = repair.feed(input) + repair.end()
  } else {
    const body = parseBoundedJson(input)?.value
    if (body === undefined) throw new Error('the input is not JSON')
    // Nothing to repair (undefined): the body as it came (the command once wrote the word `undefined`).
    output = `${JSON.stringify(repairChatCompletion(body, repairOptions) ?? body, null, 2)}\n`
  }
  return { output: asEvents ? diagnostics.map((diagnostic) => `${JSON.stringify({ type: 'diagnostic', diagnostic })}\n`).join('') : output, summary: summarizeBefore(format, diagnostics) }
}

// ── inputs and reads ────────────────────────────────────────────────────────

const CAPTURES = builtInCaptures()
const PROSE = 'The answer goes on for a while, with `code`, a <b>tag</b>, a | bar and a line break.\n\n'

/** A Chat Completions SSE body of these content deltas, after a keep-alive comment. */
function sseOf(deltas: readonly string[]): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  return `: keep-alive\n\n${chunk({ role: 'assistant', content: '' }, null)}${deltas.map((content) => chunk({ content }, null)).join('')}${chunk({}, 'stop')}data: [DONE]\n\n`
}

function completionOf(content: string): Record<string, unknown> {
  return { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }
}

/** Every capture in prose, and all of them in one text longer than the detection window. */
const TEXTS: string[] = [...CAPTURES.map((capture) => `${PROSE}${capture.input}\n\n${PROSE}`), CAPTURES.map((capture) => `${PROSE.repeat(40)}${capture.input}\n\n`).join('')]
const SSE_FIXTURES = join(root, 'test/fixtures/sse')

const INPUTS: Array<[name: string, text: string]> = [
  ...TEXTS.map((text, index): [string, string] => [`text ${index}`, text]),
  ...TEXTS.map((text, index): [string, string] => [`sse ${index}`, sseOf(text.match(/[^]{1,23}/g) ?? [])]),
  ...readdirSync(SSE_FIXTURES)
    .filter((name) => name.endsWith('.sse'))
    .map((name): [string, string] => [`sse fixture ${name}`, readFileSync(join(SSE_FIXTURES, name), 'utf8')]),
  ...TEXTS.map((text, index): [string, string] => [`json ${index}`, index % 2 === 0 ? JSON.stringify(completionOf(text)) : `\n  ${JSON.stringify(completionOf(text), null, 2)}\n`]),
]

/** `text` in pieces of 1 to `longest` code points (never between the halves of a pair: a read is decoded whole characters). */
function split(text: string, seed: number, longest: number): string[] {
  const random = createSeededRandom(seed)
  const points = Array.from(text)
  const pieces: string[] = []
  for (let at = 0; at < points.length; ) {
    const size = 1 + Math.floor(random() * longest)
    pieces.push(points.slice(at, at + size).join(''))
    at += size
  }
  return pieces
}

async function* readsOf(pieces: Iterable<string>): AsyncGenerator<string> {
  for (const piece of pieces) yield piece
}

async function joined(reads: AsyncIterable<string>): Promise<string> {
  let text = ''
  for await (const read of reads) text += read
  return text
}

/** Options whose call ids count from 1, so two runs can be compared byte for byte. */
function counted(options: DsmlSanitizerOptions): DsmlSanitizerOptions {
  let count = 0
  return { ...options, generateId: () => `call_${++count}` }
}

async function run(pieces: Iterable<string>, settings: SanitizeSettings): Promise<{ output: string; summary: string }> {
  let output = ''
  const summary = await sanitize({ reads: readsOf(pieces) }, settings, async (text) => {
    output += text
  })
  return { output, summary }
}

/** Seeds and longest pieces (in code points) of the reads each input is split into. */
const READS: ReadonlyArray<readonly [seed: number, longest: number]> = [[1, 1], [2, 9], [3, 700], [4, 70_000]]

const FLAGS: Array<{ options: DsmlSanitizerOptions; asEvents: boolean }> = [
  { options: {}, asEvents: false },
  { options: {}, asEvents: true },
  { options: { knownTools: ['bash'] }, asEvents: false },
  { options: { mode: 'strip' }, asEvents: false },
  { options: { mode: 'strip' }, asEvents: true },
]

// ── the command, read by read ───────────────────────────────────────────────

describe('sanitize, read by read, writes what the whole-input command wrote', () => {
  test.each(INPUTS)('%s: every flag, split into reads of many sizes, detected or with --format', async (_name, text) => {
    const detected = detectBefore(text)
    for (const { options, asEvents } of FLAGS) {
      for (const format of ['auto', detected] as const) {
        const expected = before(text, detected, counted(options), asEvents)
        // One character a read for the short inputs; the long one (past the detection window) in pieces of up to 9 and more.
        for (const [seed, longest] of text.length < 20_000 ? READS : READS.slice(1)) {
          const got = await run(split(text, seed, longest), { format, options: counted(options), asEvents })
          expect(got.output, `${format} ${JSON.stringify(options)} --json=${asEvents} reads of up to ${longest}`).toBe(expected.output)
          expect(got.summary).toBe(expected.summary)
        }
      }
    }
  })

  test('the JSON body is the only format read whole: text and SSE are written before the input ends', async () => {
    const text = `${PROSE.repeat(2_000)}${CAPTURES[0]!.input}`
    for (const input of [text, sseOf(text.match(/[^]{1,50}/g) ?? [])]) {
      const pieces = input.match(/[^]{1,1000}/g)!
      let taken = 0
      let takenAtFirstWrite = -1
      async function* counting(): AsyncGenerator<string> {
        for (const piece of pieces) {
          taken++
          yield piece
        }
      }
      await sanitize({ reads: counting() }, { format: 'auto', options: {}, asEvents: false }, async (written) => {
        if (written !== '' && takenAtFirstWrite === -1) takenAtFirstWrite = taken
      })
      expect(takenAtFirstWrite).toBeGreaterThan(0)
      expect(takenAtFirstWrite).toBeLessThan(pieces.length / 2)
    }
  })

  test('a chat.completion with nothing to repair is written back as JSON (two-space indent), not as the word undefined', async () => {
    const body = completionOf('No markup here, only a < b.')
    const got = await run([JSON.stringify(body)], { format: 'auto', options: {}, asEvents: false })
    expect(got.output).toBe(`${JSON.stringify(body, null, 2)}\n`)
  })

  test('--format json on what is not JSON fails with one line', async () => {
    await expect(run(['hel', 'lo'], { format: 'json', options: {}, asEvents: false })).rejects.toThrow(/^the input is not JSON nested at most 512 deep \(try --format text or sse\)$/)
  })
})

// ── detection from the input's start ────────────────────────────────────────

describe('detectFormat decides from the start of the input as the whole-input command did', () => {
  const completion = JSON.stringify(completionOf(CAPTURES[0]!.input))
  const CASES: Array<[name: string, text: string, format: InputFormat]> = [
    ['a chat.completion', completion, 'json'],
    ['a chat.completion after whitespace', ` \n\t\r\n ${completion}`, 'json'],
    ['a pretty-printed chat.completion after blank lines', `\n\n${JSON.stringify(completionOf('hi'), null, 2)}\n`, 'json'],
    ['a JSON object without choices', JSON.stringify({ object: 'chat.completion', text: 'data: x' }), 'text'],
    ['a chat.completion cut short', completion.slice(0, -1), 'text'],
    ['a chat.completion with a data: line after it', `${completion}\ndata: {}\n\n`, 'sse'],
    ['a JSON array', '[{"choices":[]}]', 'text'],
    ['SSE', sseOf(['a', 'b']).replace(': keep-alive\n\n', ''), 'sse'],
    ['SSE whose first data: line comes after a comment line', sseOf(['a', 'b']), 'sse'],
    ['SSE after an event: field and comments, CRLF', ': one\r\n: two\r\nevent: x\r\ndata: {}\r\n\r\n', 'sse'],
    ['a data: line after a lone CR', 'text\rdata: x', 'sse'],
    ['a data: line after U+2028', 'text\u2028data: x', 'sse'],
    ['data: not at the start of a line', 'the data: field', 'text'],
    ['Data: in capitals', 'Data: x', 'text'],
    ['text', TEXTS[0]!, 'text'],
    ['text opening a brace', '{ not JSON }\nmore', 'text'],
    ['whitespace', ' \n\t', 'text'],
    ['nothing', '', 'text'],
  ]

  test.each(CASES)('%s', async (_name, text, format) => {
    expect(detectBefore(text)).toBe(format)
    for (const pieces of [[text], Array.from(text), split(text, 5, 3), split(text, 6, 40)]) {
      const input = await detectFormat(new InputReads({ reads: readsOf(pieces) }))
      expect(input.format).toBe(format)
      // Nothing is lost: text and SSE are handed on whole, the reads looked at included.
      if (input.format === 'json') expect(input.body).toEqual(JSON.parse(text))
      else expect(await joined(input.reads)).toBe(text)
    }
  })

  test(`a data: line counts within the first FORMAT_WINDOW (${FORMAT_WINDOW}) characters, read in any pieces`, async () => {
    const ending = 'x'.repeat(FORMAT_WINDOW - 6) // "\ndata:" then ends exactly at the window's end
    for (const [text, format] of [
      [`${ending}\ndata: {}\n\n`, 'sse'],
      [`${ending}x\ndata: {}\n\n`, 'text'],
    ] as const) {
      for (const longest of [1_000, 7, 4_096, FORMAT_WINDOW * 2]) {
        const input = await detectFormat(new InputReads({ reads: readsOf(text.match(new RegExp(`[^]{1,${longest}}`, 'g'))!) }))
        expect(input.format, `reads of ${longest}`).toBe(format)
      }
    }
  })

  test('text and SSE are decided without reading on: no further than the window, or the first data: line', async () => {
    for (const [first, format, most] of [
      ['plain prose. '.repeat(80), 'text', Math.ceil(FORMAT_WINDOW / 1040) + 1],
      [': keep-alive\n\ndata: {}\n\n', 'sse', 1],
    ] as const) {
      let taken = 0
      async function* endless(): AsyncGenerator<string> {
        for (;;) {
          taken++
          yield first
        }
      }
      expect((await detectFormat(new InputReads({ reads: endless() }))).format).toBe(format)
      expect(taken).toBeLessThanOrEqual(most)
    }
  })
})

// ── Node input and output ───────────────────────────────────────────────────

describe('Node input and output', () => {
  test('a file read a few bytes at a time is the text of the file read at once, characters split between reads included', async () => {
    const bytes = Buffer.concat([Buffer.from(`${CAPTURES[0]!.input} é € 😀 \uFEFF`), Buffer.from([0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0xff, 0xc3]), Buffer.from(' end')])
    const path = join(work, 'bytes.txt')
    writeFileSync(path, bytes)
    for (const size of [1, 2, 3, 5, 64]) {
      const input = textInput(path, size)
      expect(await joined(input.reads), `reads of ${size}`).toBe(readFileSync(path, 'utf8'))
      expect(input.whole?.()).toBe(readFileSync(path, 'utf8'))
    }
    await expect(joined(textInput(join(work, 'missing.txt')).reads)).rejects.toThrow(/^cannot read .*missing\.txt: no such file$/)
    expect(textInput('-').whole).toBeUndefined()
  })

  test('the writer waits while the stream is full, and a failed write is one line', async () => {
    let release: (() => void) | undefined
    const slow = new Writable({
      highWaterMark: 4,
      write(_chunk, _encoding, callback) {
        release = callback
      },
    })
    const write = textWriter(slow, 'the sink')
    let done = false
    const writing = write('more than four').then(() => (done = true))
    await new Promise(setImmediate)
    expect(done).toBe(false)
    release!()
    await writing
    expect(done).toBe(true)

    const broken = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('broken pipe'), { code: 'EPIPE' }))
      },
    })
    const writeBroken = textWriter(broken, 'standard output')
    await writeBroken('a').catch(() => {})
    await new Promise(setImmediate)
    await expect(writeBroken('b')).rejects.toThrow(/^cannot write standard output: EPIPE$/)
  })

  test('the built command gives the same bytes for a file and for standard input, in every format', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }
    const bin = join(root, manifest.bin['dsml-streams']!)
    const ids = (text: string): string => text.replace(/call_[A-Za-z0-9]{24}/g, 'call_ID')
    const long = TEXTS.at(-1)!
    for (const [name, text] of [
      ['long.txt', long],
      ['long.sse', sseOf(long.match(/[^]{1,31}/g)!)],
      ['long.json', ` ${JSON.stringify(completionOf(long))}`],
    ] as const) {
      const path = join(work, name)
      writeFileSync(path, text)
      for (const flags of [[], ['--json']]) {
        const fromFile = spawnSync(process.execPath, [bin, 'sanitize', ...flags, path], { encoding: 'utf8' })
        const fromStdin = spawnSync(process.execPath, [bin, 'sanitize', ...flags], { encoding: 'utf8', input: text })
        const format = detectBefore(text)
        const expected = before(text, format, counted({}), flags.length > 0)
        expect(fromFile.status, `${name} ${flags.join(' ')}`).toBe(0)
        expect(ids(fromFile.stdout)).toBe(ids(expected.output).replace(/call_\d+/g, 'call_ID'))
        expect(ids(fromStdin.stdout)).toBe(ids(fromFile.stdout))
        expect(fromFile.stderr).toBe(`${expected.summary}\n`)
        expect(fromStdin.stderr).toBe(fromFile.stderr)
      }
    }
  })
})
