// `dsml-streams serve` configured from the environment (Node only, over loopback, the built command): every flag has its
// DSML_ variable (a flag given wins), and a server-side upstream key (DSML_UPSTREAM_KEY, or the variable
// --upstream-key-env names) goes upstream as the route's own header while browser pages from other origins get a 403.
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { environmentVariableOf } from '../../src/cli/serve-command.ts'
import { bin, root, startServing, stopAll } from '../support/processes.ts'

/** A fake OpenAI-compatible upstream that records each request's path and headers and answers a small completion. */
let upstream: Server
let upstreamUrl: string
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = []

beforeAll(async () => {
  upstream = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers })
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }] }))
    })
  })
  upstream.listen(0, '127.0.0.1')
  await once(upstream, 'listening')
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`
})

afterAll(() => {
  stopAll()
  upstream.close()
})

/** The whole banner: it is printed just after the URL `startServing` waits for. */
async function banner(served: { output(): string }): Promise<string> {
  for (let tries = 0; tries < 100 && !served.output().includes('try it:'); tries++) await new Promise((resolve) => setTimeout(resolve, 20))
  return served.output()
}

const post = (base: string, headers: Record<string, string>): Promise<Response> =>
  fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })

test('the environment variable of each option: DSML_ and its name in capitals, dashes as underscores', () => {
  expect([environmentVariableOf('max-in-flight'), environmentVariableOf('upstream'), environmentVariableOf('prevent')]).toEqual(['DSML_MAX_IN_FLIGHT', 'DSML_UPSTREAM', 'DSML_PREVENT'])
})

test('DSML_UPSTREAM_KEY: sent upstream as authorization: Bearer in place of the client\'s; another origin gets a 403 and nothing goes upstream; the page\'s own origin and allowed ones are served', async () => {
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0'], {
    DSML_UPSTREAM: upstreamUrl,
    DSML_UPSTREAM_KEY: 'server-key',
    DSML_ALLOWED_ORIGINS: 'https://app.example',
    DSML_MODE: 'strip',
  })
  const printed = await banner(served)
  expect(printed).toContain('upstream key: held (from $DSML_UPSTREAM_KEY); browser pages: this origin and https://app.example')
  expect(printed).toContain('mode: strip')
  expect(printed).not.toContain('server-key')
  const plain = await post(served.url, { authorization: 'Bearer client-key', 'x-probe': 'plain' })
  expect(plain.status).toBe(200)
  await plain.text()
  expect(seen.find((entry) => entry.headers['x-probe'] === 'plain')?.headers.authorization).toBe('Bearer server-key')
  const evil = await post(served.url, { origin: 'https://evil.example', 'x-probe': 'evil' })
  expect(evil.status).toBe(403)
  await evil.text()
  expect(seen.some((entry) => entry.headers['x-probe'] === 'evil')).toBe(false)
  for (const origin of [served.url, 'https://app.example']) {
    const response = await post(served.url, { origin })
    expect(response.status, origin).toBe(200)
    await response.text()
  }
}, 60_000)

test('--upstream-key-env NAME reads the key from NAME (unset: a usage error); a flag wins over its variable; a bad boolean variable is a usage error', async () => {
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0', '--upstream-key-env', 'MY_KEY', '--mode', 'recover'], { DSML_UPSTREAM: upstreamUrl, MY_KEY: 'named-key', DSML_MODE: 'strip' })
  expect(await banner(served)).toContain('mode: recover')
  await (await post(served.url, { 'x-probe': 'named' })).text()
  expect(seen.find((entry) => entry.headers['x-probe'] === 'named')?.headers.authorization).toBe('Bearer named-key')
  const environment: Record<string, string | undefined> = { ...process.env, DSML_UPSTREAM: upstreamUrl }
  delete environment.MISSING_KEY
  const unset = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--upstream-key-env', 'MISSING_KEY'], { cwd: root, encoding: 'utf8', env: environment })
  expect([unset.status, unset.stderr]).toEqual([2, expect.stringContaining('the environment variable MISSING_KEY is not set')])
  const badBoolean = spawnSync(process.execPath, [bin, 'serve', '--port', '0'], { cwd: root, encoding: 'utf8', env: { ...environment, DSML_PREVENT: 'maybe' } })
  expect([badBoolean.status, badBoolean.stderr]).toEqual([2, expect.stringContaining('DSML_PREVENT must be 1, true or yes')])
}, 60_000)
