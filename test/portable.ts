/**
 * The portable runner on the TypeScript sources, for Deno, Bun and other Nodes
 * (vitest runs the same suites through `test/all.test.ts`): every suite of
 * `allSuites`, or those of the cases files named with `--file` (paths relative
 * to test/, e.g. `--file ./dsml/hold.cases.ts`), optionally filtered by a
 * case-sensitive substring of "suite > case". Closes with exactly one line
 * `N passed, N failed`; exits non-zero on any failure, or when no case ran.
 *
 *   deno run --allow-read --allow-env --allow-sys=hostname --no-prompt test/portable.ts [--file PATH]… [filter]
 *   bun test/portable.ts [--file PATH]… [filter]
 *   node test/portable.ts [--file PATH]… [filter]        (Node 22.18+, which strips types)
 *
 * Usually started through `node scripts/run-runtimes.mjs`, which gives it the
 * cases files the built package cannot run (test/package-tables.ts runs the rest).
 */
import { allSuites, suitesByFile } from './suites.ts'
import { runAsMain } from './support/runtime-main.ts'

await runAsMain('portable tables, on the sources,', ({ files }) => {
  if (files.length === 0) return allSuites
  const unknown = files.filter((file) => !suitesByFile.has(file))
  if (unknown.length > 0) return `no cases file ${unknown.join(', ')} in test/suites.ts`
  return files.flatMap((file) => suitesByFile.get(file)!)
})
