/**
 * Registers portable suites (see `./harness.ts`) with vitest. Only vitest test
 * files import this module; `test/portable.ts` (Deno, Bun) never does.
 */
import { describe, test } from 'vitest'
import type { Suite } from './harness.ts'

export function registerSuites(...suites: Suite[]): void {
  for (const suite of suites) {
    describe(suite.name, () => {
      for (const testCase of suite.cases) test(testCase.name, testCase.run)
    })
  }
}
