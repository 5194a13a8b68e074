/**
 * The gateway's request body read and written in pieces, beside the whole-text way, in one
 * process: `npm run bench:request` (report in `request-results.md`).
 *
 * - "in pieces": the gateway's own `readJsonBody` and `writeJsonBody` (decoded a slice at a time
 *   into the piece-fed reader, long strings kept as their pieces, written back with `jsonPieces`),
 *   given a pace that never waits and times the steps between the points where it would;
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
import type * as RequestBody from '../src/gateway/request-body.ts'
import type { Pace } from '../src/work-slices.ts'
import { consume, importAsBuilt, median } from './measure.ts'
import { prose } from './inputs.ts'

const argv = process.argv.slice(2)
const megabytes = Number(argv[argv.indexOf('--mb') + 1] ?? 25) || 25
const ROUNDS = 5
// The gateway's reading and writing as the build compiles them (tsx's transform makes them several times slower).
const { readJsonBody, writeJsonBody } = (await importAsBuilt<typeof RequestBody>(new URL('../src/gateway/request-body.ts', import.meta.url).pathname)) ?? (await import('../src/gateway/request-body.ts'))

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

/**
 * A `Pace` that never waits, and records the work done between its calls: the steps the gateway's
 * reading and writing take between the points where it may give the loop a turn.
 */
class StepClock {
  #last = 0
  longest = 0
  start(): void {
    this.#last = performance.now()
  }
  async turn(): Promise<void> {
    const now = performance.now()
    this.longest = Math.max(this.longest, now - this.#last)
    this.#last = now
  }
}

/** Read, then written back, in pieces, as the gateway does (`readJsonBody`, `writeJsonBody`); returns [ms, longest step ms]. */
async function inPieces(chunks: readonly Uint8Array[]): Promise<[number, number]> {
  let next = 0
  const body = new ReadableStream<Uint8Array>({ pull: (controller) => (next < chunks.length ? controller.enqueue(chunks[next++]!) : controller.close()) })
  const request = new Request('http://bench.test/', { method: 'POST', body, duplex: 'half' } as RequestInit)
  const clock = new StepClock()
  const pace = clock as unknown as Pace
  const started = performance.now()
  clock.start()
  const read = await readJsonBody(request, pace)
  if (read === undefined) throw new Error('the bench body is not JSON')
  await pace.turn(0)
  const written = await writeJsonBody(read.value, read.longTexts, pace)
  await pace.turn(0)
  consume(written.size)
  return [performance.now() - started, clock.longest]
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
  await inPieces(quarter)
  whole(quarter)
  const pieces: number[] = []
  const wholes: number[] = []
  const quarters: number[] = []
  let piecesStep = 0
  let wholeStep = 0
  for (let round = 0; round < ROUNDS; round++) {
    collect()
    const [ms, longest] = await inPieces(big)
    pieces.push(ms)
    piecesStep = Math.max(piecesStep, longest)
    collect()
    const [wholeMs, wholeLongest] = whole(big)
    wholes.push(wholeMs)
    wholeStep = Math.max(wholeStep, wholeLongest)
    collect()
    quarters.push((await inPieces(quarter))[0])
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
