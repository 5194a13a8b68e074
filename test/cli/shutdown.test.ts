// `dsml-streams serve` stops gracefully (Node only; it signals a process): on SIGTERM it accepts
// nothing new, lets a stream in flight finish with [DONE], closes the keep-alive connections as
// they go idle, and exits 0; a second signal within 2 s is the same stop, a third (or one later) exits at once.
// Runs after `npm run build`.
import { afterAll, expect, test } from 'vitest'
import { bin, CHERRY_REQUEST, stopAll } from '../support/processes.ts'
import { spawn } from 'node:child_process'

afterAll(stopAll)

/** The built command serving on a free port, with slow replay events, and how it exits. */
async function serveSlowly(): Promise<{ url: string; pid: number; exited: Promise<number | null>; output(): string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--delay', '15'])
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString()
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (found !== null) resolve(found[1]!)
    })
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)))
  })
  return { url, pid: child.pid!, exited, output: () => output }
}

test('SIGTERM with a stream in flight: the stream ends with [DONE], new connections are refused, the process exits 0', async () => {
  const served = await serveSlowly()
  const stream = fetch(`${served.url}/v1/chat/completions`, CHERRY_REQUEST).then((response) => response.text())
  await new Promise((resolve) => setTimeout(resolve, 300))
  process.kill(served.pid, 'SIGTERM')
  expect(await stream).toContain('data: [DONE]')
  expect(await served.exited).toBe(0)
  await expect(fetch(`${served.url}/health`)).rejects.toThrow()
  expect(served.output()).toContain('SIGTERM: closing the gateway')
}, 60_000)

test('gateway siege row 6: a second signal within 2 s is the same stop (Ctrl-C reaches npm and the gateway): the stream still ends with [DONE], exit 0', async () => {
  const served = await serveSlowly()
  const stream = fetch(`${served.url}/v1/chat/completions`, CHERRY_REQUEST).then((response) => response.text()).catch((error: Error) => `cut: ${error.message}`)
  await new Promise((resolve) => setTimeout(resolve, 300))
  process.kill(served.pid, 'SIGINT')
  await new Promise((resolve) => setTimeout(resolve, 100))
  process.kill(served.pid, 'SIGINT')
  expect(await stream).toContain('data: [DONE]')
  expect(await served.exited).toBe(0)
  expect(served.output()).toContain('SIGINT again within 2 s: still closing')
}, 60_000)

test('a third signal exits at once, the stream in flight cut', async () => {
  const served = await serveSlowly()
  const stream = fetch(`${served.url}/v1/chat/completions`, CHERRY_REQUEST).then((response) => response.text()).catch((error: Error) => `cut: ${error.message}`)
  await new Promise((resolve) => setTimeout(resolve, 300))
  for (let signal = 0; signal < 3; signal++) {
    process.kill(served.pid, 'SIGINT')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(await served.exited).toBe(1)
  expect(await stream).not.toContain('data: [DONE]')
}, 60_000)
