/**
 * The browser tests' guard: Debian's Chromium (at /usr/bin/chromium; .ci/run installs it), driven by
 * playwright-core. Node only.
 */
import { existsSync } from 'node:fs'
import { CHROMIUM } from '../../scripts/runtimes/platforms.mjs'

/** Without a browser: fails in CI (which installs one), says why and does not run elsewhere. */
export function needsChromium(context: { skip(): void }): void {
  if (existsSync(CHROMIUM)) return
  if (process.env.CI) throw new Error(`no browser at ${CHROMIUM}: .ci/run installs Debian's chromium`)
  console.warn(`browser test: no browser at ${CHROMIUM} (apt-get install -y chromium); not run`)
  context.skip()
}
