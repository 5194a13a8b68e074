/**
 * Where the CLI finds the real captured leaks, and how it reads them (Node glue).
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import realCaptures from './leaks-real.json' with { type: 'json' }
import type { LeakCapture } from './leaks-report.ts'
import type { ReplayCapture } from './replay-upstream.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** The real captures kept with the tests (`src/cli/leaks-real.json`), built into the command: the replay upstream serves these. */
export function builtInCaptures(): Array<LeakCapture & ReplayCapture> {
  return realCaptures as Array<LeakCapture & ReplayCapture>
}

export const BUILT_IN_CAPTURES = 'the 21 real captures of src/cli/leaks-real.json'

/** The real captures kept with the tests, as a file (in a checkout). */
export function defaultFixturePath(): string {
  return resolve(root, 'src/cli/leaks-real.json')
}

/** Every capture file the report reads by default: the first captures, the wild families, and the drifted ones. */
export function defaultReportFixturePaths(): string[] {
  return [defaultFixturePath(), resolve(root, 'test/fixtures/leaks-wild-2.json'), resolve(root, 'test/fixtures/leaks-wild-3.json')]
}

/** Reads a capture file: a JSON array of `{ id, input, chunks?, expected_calls?, ... }`. */
export function readCaptures(path: string): Array<LeakCapture & ReplayCapture> {
  const captures = JSON.parse(readFileSync(path, 'utf8')) as Array<LeakCapture & ReplayCapture>
  if (!Array.isArray(captures)) throw new Error(`Cannot read fixtures in ${path}: expected a JSON array of captures`)
  return captures
}
