// Cloudflare Workers, for real: workerd through Miniflare (Node only; it starts workerd).
// examples/cloudflare-worker/ is bundled as `wrangler deploy` would (esbuild, the package by
// name → the build) and run at the compatibility date of its wrangler.toml against
// `dsml-streams replay` over loopback. And on an old compatibility date, where TransformStream
// ignores its transformer, constructing a stream throws the TypeError that names the fix.
// Runs after `npm run build`.
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readSseText } from './gateway/support.ts'
import { workerCompatibilityDate } from '../scripts/runtimes/platforms.mjs'
import { bundle } from './support/bundle.ts'
import { CHERRY_REQUEST, startReplay, stopAll } from './support/processes.ts'

let upstream = ''

beforeAll(async () => {
  upstream = (await startReplay()).url
}, 30_000)

afterAll(stopAll)

test('examples/cloudflare-worker in workerd (its wrangler.toml date): a real capture comes back with its calls as tool_calls, no marker', async () => {
  const date = workerCompatibilityDate()
  const worker = new Miniflare({ modules: true, script: await bundle({ entry: 'examples/cloudflare-worker/worker.ts', format: 'esm' }), compatibilityDate: date, bindings: { UPSTREAM: `${upstream}/v1` } })
  try {
    const response = await worker.dispatchFetch('http://worker.test/v1/chat/completions', CHERRY_REQUEST as never)
    const seen = readSseText(await response.text())
    expect(seen.calls.map((call) => call.name)).toEqual(['builtin_web_search', 'builtin_web_search'])
    expect(seen.finishReasons).toEqual(['tool_calls'])
    expect(seen.content).not.toContain('\uFF5C')
  } finally {
    await worker.dispose()
  }
}, 60_000)

test('an old compatibility date (2021-11-03, TransformStream ignores its transformer): constructing a stream throws a TypeError naming the date and the flag, instead of passing markup through', async () => {
  const script = await bundle({
    format: 'esm',
    contents: `import { ChatCompletionsRepairStream } from 'dsml-streams'
export default { fetch() {
  try { new ChatCompletionsRepairStream(); return new Response('constructed') }
  catch (error) { return new Response(error.constructor.name + ': ' + error.message) }
} }`,
  })
  for (const [date, flags, expected] of [
    ['2021-11-03', ['streams_enable_constructors'], /^TypeError: Cannot create ChatCompletionsRepairStream: .*compatibility_date to "2022-11-30" or later.*transformstream_enable_standard_constructor/],
    ['2021-11-03', ['streams_enable_constructors', 'transformstream_enable_standard_constructor'], /^constructed$/],
    ['2022-11-30', [], /^constructed$/],
  ] as const) {
    const worker = new Miniflare({ modules: true, script, compatibilityDate: date, compatibilityFlags: [...flags] })
    try {
      expect(await (await worker.dispatchFetch('http://worker.test/')).text(), `${date} ${flags.join(',')}`).toMatch(expected)
    } finally {
      await worker.dispose()
    }
  }
}, 60_000)
