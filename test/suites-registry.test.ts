/**
 * Guards `test/suites.ts`: every `*.cases.ts` under test/ must be imported
 * there (in sorted order) and all its suites registered, or its cases would
 * silently run nowhere (or in Node alone).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { Suite } from './support/harness.ts'
import { allSuites, suitesByFile } from './suites.ts'

const testDir = dirname(fileURLToPath(import.meta.url))

function casesFilesOnDisk(): string[] {
  return readdirSync(testDir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.cases.ts') && !path.split(sep).includes('node_modules'))
    .map((path) => `./${path.split(sep).join('/')}`)
    .sort()
}

function casesImportsInRegistry(): string[] {
  const source = readFileSync(join(testDir, 'suites.ts'), 'utf8')
  return [...source.matchAll(/^import\s+\*\s+as\s+\w+\s+from\s+'([^']+\.cases\.ts)'/gm)].map((match) => match[1] as string)
}

describe('test/suites.ts registry', () => {
  test('lists every *.cases.ts file under test/', () => {
    const onDisk = casesFilesOnDisk()
    expect(onDisk.length).toBeGreaterThan(0)
    expect(casesImportsInRegistry().slice().sort()).toEqual(onDisk)
    expect([...suitesByFile.keys()].sort()).toEqual(onDisk)
  })

  test('keeps the imports and the module table sorted by path', () => {
    const imports = casesImportsInRegistry()
    expect(imports).toEqual(imports.slice().sort())
    const keys = [...suitesByFile.keys()]
    expect(keys).toEqual(keys.slice().sort())
  })

  test('registers every suite each cases file exports, under its own path', async () => {
    for (const path of casesFilesOnDisk()) {
      const module = (await import(join(testDir, path))) as { suite?: Suite; suites?: Suite[] }
      const exported = [...(module.suite ? [module.suite] : []), ...(module.suites ?? [])]
      expect(exported.length, `${path} exports no suite`).toBeGreaterThan(0)
      const registered = suitesByFile.get(path) ?? []
      for (const suite of exported) {
        expect(registered.includes(suite), `${path}: suite "${suite.name}" is not registered under its path`).toBe(true)
        expect(allSuites.includes(suite)).toBe(true)
      }
    }
  })

  test('has unique suite names and no empty suite', () => {
    const names = allSuites.map((suite) => suite.name)
    expect(new Set(names).size).toBe(names.length)
    for (const suite of allSuites) expect(suite.cases.length, `suite "${suite.name}" has no cases`).toBeGreaterThan(0)
  })
})
