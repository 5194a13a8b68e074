/**
 * `npm start`: runs the DSML engine over the real captured leaks and prints
 * what leaked and what was recovered. Node glue (the one place in src/ that
 * may use node: modules).
 *
 * Usage: npm start [-- --fixtures PATH]
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type LeakCapture, renderReport, reportRow } from './leaks-report.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function fixturePath(argv: readonly string[]): string {
  const flag = argv.indexOf('--fixtures')
  if (flag !== -1) {
    const path = argv[flag + 1]
    if (path === undefined) throw new Error('Cannot read fixtures: --fixtures needs a path')
    return resolve(path)
  }
  // The shared capture set beside the project, else the copy kept with the tests.
  const shared = resolve(root, '../shared/fixtures/leaks-real.json')
  return existsSync(shared) ? shared : resolve(root, 'test/fixtures/leaks-real.json')
}

function main(): void {
  const path = fixturePath(process.argv.slice(2))
  const captures = JSON.parse(readFileSync(path, 'utf8')) as LeakCapture[]
  if (!Array.isArray(captures)) throw new Error(`Cannot read fixtures in ${path}: expected a JSON array of captures`)
  console.log(`dsml-streams: ${captures.length} real DeepSeek leak captures from ${path}\n`)
  console.log(renderReport(captures.map((capture) => reportRow(capture))))
}

main()
