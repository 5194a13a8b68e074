/**
 * Where the CLI finds the real captured leaks, and how it reads them (Node glue).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LeakCapture } from './leaks-report.ts'
import type { ReplayCapture } from './replay-upstream.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** The shared capture set beside the project, else the copy kept with the tests. */
export function defaultFixturePath(): string {
  const shared = resolve(root, '../shared/fixtures/leaks-real.json')
  return existsSync(shared) ? shared : resolve(root, 'test/fixtures/leaks-real.json')
}

/** Reads a capture file: a JSON array of `{ id, input, chunks?, expected_calls?, ... }`. */
export function readCaptures(path: string): Array<LeakCapture & ReplayCapture> {
  const captures = JSON.parse(readFileSync(path, 'utf8')) as Array<LeakCapture & ReplayCapture>
  if (!Array.isArray(captures)) throw new Error(`Cannot read fixtures in ${path}: expected a JSON array of captures`)
  return captures
}
