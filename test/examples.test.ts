// Every example runs and prints what it promises (Node; examples are user-facing scripts).
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

function run(example: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', `examples/${example}`], { cwd: root, encoding: 'utf8' })
}

test('examples/sanitize-stored-text.ts recovers the read call and keeps the prose', () => {
  const output = run('sanitize-stored-text.ts')
  expect(output).toContain('text: "Let me look at the config first.\\n\\n"')
  expect(output).toContain('call: read {"path":"/etc/app/config.toml"}')
})

test('examples/stream.ts turns a doubled-bar leak into a tool-call event', () => {
  const output = run('stream.ts')
  expect(output).toContain('tool-call: web_search {"query":"deepseek dsml leak"}')
  expect(output).not.toContain('DSML')
})

test('examples/chat-completions.ts: composed stages and the fused stream agree, and the leak becomes tool_calls', () => {
  const output = run('chat-completions.ts')
  expect(output).toContain('identical: true')
  expect(output).toContain('chunks with tool_calls: 1')
  expect(output).toContain('"finish_reason":"tool_calls"')
  expect(output).not.toContain('\uFF5C')
})

test('examples/repair-fetch.ts: the OpenAI SDK with createRepairFetch gets the call, finish tool_calls, no marker', () => {
  const output = run('repair-fetch.ts')
  expect(output).toContain('call: bash {"command":"ls -la"}')
  expect(output).toContain('finish: tool_calls')
  expect(output).toContain('text: "Checking.\\n\\n"')
  expect(output).not.toContain('\uFF5C')
})
