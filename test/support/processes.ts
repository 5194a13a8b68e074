/**
 * Processes the Node-only tests start: a command that prints the URL it
 * serves on, and the built `dsml-streams replay` upstream. Every process
 * started is killed by `stopAll`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('../..', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }
/** The built `dsml-streams` command. */
export const bin = join(root, manifest.bin['dsml-streams']!)

const started: ChildProcess[] = []

export interface Served {
  /** The first `http://127.0.0.1:…` URL the process printed. */
  url: string
  /** Everything it printed so far (stdout and stderr). */
  output(): string
}

/** Starts `command args` (env added to this process's) and resolves once it prints a loopback URL. */
export function startServing(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env } })
  started.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const read = (data: Buffer): void => {
      output += data.toString()
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(output)
      if (found !== null) resolve({ url: found[0], output: () => output })
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${output}`)))
  })
}

/** The built replay upstream on a free port. */
export function startReplay(): Promise<Served> {
  return startServing(process.execPath, [bin, 'replay', '--port', '0'])
}

export function stopAll(): void {
  for (const child of started.splice(0)) child.kill('SIGKILL')
}

/** A streaming chat request for the Cherry capture (two calls), as a client sends it. */
export const CHERRY_REQUEST: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'cherry-14747-captured-sse-deltas', stream: true, messages: [{ role: 'user', content: 'go' }] }),
}
