/**
 * A portable test table: suites are plain data (name + function), so the same
 * cases run under vitest (Node) and under the small runner that Deno and Bun
 * execute (`test/portable.ts`). Assertions come from `./assert.ts`, not from a
 * framework, for the same reason.
 */

export interface TestCase {
  name: string
  run: () => void | Promise<void>
}

export interface Suite {
  name: string
  cases: TestCase[]
}

/** Builds a suite: `defineSuite('dsml/parse', (test) => { test('v1-canonical', () => ...) })`. */
export function defineSuite(name: string, body: (test: (caseName: string, run: TestCase['run']) => void) => void): Suite {
  const cases: TestCase[] = []
  body((caseName, run) => {
    if (cases.some((existing) => existing.name === caseName)) {
      throw new Error(`Duplicate test name in suite "${name}": "${caseName}"`)
    }
    cases.push({ name: caseName, run })
  })
  return { name, cases }
}
