/**
 * Text with no leak, beside the substring gate simpler sanitizers take
 * (`includes('DSML')` and each bar, then nothing when none is found): whole
 * and fed 64 characters at a time, at 1 MB and 4 MB, with no tool declared
 * and with 15 common tool names declared (markerless shapes are read then);
 * 1 MB fed at other chunk sizes, either side of `SHORT_TEXT`;
 * then history repair of 30 MB request bodies against `JSON.parse` of the
 * same body. The engine is the one that ships (bundled from `src/` with
 * esbuild, as `dist/` is), timed in interleaved rounds in one process.
 *
 *   npm run bench:no-leak   (node --expose-gc --import tsx bench/no-leak.ts)
 */
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import type * as Package from '../src/index.ts'
import { BARS } from '../src/dsml/grammar.ts'
import { blockDense, htmlText, prose, tsxText, xmlParameters } from './inputs.ts'
import { cpuModel, importAsBuilt, measureInterleaved, throughput } from './measure.ts'

const built = await importAsBuilt<typeof Package>(fileURLToPath(new URL('../src/index.ts', import.meta.url)))
if (built === undefined) throw new Error('esbuild could not bundle src/index.ts')
const { createDsmlSanitizer, sanitizeChatCompletionsRequest, sanitizeText } = built

const MB = 1e6
const BAR_LIST = [...BARS]
/** The gate: a text with neither the word nor a bar is left alone. */
const gate = (text: string): number => (text.includes('DSML') || BAR_LIST.some((bar) => text.includes(bar)) ? 1 : 0)
const COMMON_TOOLS = ['read', 'write', 'edit', 'bash', 'search', 'run', 'exec', 'get', 'set', 'test', 'function', 'tool', 'call', 'fetch', 'list']
const DECLARED = { knownTools: COMMON_TOOLS }

function fed(text: string, each: (piece: string) => number, size = 64): number {
  let total = 0
  for (let index = 0; index < text.length; index += size) total += each(text.slice(index, index + size))
  return total
}

function sanitizedFed(text: string, size = 64): number {
  const sanitizer = createDsmlSanitizer()
  return fed(text, (piece) => sanitizer.feed(piece).length, size) + sanitizer.end().length
}

const wholeLength = (text: string, options?: { knownTools: string[] }): number => sanitizeText(text, options).text.length

const SHAPES: ReadonlyArray<{ label: string; make(size: number): string }> = [
  { label: 'prose, `<` every ~200 chars', make: (size) => prose(size, 11) },
  { label: 'HTML', make: (size) => htmlText(size, 13) },
  { label: 'TypeScript / JSX', make: (size) => tsxText(size, 14) },
  { label: 'XML (`<param name>`, `<invoke …/>`)', make: (size) => xmlParameters(size, 15) },
]

const fixed = (value: number, digits = 0): string => value.toFixed(digits)
const rate = (size: number, ms: number): string => fixed(throughput(size, ms))
const print = (line = ''): void => console.log(line)

print('# Text with no leak, beside the substring gate')
print()
print(`Node ${process.version}, ${os.availableParallelism()} CPUs, ${await cpuModel()}; load average at start ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`)
print()
print('MB/s of input (1e6 UTF-16 code units per MB); medians of interleaved rounds. "gate" = `includes(\'DSML\')` and each bar,')
print('the shortcut the simpler sanitizers take (it recovers nothing markerless); ours ÷ gate is time(gate) / time(ours):')
print('above 1, ours is the faster. "declared": 15 common tool names declared, so markerless shapes are looked for too.')
print()
print('| Input | size | whole, ours | whole, ours declared | whole, gate | ours ÷ gate (declared) | fed 64, ours | fed 64, gate | ours ÷ gate |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const shape of SHAPES) {
  for (const size of [1 * MB, 4 * MB]) {
    const text = shape.make(size)
    if (wholeLength(text) !== text.length || wholeLength(text, DECLARED) !== text.length) throw new Error(`${shape.label}: not text with no leak`)
    const [ours, declared, gated] = measureInterleaved([() => wholeLength(text), () => wholeLength(text, DECLARED), () => gate(text)], { warmup: 3, minRuns: 9, maxRuns: 41, budgetMs: 1500 })
    const [oursFed, gateFed] = measureInterleaved([() => sanitizedFed(text), () => fed(text, gate)], { warmup: 2, minRuns: 7, maxRuns: 21, budgetMs: 2500 })
    const ratio = (mine: number, theirs: number): string => fixed(theirs / mine, 2)
    print(
      `| ${shape.label} | ${size / MB} MB | ${rate(size, ours!)} | ${rate(size, declared!)} | ${rate(size, gated!)} | ${ratio(ours!, gated!)} (${ratio(declared!, gated!)}) | ${rate(size, oursFed!)} | ${rate(size, gateFed!)} | ${ratio(oursFed!, gateFed!)} |`,
    )
  }
}
print()

// ── chunk sizes ─────────────────────────────────────────────────────────

const CHUNK_SIZES = [16, 64, 65, 128, 256, 257, 1024]
print('## Fed at other chunk sizes')
print()
print('MB/s of 1 MB fed in chunks of each size (no tool declared; medians of interleaved rounds). Up to `SHORT_TEXT` (256)')
print('characters a chunk is read one tag start at a time; a longer one is searched (`src/dsml/markup-starts.ts`).')
print()
print(`| Input | ${CHUNK_SIZES.map((size) => `fed ${size}`).join(' | ')} |`)
print(`|---|${CHUNK_SIZES.map(() => '---:').join('|')}|`)
for (const shape of SHAPES) {
  const text = shape.make(MB)
  const times = measureInterleaved(
    CHUNK_SIZES.map((size) => () => sanitizedFed(text, size)),
    { warmup: 2, minRuns: 7, maxRuns: 21, budgetMs: 3000 },
  )
  print(`| ${shape.label} | ${times.map((ms) => rate(MB, ms)).join(' | ')} |`)
}
print()

// ── history repair ───────────────────────────────────────────────────────

const HISTORY_SIZE = 30 * MB
const body = (assistant: string): string =>
  JSON.stringify({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: assistant }, { role: 'user', content: 'again' }] })
print(`## History repair of a ${HISTORY_SIZE / MB} MB request body`)
print()
print('`sanitizeChatCompletionsRequest(JSON.parse(body))` beside `JSON.parse(body)` alone: one long assistant message.')
print()
print('| Assistant message | parse + repair, ms | parse alone, ms | × parse | repair alone, MB/s |')
print('|---|---:|---:|---:|---:|')
const HISTORIES: ReadonlyArray<[string, string]> = [
  ['TypeScript / JSX, no leak', tsxText(HISTORY_SIZE, 21)],
  ['prose, no leak', prose(HISTORY_SIZE, 22)],
  ["`<` repeated (chains of partial tags, removed past the pending cap)", '<'.repeat(HISTORY_SIZE)],
  ['prose + 500 canonical blocks per MB (leaks)', blockDense(HISTORY_SIZE, 500 * (HISTORY_SIZE / MB), 23)],
]
for (const [label, assistant] of HISTORIES) {
  const json = body(assistant)
  const [repaired, parsed] = measureInterleaved(
    [() => (sanitizeChatCompletionsRequest(JSON.parse(json) as { messages: unknown[] }) as { messages: unknown[] }).messages.length, () => (JSON.parse(json) as { messages: unknown[] }).messages.length],
    { warmup: 1, minRuns: 3, maxRuns: 7, budgetMs: 4000 },
  )
  print(`| ${label} | ${fixed(repaired!)} | ${fixed(parsed!)} | ${fixed(repaired! / parsed!, 1)} | ${rate(HISTORY_SIZE, Math.max(0.01, repaired! - parsed!))} |`)
}
