/**
 * Runs portable suites in order, outside vitest: under Deno, Bun and other
 * Nodes (test/portable.ts, on the sources), and in every runtime the built
 * package is tried in (test/package-tables.ts: Node, Deno, Bun, workerd, the
 * edge runtime, Chromium). Async cases are awaited, each under a timeout; each
 * failure is printed with its suite, case and error, each suite with a one-line
 * summary, and the run closes with exactly one line `N passed, N failed`.
 * Uses nothing but the language and `setTimeout`, so it runs anywhere.
 */
import type { Suite, TestCase } from './harness.ts'

/** Matches vitest's `testTimeout` in vitest.config.ts. */
const CASE_TIMEOUT_MS = 60_000

export interface RunOptions {
  /** A case runs when `"suite > case"` contains it (case-sensitive); every case when absent. */
  filter?: string
  /** Where each line goes. */
  print: (line: string) => void
}

export interface RunCounts {
  passed: number
  failed: number
}

/** Message and stack, without repeating the message (V8 stacks start with it; JavaScriptCore's do not). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `thrown non-Error: ${String(error)}`
  const head = `${error.name}: ${error.message}`
  const stack = error.stack ?? ''
  if (stack.startsWith(head)) return stack
  return stack ? `${head}\n${stack}` : head
}

async function runCase(testCase: TestCase): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${CASE_TIMEOUT_MS} ms`)), CASE_TIMEOUT_MS)
  })
  try {
    await Promise.race([Promise.resolve().then(testCase.run), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Runs every case of `suites` that the filter selects; a run that selects none says so (and counts as failed by its callers). */
export async function runSuites(suites: readonly Suite[], options: RunOptions): Promise<RunCounts> {
  const { filter, print } = options
  let passed = 0
  let failed = 0
  const started = Date.now()
  for (const suite of suites) {
    const cases = suite.cases.filter((testCase) => filter === undefined || `${suite.name} > ${testCase.name}`.includes(filter))
    if (cases.length === 0) continue
    let suiteFailed = 0
    const suiteStarted = Date.now()
    for (const testCase of cases) {
      try {
        await runCase(testCase)
        passed++
      } catch (error) {
        failed++
        suiteFailed++
        print(`\nFAIL ${suite.name} > ${testCase.name}\n${describeError(error)}\n`)
      }
    }
    const mark = suiteFailed === 0 ? 'ok  ' : 'FAIL'
    print(`${mark} ${suite.name} (${cases.length} case${cases.length === 1 ? '' : 's'}, ${suiteFailed} failing, ${Date.now() - suiteStarted} ms)`)
  }
  if (passed + failed === 0) print(filter === undefined ? 'no test cases found' : `no test case matches ${JSON.stringify(filter)}`)
  print(`(${Date.now() - started} ms)`)
  print(`${passed} passed, ${failed} failed`)
  return { passed, failed }
}
