// `npm start` end to end (Node only: the CLI is the Node glue).
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

test('npm start prints the capture report with every capture recovered as expected', () => {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '--fixtures', 'test/fixtures/leaks-real.json'], {
    cwd: root,
    encoding: 'utf8',
  })
  expect(output).toContain('21/21 captures give their expected calls and text')
  expect(output).toContain('exec_command(cmd)')
  expect(output).not.toContain('\uFF5C')
})
