// The CLI end to end (Node only: the CLI is the Node glue). `npm run report`
// prints the capture report; `npm start` (src/cli/bin.ts serve) is the gateway,
// started over a real socket in test/gateway/loopback.test.ts.
import { execFileSync, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

test('npm run report prints the capture report with every capture recovered as expected', () => {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/report.ts', '--fixtures', 'src/cli/leaks-real.json'], {
    cwd: root,
    encoding: 'utf8',
  })
  expect(output).toContain('21/21 captures give their expected calls and text')
  expect(output).toContain('exec_command(cmd)')
  expect(output).not.toContain('\uFF5C')
})

test('npm run report reads its three capture files from inside the repository by default (no ../shared needed)', () => {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/report.ts'], { cwd: root, encoding: 'utf8' })
  expect(output).toContain(`${root}src/cli/leaks-real.json`)
  expect(output).toContain(`${root}test/fixtures/leaks-wild-2.json`)
  expect(output).toContain(`${root}test/fixtures/leaks-wild-3.json`)
  expect(output).toContain('21/21 captures give their expected calls and text')
  expect(output).toContain('11/12 captures give their expected calls and text')
  expect(output).toContain('12/12 captures give their expected calls and text')
  expect(output).not.toContain('shared/fixtures')
})

test('npm start -- --help prints the gateway usage', () => {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--help'], { cwd: root, encoding: 'utf8' })
  expect(output).toContain('Usage: dsml-streams serve [options]')
  expect(output).toContain('--upstream URL')
})

test('npm start with a bad flag exits 2 and says what is wrong', () => {
  for (const args of [['--nope'], ['--port', 'x'], ['--mode', 'fix']]) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', ...args], { cwd: root, encoding: 'utf8' })
    expect(run.status, args.join(' ')).toBe(2)
    expect(run.stderr).toMatch(/^dsml-streams serve: .* \(dsml-streams serve --help for usage\)\n$/)
  }
})

test('npm start with an upstream that is not a URL exits 2', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', '0', '--upstream', 'api.deepseek.com'], { cwd: root, encoding: 'utf8' })
  expect(run.status).toBe(2)
  expect(run.stderr).toContain('absolute http(s) URL')
})

test('npm start with a fresh dist/ starts the gateway at once, without building (scripts/start.mjs)', async () => {
  const { startServing, stopAll } = await import('../support/processes.ts')
  try {
    const served = await startServing(process.execPath, ['scripts/start.mjs', '--port', '0'])
    const health = await fetch(`${served.url}/health`)
    expect(health.status).toBe(200)
    // A stale or missing dist/ would be built first, and the script says so.
    expect(served.output()).not.toContain('building')
  } finally {
    stopAll()
  }
}, 60_000)
