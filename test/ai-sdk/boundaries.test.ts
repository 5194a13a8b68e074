// `ai` and `@ai-sdk/provider` are optional peers: only src/ai-sdk/ may name them, and
// only as type imports (nothing is loaded at run time). Node-only: it reads src/.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const src = fileURLToPath(new URL('../../src', import.meta.url))
const PEER = /^(?:ai|ai\/.*|@ai-sdk\/.*)$/

function sources(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts')).map((path) => join(src, path))
}

/** Every `import … from 'x'` / `export … from 'x'` / `import('x')`, with whether it is type-only. */
function imports(code: string): Array<{ specifier: string; typeOnly: boolean }> {
  const found: Array<{ specifier: string; typeOnly: boolean }> = []
  for (const match of code.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)) {
    found.push({ specifier: match[3]!, typeOnly: match[2] !== undefined })
  }
  for (const match of code.matchAll(/import\(\s*'([^']+)'\s*\)/g)) found.push({ specifier: match[1]!, typeOnly: false })
  return found
}

test('only src/ai-sdk/ imports the AI SDK, and only types from @ai-sdk/provider', () => {
  const offenders: string[] = []
  for (const file of sources()) {
    const path = relative(src, file).split(sep).join('/')
    for (const { specifier, typeOnly } of imports(readFileSync(file, 'utf8'))) {
      if (!PEER.test(specifier)) continue
      if (!path.startsWith('ai-sdk/')) offenders.push(`${path}: imports ${specifier} outside src/ai-sdk/`)
      else if (!typeOnly || specifier !== '@ai-sdk/provider') offenders.push(`${path}: ${typeOnly ? 'type' : 'runtime'} import of ${specifier}`)
    }
  }
  expect(offenders).toEqual([])
})
