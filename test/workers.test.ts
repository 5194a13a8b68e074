// Cloudflare Workers, for real: workerd through Miniflare (Node only; it starts workerd).
// examples/cloudflare-worker/ is bundled as `wrangler deploy` would (esbuild, the package by
// name → the build) and run at the compatibility date of its wrangler.toml against
// `dsml-streams replay` over loopback. And on an old compatibility date, where TransformStream
// ignores its transformer, constructing a stream throws the TypeError that names the fix.
// Runs after `npm run build`.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readSseText } from './gateway/support.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }
let replay: ChildProcess
let upstream = ''

beforeAll(async () => {
  replay = spawn(process.execPath, [join(root, manifest.bin['dsml-streams']!), 'replay', '--port', '0'])
  upstream = await new Promise<string>((resolve, reject) => {
    let out = ''
    replay.stdout!.on('data', (data: Buffer) => {
      out += data.toString()
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(out)
      if (found !== null) resolve(found[0])
    })
    replay.on('exit', (code) => reject(new Error(`replay exited ${code}`)))
  })
}, 30_000)

afterAll(() => {
  replay.kill('SIGKILL')
})

/** One bundled module, the package resolved by name (the build), as wrangler bundles a worker. */
async function bundle(options: { entry: string } | { contents: string }): Promise<string> {
  const result = await build({
    ...('entry' in options ? { entryPoints: [join(root, options.entry)] } : { stdin: { contents: options.contents, resolveDir: root, loader: 'ts' as const } }),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}

function compatibilityDateOf(toml: string): string {
  const found = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)
  if (found === null) throw new Error('no compatibility_date in wrangler.toml')
  return found[1]!
}

test('examples/cloudflare-worker in workerd (its wrangler.toml date): a real capture comes back with its calls as tool_calls, no marker', async () => {
  const date = compatibilityDateOf(readFileSync(join(root, 'examples/cloudflare-worker/wrangler.toml'), 'utf8'))
  const worker = new Miniflare({ modules: true, script: await bundle({ entry: 'examples/cloudflare-worker/worker.ts' }), compatibilityDate: date, bindings: { UPSTREAM: `${upstream}/v1` } })
  try {
    const response = await worker.dispatchFetch('http://worker.test/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'cherry-14747-captured-sse-deltas', stream: true, messages: [{ role: 'user', content: 'go' }] }),
    })
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
