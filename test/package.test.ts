// The built package: every "exports" entry exists, and the package imports by its own name.
// Runs after `npm run build` (npm test builds first).
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>
  devDependencies: Record<string, string>
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

test('every dependency is pinned exactly', () => {
  for (const [name, version] of Object.entries(manifest.devDependencies)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/)
})

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
  expect(aiSdk.dsmlMiddleware().specificationVersion).toBe('v4')
  const chat = (await import(`${packageName}/chat-completions`)) as typeof import('../src/chat-completions/index.ts')
  expect(typeof chat.ChatCompletionsRepairStream).toBe('function')
})
