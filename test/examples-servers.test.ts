// The server examples, each on its own runtime, as a user runs them: examples/node-gateway.ts on
// Node, examples/deno-serve.ts on Deno, examples/bun-serve.ts on Bun, each importing the built
// package by name and proxying to `dsml-streams replay` over loopback. A real capture goes through
// each and comes back with its calls as tool_calls and no marker. Runs after `npm run build`.
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

const RUNTIMES: Array<[string, () => [string, string[]]]> = [
  ['examples/node-gateway.ts on Node', () => [process.execPath, ['--import', 'tsx', 'examples/node-gateway.ts']]],
  ['examples/deno-serve.ts on Deno', () => [join(root, 'node_modules/.bin/deno'), ['run', '--allow-net', '--allow-env', '--allow-read', `--import-map=${denoImportMap()}`, 'examples/deno-serve.ts']]],
  ['examples/bun-serve.ts on Bun', () => [join(root, 'node_modules/.bin/bun'), ['examples/bun-serve.ts']]],
]

for (const [name, command] of RUNTIMES) {
  test(`${name}: a real capture comes back with its calls as tool_calls, no marker, no warning`, async () => {
    const [executable, args] = command()
    const server = await startServing(executable, args, { DSML_UPSTREAM: `${upstream}/v1`, PORT: '0' })
    const response = await fetch(`${server.url}/v1/chat/completions`, CHERRY_REQUEST)
    const seen = readSseText(await response.text())
    expect(seen.calls.map((call) => call.name)).toEqual(['builtin_web_search', 'builtin_web_search'])
    expect(seen.finishReasons).toEqual(['tool_calls'])
    expect(seen.content).not.toContain('\uFF5C')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(server.output()).not.toMatch(/warn|request\.signal/i)
  }, 60_000)
}
