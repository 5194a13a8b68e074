// What an editor shows on hover: every function and class the package's entry points export has a TSDoc
// description on its declaration (read with the TypeScript checker from the built declarations, as an
// editor reads them), and no declaration cites a file a user does not have (DESIGN.md). Runs after
// `npm run build`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { root } from './support/processes.ts'

test('every exported function and class has a description on hover; no declaration cites DESIGN.md', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> }
  const entries = Object.entries(manifest.exports).flatMap(([subpath, target]) => (typeof target === 'object' && target.types !== undefined ? [[subpath, join(root, target.types)] as const] : []))
  const program = ts.createProgram(entries.map(([, types]) => types), {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
  })
  const checker = program.getTypeChecker()
  const seen = new Set<string>()
  const bare: string[] = []
  for (const [subpath, types] of entries) {
    const file = program.getSourceFile(types)
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file)
    expect(module, subpath).toBeDefined()
    for (const exported of checker.getExportsOfModule(module!)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class))) continue
      const id = `${symbol.declarations?.[0]?.getSourceFile().fileName}:${symbol.name}`
      if (seen.has(id)) continue
      seen.add(id)
      if (ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() === '') bare.push(`${subpath} ${symbol.name}`)
    }
  }
  expect(seen.size).toBeGreaterThan(50)
  expect(bare).toEqual([])
  const citing = program.getSourceFiles().filter((file) => file.fileName.startsWith(join(root, 'dist')) && file.text.includes('DESIGN.md')).map((file) => file.fileName)
  expect(citing).toEqual([])
}, 60_000)
