/**
 * How every subcommand reads its command line and says what is wrong with
 * it: one owner for the options every command has (`-h`/`--help`), and for
 * usage errors — one line on stderr that points to `--help`, exit 2 —
 * including the ones Node's `parseArgs` would spell over three lines (a
 * negative number after an option: "argument is ambiguous").
 */
import { parseArgs } from 'node:util'

type OptionTable = Record<string, { type: 'string' | 'boolean'; short?: string }>

/** The options every command takes besides its own. */
export const COMMON_OPTIONS = { help: { type: 'boolean', short: 'h' } } as const

/** One line on stderr, then exit: 2 for bad usage (pointing to `--help`), 1 for bad input. */
export function commandFailure(command: string, message: string, code: 1 | 2): never {
  console.error(`dsml-streams ${command}: ${message}${code === 2 ? ` (dsml-streams ${command} --help for usage)` : ''}`)
  process.exit(code)
}

/** `argv` read for `options`, or a one-line usage error. */
export function readCommandLine<Options extends OptionTable>(command: string, argv: readonly string[], options: Options, positionals = false) {
  try {
    return parseArgs({ args: [...argv], options: { ...options, ...COMMON_OPTIONS }, strict: true, allowPositionals: positionals })
  } catch (error) {
    commandFailure(command, usageMessage(error, argv), 2)
  }
}

/** What `parseArgs` found wrong, in one line. */
function usageMessage(error: unknown, argv: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown }).code
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && message.includes('ambiguous')) {
    // `--port -1`: the value looks like an option.
    const option = /'(--?[\w-]+)/.exec(message)?.[1]
    const at = option === undefined ? -1 : argv.indexOf(option)
    const value = at === -1 ? undefined : argv[at + 1]
    if (option !== undefined && value !== undefined) {
      return Number.isFinite(Number(value)) ? `${option} must not be negative, got ${value}` : `${option} needs a value, got the option ${value}`
    }
  }
  // "Unknown option '--x'. To specify a positional argument…": the first sentence says it.
  const unknown = /^Unknown option '[^']*'/.exec(message)
  if (unknown !== null) return unknown[0]
  return message.split('\n')[0]!
}
