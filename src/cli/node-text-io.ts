/**
 * Text in and out of Node for `dsml-streams sanitize`: a file or standard
 * input as a `TextInput` — the UTF-8 text of its reads (a character split
 * between two reads is decoded whole, as when the file is read at once) and,
 * for a regular file, the whole file again in one read (`readFileSync`, which
 * decodes it without a copy per read) — and a writable as a `WriteOutput`
 * that waits when the stream asks it to. Each failure is one line that names
 * what could not be read or written. Node glue.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs'
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import type { TextInput } from './input-reads.ts'
import type { WriteOutput } from './sanitize-command.ts'

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return 'no such file'
  if (code === 'EISDIR') return 'it is a directory'
  return error instanceof Error ? error.message : String(error)
}

function unreadable(file: string, error: unknown): Error {
  return new Error(`cannot read ${file === '-' ? 'standard input' : file}: ${reason(error)}`)
}

async function* textReads(file: string, readSize: number | undefined): AsyncGenerator<string> {
  const options = { encoding: 'utf8' as const, ...(readSize === undefined ? {} : { highWaterMark: readSize }) }
  const stream = file === '-' ? createReadStream('', { ...options, fd: 0 }) : createReadStream(file, options)
  try {
    for await (const read of stream) yield read as string
  } catch (error) {
    throw unreadable(file, error)
  }
}

/** `file` (`-`: standard input) as text. `readSize`: bytes per read (Node's default, 64 KiB, unless a test asks for less). */
export function textInput(file: string, readSize?: number): TextInput {
  const reads = textReads(file, readSize)
  if (file === '-') return { reads }
  const whole = (): string | undefined => {
    try {
      return statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined
    } catch (error) {
      throw unreadable(file, error)
    }
  }
  return { reads, whole }
}

/** Writes to `stream` (named `name` in an error), waiting for `drain` when a write says it is full. */
export function textWriter(stream: Writable, name: string): WriteOutput {
  let failure: unknown
  stream.on('error', (error) => (failure ??= error))
  const failed = (error: unknown) => new Error(`cannot write ${name}: ${(error as NodeJS.ErrnoException).code ?? reason(error)}`)
  return async (text) => {
    if (failure !== undefined) throw failed(failure)
    if (text === '' || stream.write(text)) return
    try {
      await once(stream, 'drain')
    } catch (error) {
      throw failed(error)
    }
  }
}
