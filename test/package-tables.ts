/**
 * The portable tables against the built package. scripts/table-bundles.mjs
 * bundles this module with every cases file that reaches the library only
 * through the package's entry points (`src/index.ts`, `src/<entry>/index.ts`),
 * each entry replaced by its build (`dist/<entry>/index.mjs`), and lists the
 * cases files that reach a module the package does not export: those test
 * internals, cannot run against the package, and run on the sources instead
 * (vitest, and test/portable.ts in the runtimes scripts/run-runtimes.mjs
 * names). Every run says which files it did not run, and why.
 *
 * The bundle runs from the command line under Node, Deno and Bun
 * (`runPackageTablesAsMain`), and as a classic script in workerd, the edge
 * runtime's VM and Chromium, where the host calls `runPackageTables` and reads
 * the lines it printed.
 */
import { type CasesModule, suitesOf } from './support/cases-module.ts'
import { runSuites, type RunCounts, type RunOptions } from './support/run-suites.ts'
import { runAsMain } from './support/runtime-main.ts'

/** A cases file that imports a module the package does not export (the first one found). */
export interface SourcesOnlyFile {
  file: string
  module: string
}

export interface PackageTables {
  /** Cases files (relative to test/) with their modules, in test/suites.ts order. */
  files: ReadonlyArray<readonly [string, CasesModule]>
  sourcesOnly: readonly SourcesOnlyFile[]
}

/** What a run of the package tables leaves out, and why: one line per file, after a heading. */
export function sourcesOnlyLines(sourcesOnly: readonly SourcesOnlyFile[]): string[] {
  if (sourcesOnly.length === 0) return ['every cases file runs against the package']
  return [
    `not run against the package: ${sourcesOnly.length} cases files test modules the package does not export; they run on the sources instead (vitest, and test/portable.ts in the runtimes scripts/run-runtimes.mjs names):`,
    ...sourcesOnly.map((entry) => `  ${entry.file} (imports ${entry.module})`),
  ]
}

/** Runs every package table, after printing what it leaves out. */
export async function runPackageTables(tables: PackageTables, options: RunOptions): Promise<RunCounts> {
  for (const line of sourcesOnlyLines(tables.sourcesOnly)) options.print(line)
  const suites = tables.files.flatMap(([file, module]) => suitesOf(file, module))
  return runSuites(suites, options)
}

/** The command-line run under Node, Deno or Bun: `[--file PATH]… [filter]`, as test/portable.ts takes them. */
export async function runPackageTablesAsMain(tables: PackageTables): Promise<never> {
  for (const line of sourcesOnlyLines(tables.sourcesOnly)) console.log(line)
  return runAsMain('package tables, on the build (dist/),', ({ files }) => {
    const known = new Map(tables.files)
    const unknown = files.filter((file) => !known.has(file))
    if (unknown.length > 0) return `no package table ${unknown.join(', ')}`
    const chosen = files.length === 0 ? tables.files : files.map((file) => [file, known.get(file)!] as const)
    return chosen.flatMap(([file, module]) => suitesOf(file, module))
  })
}
