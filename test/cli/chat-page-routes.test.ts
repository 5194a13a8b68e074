// The chat page's routes (src/cli/chat-page-routes.ts) on paths a hostile client sends (gateway siege row 7):
// a malformed escape in a /lib/ path names no file (a 404, not a 500 from decodeURIComponent).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { createChatPageRoutes } from '../../src/cli/chat-page-routes.ts'
import { builtInCaptures } from '../../src/cli/captures.ts'
import { createReplayUpstream } from '../../src/cli/replay-upstream.ts'

test('gateway siege row 7: /lib/ paths with malformed escapes or leaving the library are 404', async () => {
  const routes = createChatPageRoutes(createReplayUpstream(builtInCaptures()))
  const built = existsSync(fileURLToPath(new URL('../../dist/index.mjs', import.meta.url)))
  for (const path of ['/lib/%zz.mjs', '/lib/%E0%A4%A.mjs', '/lib/..%2F..%2Fpackage.json', '/lib/missing.mjs']) {
    const response = await routes(new Request(`http://gateway.test${path}`))
    expect(response?.status, path).toBe(built ? 404 : 503)
  }
})
