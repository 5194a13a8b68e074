// createRepairFetch in the browser, for real: Chromium (Debian's, at /usr/bin/chromium; .ci/run installs it) driven by
// playwright-core. browser-client.ts, bundled with the build (dist/) and the official SDKs, runs in a page whose origin
// answers with the replay upstream of `dsml-streams serve` (raw, under /replay/): every capture with calls, read by
// `openai` and `@anthropic-ai/sdk` with `dangerouslyAllowBrowser` and `fetch: createRepairFetch()`, no gateway.
// Node only; runs after `npm run build`.
import { join } from 'node:path'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { afterAll, expect, test } from 'vitest'
import { CHROMIUM_LAUNCH } from '../../scripts/runtimes/platforms.mjs'
import { needsChromium } from '../support/chromium.ts'
import { captures } from '../support/captures.ts'
import { hasMarker } from '../gateway/support.ts'
import { bin, root, startServing, stopAll } from '../support/processes.ts'
import type { BrowserCapture, BrowserResult } from './browser-client.ts'

afterAll(stopAll)

test('Chromium: openai and @anthropic-ai/sdk with fetch: createRepairFetch() read every capture\'s calls, with no marker', async (context) => {
  needsChromium(context)
  const bundled = await build({
    entryPoints: [join(root, 'test/repair-fetch/browser-client.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    alias: { 'dsml-streams': join(root, 'dist/index.mjs') },
    logLevel: 'error',
  })
  const script = bundled.outputFiles[0]!.text
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0'])
  const browser = await chromium.launch(CHROMIUM_LAUNCH)
  try {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    // The page's origin: an empty page, and the replay upstream under /replay/ (fetched by the test, as it came).
    await page.route('http://example.test/**', async (route) => {
      const path = new URL(route.request().url()).pathname
      if (!path.startsWith('/replay/')) return route.fulfill({ body: '<!doctype html><title>repair fetch</title>', contentType: 'text/html' })
      const response = await route.fetch({ url: `${served.url}${path}` })
      await route.fulfill({ response })
    })
    await page.goto('http://example.test/')
    await page.addScriptTag({ content: script })
    const withCalls = captures.filter((capture) => capture.expected_calls.length > 0)
    const given: BrowserCapture[] = withCalls.map((capture) => ({ id: capture.id, tools: (capture.tools ?? []).map((tool) => tool.name) }))
    const results = await page.evaluate(
      async ([base, list]) => (globalThis as unknown as { runSdkFlows: (base: string, list: BrowserCapture[]) => Promise<BrowserResult[]> }).runSdkFlows(base, list),
      ['http://example.test/replay', given] as const,
    )
    expect(errors).toEqual([])
    expect(results.length).toBe(withCalls.length * 8)
    for (const result of results) {
      const capture = withCalls.find((entry) => entry.id === result.id)!
      expect(result.calls, `${result.id}: ${result.flow}`).toEqual(capture.expected_calls)
      expect([result.finish, hasMarker(result.text)], `${result.id}: ${result.flow}`).toEqual([result.flow.startsWith('anthropic') ? 'tool_use' : 'tool_calls', false])
    }
  } finally {
    await browser.close()
  }
}, 180_000)
