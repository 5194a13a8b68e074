/**
 * The command-line side of a portable run under Deno, Bun or Node: reads
 * `[--file PATH]… [filter]` from the script's arguments, prints to stdout, and
 * exits non-zero on any failure or when no case ran. No `node:` imports: only
 * what Deno, Bun and Node all offer as globals.
 */
import type { Suite } from './harness.ts'
import { runSuites } from './run-suites.ts'

interface RuntimeGlobals {
  Deno?: { args: string[]; exit(code: number): never; version: { deno: string } }
  Bun?: { version: string }
  process?: { argv: string[]; exit(code: number): never; versions: { node?: string } }
}

const runtime = globalThis as unknown as RuntimeGlobals

function scriptArgs(): string[] {
  if (runtime.Deno) return runtime.Deno.args
  return runtime.process?.argv.slice(2) ?? []
}

/** The runtime and its version, as the run's first line names it. */
export function runtimeName(): string {
  if (runtime.Deno) return `deno ${runtime.Deno.version.deno}`
  if (runtime.Bun) return `bun ${runtime.Bun.version}`
  if (runtime.process?.versions.node) return `node ${runtime.process.versions.node}`
  return 'unknown runtime'
}

function exit(code: number): never {
  if (runtime.Deno) return runtime.Deno.exit(code)
  if (runtime.process) return runtime.process.exit(code)
  throw new Error(`exit(${code}): neither Deno.exit nor process.exit is available`)
}

export interface MainArguments {
  /** Cases files (paths relative to test/, as `suitesByFile` keys them) given with `--file`; all when none. */
  files: string[]
  filter: string | undefined
}

function parseArguments(args: readonly string[]): MainArguments | string {
  const files: string[] = []
  const rest: string[] = []
  for (let index = 0; index < args.length; index++) {
    if (args[index] !== '--file') {
      rest.push(args[index]!)
      continue
    }
    const file = args[++index]
    if (file === undefined) return '--file needs a path'
    files.push(file)
  }
  if (rest.length > 1) return `at most one filter (got ${rest.length}: ${rest.join(' ')})`
  return { files, filter: rest[0] }
}

/**
 * Runs the suites `select` picks for the parsed arguments, then exits: 0 when
 * every selected case passed, 1 on a failure or when none ran, 2 on bad arguments.
 */
export async function runAsMain(what: string, select: (args: MainArguments) => readonly Suite[] | string): Promise<never> {
  const parsed = parseArguments(scriptArgs())
  const suites = typeof parsed === 'string' ? parsed : select(parsed)
  if (typeof suites === 'string') {
    console.error(`usage: [--file PATH]… [filter]: ${suites}`)
    return exit(2)
  }
  const filter = typeof parsed === 'string' ? undefined : parsed.filter
  console.log(`${what} on ${runtimeName()}${filter === undefined ? '' : `, filter ${JSON.stringify(filter)}`}`)
  const counts = await runSuites(suites, { filter, print: (line) => console.log(line) })
  return exit(counts.failed > 0 || counts.passed === 0 ? 1 : 0)
}
