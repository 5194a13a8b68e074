/** Runs every portable suite under vitest. Deno and Bun run the same list via `test/portable.ts`. */
import { registerSuites } from './support/vitest-suite.ts'
import { allSuites } from './suites.ts'

registerSuites(...allSuites)
