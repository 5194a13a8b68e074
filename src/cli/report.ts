/**
 * `npm run report`: runs the DSML engine over the real captured leaks and
 * prints what leaked and what was recovered. Node glue (src/cli/ is the one
 * place in src/ that may use node: modules).
 *
 * Usage: npm run report [-- --fixtures PATH ...]  (default: src/cli/leaks-real.json,
 *        test/fixtures/leaks-wild-2.json and leaks-wild-3.json; a capture's declared `tools` gate its calls)
 */
import { resolve } from 'node:path'
import { defaultReportFixturePaths, readCaptures } from './captures.ts'
import { renderReport, reportRow } from './leaks-report.ts'

/** `--fixtures PATH` (repeatable), else the default capture files. */
function fixturePaths(argv: readonly string[]): string[] {
  const paths: string[] = []
  argv.forEach((argument, index) => {
    if (argument !== '--fixtures') return
    const path = argv[index + 1]
    if (path === undefined) throw new Error('Cannot read fixtures: --fixtures needs a path')
    paths.push(resolve(path))
  })
  return paths.length > 0 ? paths : defaultReportFixturePaths()
}

function main(): void {
  for (const path of fixturePaths(process.argv.slice(2))) {
    const captures = readCaptures(path)
    console.log(`dsml-streams: ${captures.length} real DeepSeek leak captures from ${path}\n`)
    console.log(renderReport(captures.map((capture) => reportRow(capture))))
    console.log('')
  }
}

main()
