/**
 * The portable runner for Deno and Bun (vitest runs the same suites through
 * `test/all.test.ts`). Runs every case of `allSuites` in order, awaiting async
 * ones, prints each failure with its suite, case and error, and closes with
 * exactly one line `N passed, N failed`. Exits non-zero on any failure, or
 * when no case ran.
 *
 *   deno run --allow-read --allow-env --allow-sys=hostname --no-prompt test/portable.ts [filter]
 *   bun test/portable.ts [filter]
 *
 * `filter` (optional) is a case-sensitive substring of "suite > case".
 * Usually started through `node scripts/run-runtimes.mjs [filter]`.
 * No node: imports here: only what Deno and Bun both offer as globals.
 */
import type { TestCase } from './support/harness.ts'
import { allSuites } from './suites.ts'

/** Matches vitest's `testTimeout` in vitest.config.ts. */
const CASE_TIMEOUT_MS = 60_000

interface RuntimeGlobals {
  Deno?: { args: string[]; exit(code: number): never; version: { deno: string } }
  Bun?: { version: string }
  process?: { argv: string[]; exit(code: number): never }
}

const runtime = globalThis as unknown as RuntimeGlobals

function scriptArgs(): string[] {
  if (runtime.Deno) return runtime.Deno.args
  return runtime.process?.argv.slice(2) ?? []
}

function runtimeName(): string {
  if (runtime.Deno) return `deno ${runtime.Deno.version.deno}`
  if (runtime.Bun) return `bun ${runtime.Bun.version}`
  return 'unknown runtime'
}

function exit(code: number): never {
  if (runtime.Deno) return runtime.Deno.exit(code)
  if (runtime.process) return runtime.process.exit(code)
  throw new Error(`exit(${code}): neither Deno.exit nor process.exit is available`)
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

async function main(): Promise<number> {
  const args = scriptArgs()
  if (args.length > 1) {
    console.error(`usage: test/portable.ts [filter]  (got ${args.length} arguments)`)
    return 2
  }
  const filter = args[0]
  console.log(`portable runner on ${runtimeName()}${filter === undefined ? '' : `, filter ${JSON.stringify(filter)}`}`)

  let passed = 0
  let failed = 0
  const started = Date.now()
  for (const suite of allSuites) {
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
        console.log(`\nFAIL ${suite.name} > ${testCase.name}\n${describeError(error)}\n`)
      }
    }
    const mark = suiteFailed === 0 ? 'ok  ' : 'FAIL'
    console.log(`${mark} ${suite.name} (${cases.length} case${cases.length === 1 ? "" : "s"}, ${suiteFailed} failing, ${Date.now() - suiteStarted} ms)`)
  }

  if (passed + failed === 0) {
    console.log(filter === undefined ? 'no test cases found' : `no test case matches ${JSON.stringify(filter)}`)
  }
  console.log(`(${Date.now() - started} ms)`)
  console.log(`${passed} passed, ${failed} failed`)
  return failed > 0 || passed === 0 ? 1 : 0
}

exit(await main())
