// What the platform legs share, in one place: where the browser is and how it is started, the
// compatibility date the Worker example deploys with, and the export conditions a platform's own
// bundler resolves packages with. Used by scripts/runtimes/hosted.mjs, scripts/table-bundles.mjs
// and the platform tests (test/chat-page.test.ts, test/workers.test.ts, test/support/bundle.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..')

/** Debian's Chromium; .ci/run installs it (never a downloaded browser). */
export const CHROMIUM = '/usr/bin/chromium'

/** How Chromium is launched: headless, no sandbox (CI runs as root), nothing fetched in the background. */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
}

/** The export conditions wrangler, Vercel and browser bundlers resolve a package with. */
export const EDGE_CONDITIONS = ['workerd', 'worker', 'edge-light', 'browser']

/** The compatibility date of examples/cloudflare-worker/wrangler.toml: the one the example deploys with. */
export function workerCompatibilityDate() {
  const toml = readFileSync(join(root, 'examples/cloudflare-worker/wrangler.toml'), 'utf8')
  const found = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)
  if (found === null) throw new Error('no compatibility_date in examples/cloudflare-worker/wrangler.toml')
  return found[1]
}
