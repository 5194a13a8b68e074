/**
 * The gateway's request body read and written in pieces, beside the whole-text way, in one
 * process: `npm run bench:request` (report in `request-results.md`).
 *
 * - "in pieces": the bytes decoded 256 KiB at a time and fed to `createJsonReader` (long strings
 *   kept as their pieces, `LongTexts`), then written back with `jsonPieces` and encoded a piece
 *   at a time, as `readJsonBody` and `jsonBodyBytes` do (without the loop turns);
 * - "whole": the bytes decoded at once, `JSON.parse`, `JSON.stringify`, encoded at once: what the
 *   gateway did before, and what any proxy that parses its body does.
 *
 * For each shape: the median time of each way over interleaved rounds, their ratio, the longest
 * single step of each (a feed or a written piece; the whole way is one step), and the pieces' doubling
 * t(4n)/t(n) (about 4 when linear).
 *
 *   node --expose-gc --import tsx bench/request-body.ts [--mb 25]
 */
import { writeFileSync } from 'node:fs'
import { createJsonReader } from '../src/json-reader.ts'
import { jsonPieces } from '../src/json-pieces.ts'
import { LongTexts } from '../src/long-texts.ts'
import { consume, median } from './measure.ts'
import { prose } from './inputs.ts'

const SLICE_BYTES = 256 * 1024
const argv = process.argv.slice(2)
const megabytes = Number(argv[argv.indexOf('--mb') + 1] ?? 25) || 25
const ROUNDS = 5

interface Shape {
  name: string
  body: (size: number) => string
}

const history = (size: number, escaped: boolean): string => {
  const messages: Array<{ role: string; content: string }> = []
  let length = 0
  for (let index = 0; length < size; index++) {
    const text = prose(1100, index + 1)
    const content = escaped ? `${text.slice(0, 500)}\n"quoted" \\ path\n${text.slice(500)}` : text
    messages.push({ role: index % 2 === 0 ? 'user' : 'assistant', content })
    length += content.length + 40
  }
  return JSON.stringify({ model: 'm', messages })
}

const SHAPES: Shape[] = [
  { name: "one message of `<` (the siege's row 3)", body: (size) => JSON.stringify({ model: 'm', messages: [{ role: 'assistant', content: '<'.repeat(size) }] }) },
  { name: 'a history of ~1.1 KB messages, each with newlines, quotes and a backslash', body: (size) => history(size, true) },
  { name: 'a history of ~1.1 KB messages, no escapes', body: (size) => history(size, false) },
]

/** Bytes as a client's body arrives: 64 KiB chunks. */
function chunksOf(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text)
  const chunks: Uint8Array[] = []
  for (let start = 0; start < bytes.length; start += 65_536) chunks.push(bytes.subarray(start, start + 65_536))
  return chunks
}

/** Read, then written back, in pieces; returns [ms, longest step ms]. */
function inPieces(chunks: readonly Uint8Array[]): [number, number] {
  const started = performance.now()
  let longest = 0
  const step = (work: () => void): void => {
    const before = performance.now()
    work()
    longest = Math.max(longest, performance.now() - before)
  }
  const longTexts = new LongTexts()
  const reader = createJsonReader({ longTexts })
  const decoder = new TextDecoder()
  const slice = new Uint8Array(SLICE_BYTES)
  let filled = 0
  for (const chunk of chunks) {
    slice.set(chunk, filled)
    filled += chunk.length
    if (filled + 65_536 > SLICE_BYTES) {
      step(() => reader.feed(decoder.decode(slice.subarray(0, filled), { stream: true })))
      filled = 0
    }
  }
  let value: unknown
  step(() => {
    reader.feed(decoder.decode(slice.subarray(0, filled)))
    value = reader.end()?.value
  })
  const encoder = new TextEncoder()
  let written = 0
  const pieces = jsonPieces(value, { longTexts })
  for (;;) {
    let done = false
    step(() => {
      const next = pieces.next()
      if (next.done === true) done = true
      else written += encoder.encode(next.value).length
    })
    if (done) break
  }
  consume(written)
  return [performance.now() - started, longest]
}

/** Read, then written back, whole; returns [ms, longest step ms] (one step). */
function whole(chunks: readonly Uint8Array[]): [number, number] {
  const started = performance.now()
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
  consume(new TextEncoder().encode(JSON.stringify(value)).length)
  const ms = performance.now() - started
  return [ms, ms]
}

const collect = (): void => (globalThis as { gc?: () => void }).gc?.()

const lines: string[] = []
const print = (line = ''): void => {
  lines.push(line)
  console.log(line)
}

print('# The request body in pieces')
print()
print(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Produced by \`npm run bench:request\` (\`bench/request-body.ts\`); method in \`bench/README.md\`.`)
print()
print(`Each shape at ${megabytes} MB of JSON text (and at a quarter of it for the doubling), read from 64 KiB chunks and written back; median of ${ROUNDS} interleaved rounds.`)
print()
print('| shape | in pieces: ms (MB/s) | whole: ms (MB/s) | pieces / whole | longest step: pieces / whole | pieces t(4n)/t(n) |')
print('|---|---:|---:|---:|---:|---:|')
for (const shape of SHAPES) {
  const big = chunksOf(shape.body(megabytes * 1_000_000))
  const quarter = chunksOf(shape.body((megabytes * 1_000_000) / 4))
  const mb = big.reduce((sum, chunk) => sum + chunk.length, 0) / 1e6
  inPieces(quarter)
  whole(quarter)
  const pieces: number[] = []
  const wholes: number[] = []
  const quarters: number[] = []
  let piecesStep = 0
  let wholeStep = 0
  for (let round = 0; round < ROUNDS; round++) {
    collect()
    const [ms, longest] = inPieces(big)
    pieces.push(ms)
    piecesStep = Math.max(piecesStep, longest)
    collect()
    const [wholeMs, wholeLongest] = whole(big)
    wholes.push(wholeMs)
    wholeStep = Math.max(wholeStep, wholeLongest)
    collect()
    quarters.push(inPieces(quarter)[0])
  }
  const [p, w, q] = [median(pieces), median(wholes), median(quarters)]
  print(
    `| ${shape.name} | ${p.toFixed(0)} (${(mb / (p / 1000)).toFixed(0)}) | ${w.toFixed(0)} (${(mb / (w / 1000)).toFixed(0)}) | ${(p / w).toFixed(2)} | ${piecesStep.toFixed(1)} / ${wholeStep.toFixed(0)} ms | ${(p / q).toFixed(2)} |`,
  )
}
print()
print('The longest step is the most any one of them holds the event loop (the gateway turns it between steps once a slice of 4 ms is taken); a collection of the garbage collector that lands in a step counts in it.')
writeFileSync(new URL('./request-results.md', import.meta.url), `${lines.join('\n')}\n`)
console.log('saved in bench/request-results.md')
