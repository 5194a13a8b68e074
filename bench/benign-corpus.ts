/**
 * `npm run bench:benign`: text nobody here wrote must come out byte for byte.
 * Every Markdown, HTML, XML, SVG, text and `.d.ts` file under `node_modules/`
 * (after `npm ci`: about 3,000 files, 29 M characters of READMEs, docs,
 * declarations and markup) goes through `sanitizeText`, and one file in seven
 * through `DsmlSanitizerStream` in seeded random pieces, once with no tools
 * declared and once with 15 common tool names declared (so markerless shapes,
 * which need a declared tool, are tried too). A changed byte, a recovered
 * call, a thrown error, or a stream that differs from the whole text fails the
 * run (exit 1). Prints one line per mode and the files that changed.
 *
 *   npm run bench:benign            # both modes
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DsmlSanitizerStream, type DsmlSanitizerOptions, sanitizeText } from '../src/dsml/index.ts'
import { createRandom } from './inputs.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules')
const EXTENSIONS = ['.md', '.mdx', '.html', '.xml', '.svg', '.txt', '.d.ts']
/** Larger files are left out: they are generated bundles, not prose. */
const MAX_FILE_BYTES = 2_000_000
/** Names an agent commonly declares, some of them words prose uses too. */
const COMMON_TOOLS = ['read', 'write', 'edit', 'bash', 'search', 'run', 'exec', 'get', 'set', 'test', 'function', 'tool', 'call', 'fetch', 'list']
const STREAM_EVERY = 7

function corpusFiles(directory: string, files: string[] = []): string[] {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name)
    let stat
    try {
      stat = statSync(path)
    } catch {
      continue // a dangling link
    }
    if (stat.isDirectory()) {
      if (name !== '.bin' && name !== '.cache') corpusFiles(path, files)
    } else if (stat.size < MAX_FILE_BYTES && EXTENSIONS.some((extension) => name.endsWith(extension))) {
      files.push(path)
    }
  }
  return files
}

/** The text a `DsmlSanitizerStream` gives for `text` fed in random pieces of 1 to 200 characters. */
async function streamed(text: string, options: DsmlSanitizerOptions, random: () => number): Promise<string> {
  const pieces: string[] = []
  for (let index = 0; index < text.length; ) {
    const size = 1 + Math.floor(random() * 200)
    pieces.push(text.slice(index, index + size))
    index += size
  }
  const source = new ReadableStream<string>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece)
      controller.close()
    },
  })
  const reader = source.pipeThrough(new DsmlSanitizerStream(options)).getReader()
  let out = ''
  for (let read = await reader.read(); !read.done; read = await reader.read()) if (read.value.type === 'text') out += read.value.text
  return out
}

interface ModeResult {
  changed: string[]
  calls: number
  streamDiffers: string[]
  errors: string[]
  characters: number
  milliseconds: number
}

async function runMode(files: readonly string[], options: DsmlSanitizerOptions): Promise<ModeResult> {
  const result: ModeResult = { changed: [], calls: 0, streamDiffers: [], errors: [], characters: 0, milliseconds: 0 }
  const random = createRandom(21)
  const started = performance.now()
  for (const [index, file] of files.entries()) {
    const name = relative(root, file)
    const text = readFileSync(file, 'utf8')
    result.characters += text.length
    try {
      const clean = sanitizeText(text, options)
      result.calls += clean.calls.length
      if (clean.text !== text || clean.calls.length > 0) result.changed.push(`${name} (${text.length - clean.text.length} characters removed, ${clean.calls.length} calls)`)
      if (index % STREAM_EVERY === 0 && (await streamed(text, options, random)) !== clean.text) result.streamDiffers.push(name)
    } catch (error) {
      result.errors.push(`${name}: ${String(error).slice(0, 200)}`)
    }
  }
  result.milliseconds = performance.now() - started
  return result
}

const files = corpusFiles(root).sort()
if (files.length === 0) {
  console.error(`benign corpus: no files under ${root} (run npm ci first)`)
  process.exit(1)
}
let failed = false
for (const [label, options] of [['no tools declared', {}], [`${COMMON_TOOLS.length} common tool names declared`, { knownTools: COMMON_TOOLS }]] as const) {
  const result = await runMode(files, options)
  for (const line of [...result.changed.map((name) => `changed ${name}`), ...result.streamDiffers.map((name) => `stream differs from whole: ${name}`), ...result.errors.map((error) => `error ${error}`)].slice(0, 25)) {
    console.log(`  ${line}`)
  }
  const bad = result.changed.length + result.streamDiffers.length + result.errors.length
  if (bad > 0) failed = true
  console.log(
    `benign corpus, ${label}: ${files.length} files, ${(result.characters / 1e6).toFixed(1)} M characters, ` +
      `${result.changed.length} changed, ${result.calls} calls, ${result.streamDiffers.length} stream≠whole, ${result.errors.length} errors ` +
      `(${Math.round(result.milliseconds)} ms)`,
  )
}
process.exit(failed ? 1 : 0)
