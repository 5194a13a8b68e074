// `dsml-streams serve` stops gracefully (Node only; it signals a process): on SIGTERM it accepts
// nothing new, lets a stream in flight finish with [DONE], closes the keep-alive connections as
// they go idle, and exits 0; a second signal within 2 s is the same stop, a third (or one later) exits at once.
// The same through `npm start`, signalled as a service manager signals it. Runs after `npm run build`.
import { afterAll, expect, test } from 'vitest'
import { bin, CHERRY_REQUEST, root, stopAll } from '../support/processes.ts'
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

/** `npm start` processes this file started, each in a process group of its own: killed whole after the tests, whatever happened. */
const npmGroups: number[] = []
afterAll(() => {
  for (const group of npmGroups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL')
    } catch {
      // The group has exited.
    }
  }
})

test('SIGTERM to the npm process of `npm start`: the stream in flight ends with [DONE], the gateway says it is closing, npm exits 0, and nothing is left serving (the script execs the command, so npm\'s signal reaches the gateway)', async () => {
  const child = spawn('npm', ['start', '--', '--port', '0', '--delay', '15'], { cwd: root, detached: true })
  npmGroups.push(child.pid!)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const read = (data: Buffer): void => {
      output += data.toString()
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (found !== null) resolve(found[1]!)
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => reject(new Error(`npm start exited ${code}: ${output}`)))
    setTimeout(() => reject(new Error(`npm start printed no address within 30 s: ${output}`)), 30_000)
  })
  const stream = fetch(`${url}/v1/chat/completions`, CHERRY_REQUEST).then((response) => response.text()).catch((error: Error) => `cut: ${error.message}`)
  await new Promise((resolve) => setTimeout(resolve, 300))
  process.kill(child.pid!, 'SIGTERM')
  expect(await stream).toContain('data: [DONE]')
  expect(await exited).toBe(0)
  // The gateway itself got the signal (an orphaned one would finish the stream too, and never say this).
  expect(output).toContain('SIGTERM: closing the gateway')
  let serving = true
  for (let tries = 0; tries < 40 && serving; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    serving = await fetch(`${url}/health`).then(
      () => true,
      () => false,
    )
  }
  expect(serving, 'the gateway still answers 10 s after npm was signalled').toBe(false)
}, 60_000)
