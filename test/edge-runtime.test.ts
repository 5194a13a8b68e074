// The edge runtime (Vercel Edge Functions), for real: @edge-runtime/vm's EdgeVM, whose globals are
// the edge runtime's restricted web-standard set (Node only; it builds the VM). examples/vercel-edge.ts
// is bundled from the build as a classic script (the VM runs no modules) and its POST handler
// proxies a real capture to `dsml-streams replay` over loopback. Runs after `npm run build`.
import { EdgeVM } from '@edge-runtime/vm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readSseText } from './gateway/support.ts'
import { bundle } from './support/bundle.ts'
import { CHERRY_REQUEST, startReplay, stopAll } from './support/processes.ts'

let upstream = ''

beforeAll(async () => {
  upstream = (await startReplay()).url
}, 30_000)

afterAll(stopAll)

test('examples/vercel-edge.ts in the edge runtime: a real capture comes back with its calls as tool_calls, no marker', async () => {
  const vm = new EdgeVM({
    extend: (context) => Object.assign(context, { process: { env: { DSML_UPSTREAM: `${upstream}/v1` } } }),
  })
  expect(vm.context.EdgeRuntime).toBe('edge-runtime')
  vm.evaluate(await bundle({ entry: 'examples/vercel-edge.ts', format: 'iife', globalName: 'edgeFunction' }))
  const init = JSON.stringify(CHERRY_REQUEST)
  const text = await vm.evaluate<Promise<string>>(`edgeFunction.POST(new Request('http://edge.test/v1/chat/completions', ${init})).then((response) => response.text())`)
  const seen = readSseText(text)
  expect(seen.calls.map((call) => call.name)).toEqual(['builtin_web_search', 'builtin_web_search'])
  expect(seen.finishReasons).toEqual(['tool_calls'])
  expect(seen.content).not.toContain('\uFF5C')
}, 60_000)
