// scripts/table-bundles.mjs sorts the cases files: those that reach the library only through the
// package's entry points run against the build (in every runtime, scripts/run-runtimes.mjs);
// those that reach a module the package does not export run on the sources only. Every cases
// file lands in exactly one list, each sources-only file with a module it really imports, and the
// bundles it builds hold the build, never a source module. Runs after `npm run build`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
// @ts-expect-error: a plain .mjs script without declarations
import { buildTableBundles, sortCasesFiles } from '../scripts/table-bundles.mjs'
import { suitesByFile } from './suites.ts'
import { root } from './support/processes.ts'

interface Sorting {
  packageFiles: string[]
  sourcesOnly: Array<{ file: string; module: string }>
}

test('every cases file is sorted once: against the package, or on the sources with the module the package does not export', async () => {
  const { packageFiles, sourcesOnly } = (await sortCasesFiles()) as Sorting
  const sorted = [...packageFiles, ...sourcesOnly.map((entry) => entry.file)]
  expect([...sorted].sort()).toEqual([...suitesByFile.keys()].sort())
  expect(new Set(sorted).size).toBe(sorted.length)
  expect(packageFiles).toContain('./dsml/stream.cases.ts')
  expect(packageFiles).toContain('./anthropic/dialect.cases.ts')
  expect(sourcesOnly).toContainEqual({ file: './dsml/hold.cases.ts', module: 'src/dsml/hold.ts' })
  for (const entry of sourcesOnly) {
    expect(entry.module, entry.file).toMatch(/^src\/.+\.ts$/)
    expect(entry.module, `${entry.file}: not an entry point`).not.toMatch(/^src\/(?:[a-z-]+\/)?index\.ts$/)
  }
}, 60_000)

test('the bundles import the build: the ES module imports every entry point from dist/ (but the Node glue) and no source (table-bundles.mjs refuses any but the import-free replay framing); the classic script names every package table', async () => {
  const built = (await buildTableBundles()) as Sorting & { modulePath: string; scriptPath: string }
  const module = readFileSync(built.modulePath, 'utf8')
  expect(module).toContain(`from ${JSON.stringify(join(root, 'dist/dsml/index.mjs'))}`)
  expect(module).not.toMatch(/from ["'][^"']*\/src\//)
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> }
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    // dsml-streams/node is node:http glue: no portable table can load it in workerd or a browser (test/node/ tests it on Node).
    if (typeof target === 'string' || subpath === './node') continue
    expect(module, `the tables load ${target.default}`).toContain(`from ${JSON.stringify(join(root, target.default))}`)
  }
  const script = readFileSync(built.scriptPath, 'utf8')
  expect(script).toContain('globalThis.dsmlTestFiles')
  for (const file of built.packageFiles) expect(script, file).toContain(JSON.stringify(file))
}, 60_000)
