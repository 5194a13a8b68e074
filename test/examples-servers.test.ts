// The server examples, each on its own runtime, as a user runs them: examples/node-gateway.ts on
// Node, examples/deno-serve.ts on Deno, examples/bun-serve.ts on Bun, and the framework recipes on
// Node (examples/hono.ts, examples/express.ts, examples/fastify.ts, each mounting the gateway under
// /api; examples/nextjs-route.ts, a Next.js route handler, run as a plain module), each importing
// the built package by name and proxying to `dsml-streams replay` over loopback. A real capture
// goes through each and comes back with its calls as tool_calls and no marker; under /api, a
// request for another path passes through to the upstream. Runs after `npm run build`.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readSseText } from './gateway/support.ts'
import { CHERRY_REQUEST, root, startReplay, startServing, stopAll } from './support/processes.ts'

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> }
const work = mkdtempSync(join(tmpdir(), 'dsml-streams-examples-'))
let upstream = ''

beforeAll(async () => {
  upstream = (await startReplay()).url
}, 30_000)

afterAll(() => {
  stopAll()
  rmSync(work, { recursive: true, force: true })
})

/** Deno resolves the package by name through an import map of the built entries (as `deno add npm:dsml-streams` would). */
function denoImportMap(): string {
  const imports: Record<string, string> = {}
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue
    imports[`dsml-streams${subpath.slice(1)}`] = join(root, target.default)
  }
  const path = join(work, 'import-map.json')
  writeFileSync(path, JSON.stringify({ imports }))
  return path
}

/** Each example, how it is started, and the prefix it mounts the gateway under. */
const RUNTIMES: Array<[string, () => [string, string[]], string]> = [
  ['examples/node-gateway.ts on Node', () => [process.execPath, ['--import', 'tsx', 'examples/node-gateway.ts']], ''],
  ['examples/deno-serve.ts on Deno', () => [join(root, 'node_modules/.bin/deno'), ['run', '--allow-net', '--allow-env', '--allow-read', `--import-map=${denoImportMap()}`, 'examples/deno-serve.ts']], ''],
  ['examples/bun-serve.ts on Bun', () => [join(root, 'node_modules/.bin/bun'), ['examples/bun-serve.ts']], ''],
  ['examples/hono.ts (Hono on @hono/node-server)', () => [process.execPath, ['--import', 'tsx', 'examples/hono.ts']], '/api'],
  ['examples/express.ts (Express 5, createNodeListener)', () => [process.execPath, ['--import', 'tsx', 'examples/express.ts']], '/api'],
  ['examples/fastify.ts (Fastify, createNodeListener)', () => [process.execPath, ['--import', 'tsx', 'examples/fastify.ts']], '/api'],
]

for (const [name, command, prefix] of RUNTIMES) {
  test(`${name}: a real capture comes back with its calls as tool_calls, no marker, no warning${prefix === '' ? '' : `; other paths under ${prefix} pass through`}`, async () => {
    const [executable, args] = command()
    const server = await startServing(executable, args, { DSML_UPSTREAM: `${upstream}/v1`, PORT: '0' })
    const response = await fetch(`${server.url}${prefix}/v1/chat/completions`, CHERRY_REQUEST)
    const seen = readSseText(await response.text())
    expect(seen.calls.map((call) => call.name)).toEqual(['builtin_web_search', 'builtin_web_search'])
    expect(seen.finishReasons).toEqual(['tool_calls'])
    expect(seen.content).not.toContain('\uFF5C')
    if (prefix !== '') {
      // The replay's list of captures, through the gateway's pass-through: the upstream's own answer.
      const listed = await fetch(`${server.url}${prefix}/v1/captures`)
      expect([listed.status, ((await listed.json()) as { data: unknown[] }).data.length]).toEqual([200, 21])
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(server.output()).not.toMatch(/warn|request\.signal/i)
  }, 60_000)
}

test('examples/nextjs-route.ts, a Next.js App Router route handler run as a plain module: POST repairs a capture under /api, GET passes through', async () => {
  const script = [
    "const route = await import('./examples/nextjs-route.ts')",
    `const body = ${JSON.stringify(CHERRY_REQUEST.body)}`,
    "const posted = await route.POST(new Request('http://localhost:3000/api/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))",
    "const listed = await route.GET(new Request('http://localhost:3000/api/v1/captures'))",
    "console.log(JSON.stringify({ stream: await posted.text(), listed: listed.status, dynamic: route.dynamic }))",
  ].join('\n')
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, DSML_UPSTREAM: `${upstream}/v1` } })
  const result = JSON.parse(output) as { stream: string; listed: number; dynamic: string }
  const seen = readSseText(result.stream)
  expect(seen.calls.map((call) => call.name)).toEqual(['builtin_web_search', 'builtin_web_search'])
  expect(seen.content).not.toContain('\uFF5C')
  expect([result.listed, result.dynamic]).toEqual([200, 'force-dynamic'])
}, 60_000)
