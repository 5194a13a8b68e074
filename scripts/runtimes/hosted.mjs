// The hosts that run the package tables' classic script (scripts/table-bundles.mjs) inside a
// platform rather than as a command: workerd through Miniflare, the edge runtime's VM, and
// Chromium through playwright-core. Each loads the script as that platform loads code, calls
// `packageTables.run(print, filter)` there, and returns the printed lines and the counts, or,
// when the platform cannot be started here, the reason (`unavailable`).
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { CHROMIUM, CHROMIUM_LAUNCH, workerCompatibilityDate } from './platforms.mjs'

const require = createRequire(import.meta.url)

function versionOf(name) {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version
}

/** workerd: the script as a module worker's body; one request runs the tables and answers with the lines. */
async function runInWorkerd(script, filter) {
  const { Miniflare } = await import('miniflare')
  const date = workerCompatibilityDate()
  const worker = new Miniflare({
    modules: true,
    compatibilityDate: date,
    script: `${script}
export default {
  async fetch() {
    const lines = []
    const counts = await packageTables.run((line) => lines.push(line), ${JSON.stringify(filter)})
    return Response.json({ lines, counts })
  },
}`,
  })
  try {
    const response = await worker.dispatchFetch('http://tables.test/')
    const body = await response.text()
    if (!response.ok) throw new Error(`the worker answered ${response.status}: ${body.slice(0, 2000)}`)
    return { label: `workerd ${versionOf('workerd')} (miniflare ${versionOf('miniflare')}, compatibility date ${date})`, ...JSON.parse(body) }
  } finally {
    await worker.dispose()
  }
}

/** The edge runtime: the script evaluated in an EdgeVM, whose globals are the edge runtime's. */
async function runInEdgeRuntime(script, filter) {
  const { EdgeVM } = await import('@edge-runtime/vm')
  const vm = new EdgeVM()
  vm.evaluate(script)
  const result = await vm.evaluate(`(async () => {
    const lines = []
    const counts = await packageTables.run((line) => lines.push(line), ${JSON.stringify(filter)})
    return JSON.stringify({ lines, counts })
  })()`)
  return { label: `@edge-runtime/vm ${versionOf('@edge-runtime/vm')}`, ...JSON.parse(result) }
}

/** Chromium: the script added to a blank page, the tables run in the page. */
async function runInChromium(script, filter) {
  if (!existsSync(CHROMIUM)) return { unavailable: `no browser at ${CHROMIUM} (apt-get install -y chromium; .ci/run does)` }
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch(CHROMIUM_LAUNCH)
  try {
    const page = await browser.newPage()
    const errors = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.addScriptTag({ content: script })
    const result = await page.evaluate(async (chosen) => {
      const lines = []
      const counts = await globalThis.packageTables.run((line) => lines.push(line), chosen ?? undefined)
      return { lines, counts }
    }, filter ?? null)
    // An error the page did not catch (an unhandled rejection included) is a failure, as it would crash Node, Deno or Bun.
    if (errors.length > 0) {
      result.lines.push(`FAIL: ${errors.length} uncaught error(s) in the page: ${errors.join('; ')}`)
      result.counts.failed += errors.length
    }
    return { label: `Chromium ${browser.version()} (playwright-core ${versionOf('playwright-core')})`, ...result }
  } finally {
    await browser.close()
  }
}

export const HOSTS = [
  { name: 'workerd', run: runInWorkerd },
  { name: 'edge-runtime', run: runInEdgeRuntime },
  { name: 'chromium', run: runInChromium },
]
