#!/usr/bin/env node
/**
 * The `dsml-streams` command: `serve` (the gateway, what `npm start` runs),
 * `sanitize` (repair a file or standard input), `replay` (the replay upstream
 * on its own). Bad usage or input gives one line on stderr and a non-zero
 * exit, never a stack trace. Node glue.
 */
import { readFileSync } from 'node:fs'
import { commandFailure, readCommandLine } from './command-line.ts'
import type { InputFormat } from './input-format.ts'
import { textInput, textWriter } from './node-text-io.ts'
import { replay } from './replay-command.ts'
import { sanitize, SANITIZE_USAGE } from './sanitize-command.ts'
import { serve } from './serve-command.ts'

const USAGE = `Usage: dsml-streams <command> [options]

Repairs LLM output in which DeepSeek models leak tool calls as DSML markup.

Commands:
  serve      run the repairing gateway (Chat Completions, Messages, Responses)
  sanitize   repair a file or standard input (text, SSE or JSON) and print it
  replay     serve real captured leaks as an upstream, with no key

dsml-streams <command> --help (or -h) shows a command's options;
dsml-streams --version prints the version.
`

const FORMATS: readonly string[] = ['auto', 'text', 'sse', 'json']

/** The package's version, from its package.json (beside dist/ when installed, beside src/ in a checkout). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

function sanitizeCommand(argv: string[]): void {
  const { values, positionals } = readCommandLine('sanitize', argv, { format: { type: 'string' }, json: { type: 'boolean' }, 'known-tools': { type: 'string' }, mode: { type: 'string' } }, true)
  if (values.help === true) {
    console.log(SANITIZE_USAGE)
    return
  }
  if (positionals.length > 1) commandFailure('sanitize', `one FILE at most, got ${positionals.length}`, 2)
  const format = values.format ?? 'auto'
  if (!FORMATS.includes(format)) commandFailure('sanitize', `--format must be auto, text, sse or json, got ${format}`, 2)
  const mode = values.mode ?? 'recover'
  if (mode !== 'recover' && mode !== 'strip') commandFailure('sanitize', `--mode must be recover or strip, got ${mode}`, 2)
  const knownTools = values['known-tools']?.split(',').map((name) => name.trim()).filter((name) => name !== '')
  const settings = { format: format as 'auto' | InputFormat, options: { mode: mode as 'recover' | 'strip', ...(knownTools === undefined ? {} : { knownTools }) }, asEvents: values.json === true }
  // Read, repaired and written as it comes. An input that cannot be read (or not as the format), or an
  // output that cannot be written, is one line and exit 1, possibly after part of the output.
  sanitize(textInput(positionals[0] ?? '-'), settings, textWriter(process.stdout, 'standard output')).then(
    (summary) => console.error(summary),
    (error: unknown) => commandFailure('sanitize', error instanceof Error ? error.message : String(error), 1),
  )
}

const [command, ...rest] = process.argv.slice(2)
switch (command) {
  case 'serve':
    await serve(rest)
    break
  case 'sanitize':
    sanitizeCommand(rest)
    break
  case 'replay':
    replay(rest)
    break
  case undefined:
  case '--help':
  case '-h':
  case 'help':
    console.log(USAGE)
    break
  case '--version':
  case '-v':
  case 'version':
    console.log(packageVersion())
    break
  default:
    console.error(`dsml-streams: no such command ${JSON.stringify(command)} (commands: serve, sanitize, replay; dsml-streams --help for usage)`)
    process.exit(2)
}

