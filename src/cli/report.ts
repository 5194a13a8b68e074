/**
 * `npm run report`: runs the DSML engine over the real captured leaks and
 * prints what leaked and what was recovered. Node glue (src/cli/ is the one
 * place in src/ that may use node: modules).
 *
 * Usage: npm run report [-- --fixtures PATH]
 */
import { resolve } from 'node:path'
import { defaultFixturePath, readCaptures } from './captures.ts'
import { renderReport, reportRow } from './leaks-report.ts'

function fixturePath(argv: readonly string[]): string {
  const flag = argv.indexOf('--fixtures')
  if (flag !== -1) {
    const path = argv[flag + 1]
    if (path === undefined) throw new Error('Cannot read fixtures: --fixtures needs a path')
    return resolve(path)
  }
  return defaultFixturePath()
}

function main(): void {
  const path = fixturePath(process.argv.slice(2))
  const captures = readCaptures(path)
  console.log(`dsml-streams: ${captures.length} real DeepSeek leak captures from ${path}\n`)
  console.log(renderReport(captures.map((capture) => reportRow(capture))))
}

main()
