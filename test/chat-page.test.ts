// The browser, for real: Chromium (Debian's, at /usr/bin/chromium; .ci/run installs it) driven by
// playwright-core, against the built `dsml-streams serve`.
// - The chat page: a message is sent for a real capture; while it streams, a MutationObserver
//   checks every change of the repaired pane for a marker, and at the end the tool-call cards must
//   be there; the raw pane shows the rendered text (its toggle the SSE lines), the panes scroll
//   within the window, and an API that refuses the page's origin is reported as CORS. The screenshot goes to test-results/chat-page.png (with UPDATE_SCREENSHOT=1, to
//   docs/chat-page.png, which the README shows).
// - examples/browser/: its CDN import map answered with the build (as the CDN would serve the
//   package), its API pointed at the replay upstream: the clean text and both calls.
// Node only; runs after `npm run build`.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Route } from 'playwright-core'
import { afterAll, expect, test } from 'vitest'
import { CHROMIUM_LAUNCH } from '../scripts/runtimes/platforms.mjs'
import { needsChromium } from './support/chromium.ts'
import { bin, root, startReplay, startServing, stopAll } from './support/processes.ts'


afterAll(stopAll)


test('the chat page: the raw pane shows the markup, the repaired pane never does, and the calls arrive as cards', async (context) => {
  needsChromium(context)
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0', '--delay', '3', '--created', '1764547200'])
  const browser = await chromium.launch(CHROMIUM_LAUNCH)
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } })
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${served.url}/`)
    await page.waitForSelector('#model option[value="cherry-14747-captured-sse-deltas"]', { state: 'attached' })
    await page.selectOption('#model', 'cherry-14747-captured-sse-deltas')
    // Every change of the repaired pane: its answer and cards checked for a marker (a full-width or double bar, or DSML) as it happens.
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { markerSeen: string[] }).markerSeen = seen
      const pane = document.getElementById('repaired')!
      // The answer and the cards (the diagnostics line names markup on purpose).
      const answer = [document.getElementById('text')!, document.getElementById('calls')!]
      new MutationObserver(() => {
        const text = answer.map((element) => element.textContent ?? '').join('\n')
        if (/[\uFF5C\u2016]|DSML/.test(text)) seen.push(text)
      }).observe(pane, { childList: true, subtree: true, characterData: true })
    })
    await page.click('#send')
    await page.waitForSelector('body[data-done="true"]', { timeout: 30_000 })
    expect(errors).toEqual([])
    expect(await page.evaluate(() => (window as unknown as { markerSeen: string[] }).markerSeen)).toEqual([])
    const cards = await page.$$eval('.tool-card b', (names) => names.map((name) => name.textContent))
    expect(cards).toEqual(['builtin_web_search', 'builtin_web_search'])
    // The raw pane: what a plain client renders (the joined content, markup visible), not JSON; its toggle shows the SSE lines.
    const rendered = (await page.textContent('#raw')) ?? ''
    expect(rendered).toMatch(/\uFF5CDSML\uFF5C/)
    expect(rendered).not.toContain('data: ')
    await page.check('#show-sse')
    expect(await page.textContent('#raw')).toContain('data: {')
    await page.uncheck('#show-sse')
    // Both panes scroll within the window: the page itself is no taller than it.
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true)
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toMatch(/^data:image\/svg\+xml,/)
    expect(await page.textContent('#status')).toBe('finish: tool_calls')
    expect(await page.textContent('#diagnostics')).toContain('recovered-call ×2')
    // Saved beside the test results; UPDATE_SCREENSHOT=1 writes the copy the README shows (docs/), which
    // differs from run to run only in antialiasing bytes, so the checkout stays clean otherwise.
    const directory = join(root, process.env.UPDATE_SCREENSHOT === '1' ? 'docs' : 'test-results')
    mkdirSync(directory, { recursive: true })
    await page.screenshot({ path: join(directory, 'chat-page.png') })
  } finally {
    await browser.close()
  }
}, 90_000)

test('the chat page: an API on another origin that does not allow the page says it is CORS, and what to do', async (context) => {
  needsChromium(context)
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0'])
  const browser = await chromium.launch(CHROMIUM_LAUNCH)
  try {
    const page = await browser.newPage()
    // Another origin that sends no CORS headers (the replay on its own port): the browser refuses the page its answer.
    const other = await startReplay()
    await page.goto(`${served.url}/`)
    await page.waitForSelector('#model option[value="__custom__"]', { state: 'attached' })
    await page.selectOption('#model', '__custom__')
    await page.fill('#base', `${other.url}/v1`)
    await page.click('#send')
    await page.waitForSelector('body[data-done="true"]', { timeout: 30_000 })
    const status = (await page.textContent('#status')) ?? ''
    expect(status).toContain('most likely CORS')
    expect(status).toContain(`--upstream ${other.url}/v1`)
  } finally {
    await browser.close()
  }
}, 90_000)

test('examples/browser: the package from its import map (answered with the build), a real capture repaired in the page', async (context) => {
  needsChromium(context)
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0'])
  const browser = await chromium.launch(CHROMIUM_LAUNCH)
  try {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
    page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText}`))
    const example = join(root, 'examples/browser')
    // The example's origin serves its files, and its API (the replay, fetched by the test, not the page). The CDN of
    // its import map answers with the build, as it serves the published package (the page never reaches loopback).
    const proxied = async (route: Route, path: string): Promise<void> => {
      const response = await route.fetch({ url: `${served.url}${path}` })
      await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } })
    }
    await page.route('http://example.test/**', async (route) => {
      const path = new URL(route.request().url()).pathname
      if (path.startsWith('/replay/')) return proxied(route, path)
      const type = path.endsWith('.js') ? 'text/javascript' : 'text/html'
      await route.fulfill({ body: readFileSync(join(example, path === '/' ? 'index.html' : path)), contentType: type })
    })
    await page.route('https://esm.sh/**', (route) => {
      const path = new URL(route.request().url()).pathname
      if (path.startsWith('/dsml-streams@')) return proxied(route, '/lib/index.mjs')
      if (path.startsWith('/eventsource-parser@')) return proxied(route, '/vendor/eventsource-parser.mjs')
      return proxied(route, `/lib${path}`)
    })
    await page.goto('http://example.test/')
    await page.fill('#base', 'http://example.test/replay/v1')
    await page.fill('#model', 'cherry-14747-captured-sse-deltas')
    await page.click('button')
    await page.waitForSelector('body[data-done="true"]', { timeout: 30_000 })
    expect(errors).toEqual([])
    const calls = await page.$$eval('#calls li', (items) => items.map((item) => item.textContent?.split(' ')[0]))
    expect(calls).toEqual(['builtin_web_search', 'builtin_web_search'])
    expect(await page.textContent('#answer')).not.toMatch(/[\uFF5C]|DSML/)
  } finally {
    await browser.close()
  }
}, 90_000)
