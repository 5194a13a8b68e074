// The chat page in a real browser: Chromium (Debian's, at /usr/bin/chromium; .ci/run installs it)
// driven by playwright-core, against the built `dsml-streams serve`. A message is sent for a real
// capture; while it streams, a MutationObserver checks every change of the repaired pane for a
// marker, and at the end a tool-call card must be there. The screenshot goes to docs/chat-page.png
// (the README shows it). Node only; runs after `npm run build`.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, expect, test } from 'vitest'
import { bin, root, startServing, stopAll } from './support/processes.ts'

const CHROMIUM = '/usr/bin/chromium'

afterAll(stopAll)

test('the chat page: the raw pane shows the markup, the repaired pane never does, and the calls arrive as cards', async (context) => {
  if (!existsSync(CHROMIUM)) {
    // Said, never silent: CI installs Chromium (.ci/run), so there this fails instead.
    if (process.env.CI) throw new Error(`no browser at ${CHROMIUM}: .ci/run installs Debian's chromium`)
    console.warn(`chat page test: no browser at ${CHROMIUM} (apt-get install -y chromium); not run`)
    context.skip()
  }
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0', '--delay', '3', '--created', '1764547200'])
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
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
    expect(await page.textContent('#raw')).toMatch(/\uFF5CDSML\uFF5C/)
    expect(await page.textContent('#status')).toBe('finish: tool_calls')
    expect(await page.textContent('#diagnostics')).toContain('recovered-call ×2')
    mkdirSync(join(root, 'docs'), { recursive: true })
    await page.screenshot({ path: join(root, 'docs/chat-page.png') })
  } finally {
    await browser.close()
  }
}, 90_000)
