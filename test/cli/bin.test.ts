// The `dsml-streams` command as installed: the built bin (dist/cli/bin.mjs), run by Node. Runs
// after `npm run build` (npm test builds first). Node only: the command is the Node glue.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { lingmaEvents } from '../../src/cli/replay-framing.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }
const bin = join(root, manifest.bin['dsml-streams']!)
const work = mkdtempSync(join(tmpdir(), 'dsml-streams-bin-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const MARKER = '\uFF5CDSML\uFF5C'
const LEAK = `Let me check.\n\n<${MARKER}tool_calls>\n<${MARKER}invoke name="read_file">\n<${MARKER}parameter name="path" string="true">src/a.ts</${MARKER}parameter>\n</${MARKER}invoke>\n</${MARKER}tool_calls>`

function run(args: string[], input?: string) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', ...(input === undefined ? {} : { input }) })
}

function file(name: string, text: string): string {
  const path = join(work, name)
  writeFileSync(path, text)
  return path
}

/** A Chat Completions SSE body of these content deltas. */
function sse(deltas: readonly string[]): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  return `${chunk({ role: 'assistant', content: '' }, null)}${deltas.map((content) => chunk({ content }, null)).join('')}${chunk({}, 'stop')}data: [DONE]\n\n`
}

test('sanitize FILE (text): the clean text on stdout, the recovered call and removed markup on stderr, exit 0', () => {
  const result = run(['sanitize', file('reply.txt', LEAK)])
  expect(result.status).toBe(0)
  expect(result.stdout).toBe('Let me check.\n\n')
  expect(result.stderr.trim()).toBe('dsml-streams: text: 1 call recovered (read_file); 1 other markup region removed')
})

test('sanitize - and no FILE read standard input; --json writes the events, one JSON line each', () => {
  for (const args of [['sanitize', '-'], ['sanitize']]) expect(run(args, LEAK).stdout).toBe('Let me check.\n\n')
  const events = run(['sanitize', '--json'], LEAK).stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; call?: { name: string; arguments: unknown } })
  expect(events.map((event) => event.type)).toEqual(['text', 'tool-call', 'diagnostic', 'diagnostic'])
  expect(events[1]!.call).toMatchObject({ name: 'read_file', arguments: { path: 'src/a.ts' } })
})

test('sanitize detects a Chat Completions SSE stream and a JSON chat.completion (or takes --format); --known-tools and --mode strip apply', () => {
  const streamed = run(['sanitize', file('stream.sse', sse([LEAK.slice(0, 20), LEAK.slice(20)]))])
  expect(streamed.status).toBe(0)
  expect(streamed.stdout).toContain('"tool_calls":[{"index":0,')
  expect(streamed.stdout).toContain('"finish_reason":"tool_calls"')
  expect(streamed.stdout).not.toContain(MARKER)
  expect(streamed.stderr).toContain('dsml-streams: sse: 1 call recovered (read_file)')
  const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: LEAK }, finish_reason: 'stop' }] }
  const json = run(['sanitize', file('completion.json', JSON.stringify(completion))])
  const repaired = JSON.parse(json.stdout) as { choices: Array<{ message: { content: string; tool_calls: Array<{ function: { name: string } }> }; finish_reason: string }> }
  expect(repaired.choices[0]!.message.tool_calls[0]!.function.name).toBe('read_file')
  expect(repaired.choices[0]!.finish_reason).toBe('tool_calls')
  expect(run(['sanitize', '--format', 'text', file('as-text.json', JSON.stringify(completion))]).stderr).toContain('dsml-streams: text:')
  expect(run(['sanitize', '--known-tools', 'bash'], LEAK).stderr).toContain('no call recovered')
  expect(run(['sanitize', '--mode', 'strip'], LEAK).stdout).toBe('Let me check.\n\n')
})

/** The CLI error table: each usage error and bad input, its exit and its one line. */
test('bad input or usage: one line on stderr (a usage error pointing to --help), a non-zero exit, never a stack trace', () => {
  const cases: Array<[string[], number, RegExp, string?]> = [
    [['sanitize', join(work, 'missing.txt')], 1, /^dsml-streams sanitize: cannot read .*missing\.txt: no such file$/],
    [['sanitize', work], 1, /^dsml-streams sanitize: cannot read .*: it is a directory$/],
    [['sanitize', '--format', 'xml'], 2, /^dsml-streams sanitize: --format must be auto, text, sse or json, got xml/],
    [['sanitize', '--nope'], 2, /^dsml-streams sanitize: Unknown option '--nope'/],
    [['sanitize', 'a', 'b'], 2, /one FILE at most/],
    [['sanitize', '--format', 'json', file('not.json', 'hello')], 1, /^dsml-streams sanitize: the input is not JSON/],
    [['sanitize', '--format', 'sse', '-'], 1, /^dsml-streams sanitize: the input holds no SSE event or comment .* \(try --format text\)$/, 'just some plain text, not SSE\n'],
    [['frobnicate'], 2, /^dsml-streams: no such command "frobnicate" \(commands: serve, sanitize, replay; dsml-streams --help for usage\)$/],
    [['serve', '--port', 'x'], 2, /^dsml-streams serve: --port must be an integer from 0 to 65535, got x \(dsml-streams serve --help for usage\)$/],
    [['serve', '--no-such-flag'], 2, /^dsml-streams serve: Unknown option '--no-such-flag' \(dsml-streams serve --help for usage\)$/],
    [['serve', '--port', '-1'], 2, /^dsml-streams serve: --port must not be negative, got -1 /],
    [['serve', '--max-in-flight', '-3'], 2, /^dsml-streams serve: --max-in-flight must not be negative, got -3 /],
    [['serve', '--upstream', '--mode'], 2, /^dsml-streams serve: --upstream needs a value, got the option --mode /],
    [['replay', '--delay', 'soon'], 2, /^dsml-streams replay: --delay must be a number/],
    [['replay', '--no-such-flag'], 2, /^dsml-streams replay: Unknown option '--no-such-flag' \(dsml-streams replay --help for usage\)$/],
    [['replay', '--port', '-5'], 2, /^dsml-streams replay: --port must not be negative, got -5 /],
  ]
  for (const [args, status, message, input] of cases) {
    const result = run(args, input ?? '')
    expect(result.status, args.join(' ')).toBe(status)
    expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1)
    expect(result.stderr.split('\n')[0], args.join(' ')).toMatch(message)
    expect(result.stderr, args.join(' ')).not.toMatch(/\n\s+at /)
  }
})

test('--version prints the package version; -h answers on every subcommand', () => {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version
  for (const flag of ['--version', '-v', 'version']) expect([run([flag]).status, run([flag]).stdout.trim()], flag).toEqual([0, version])
  for (const command of ['serve', 'sanitize', 'replay']) {
    const result = run([command, '-h'])
    expect([result.status, result.stdout.startsWith(`Usage: dsml-streams ${command}`)], command).toEqual([0, true])
  }
  expect(run(['serve', '-h']).stdout).toContain('POST /v1/responses')
})

test('with --fixtures, the banners name the capture the replay serves by default', async () => {
  const fixtures = file('two.json', JSON.stringify([{ id: 'first-capture', input: 'hi' }, { id: 'second-capture', input: 'there' }]))
  for (const command of ['serve', 'replay']) {
    const child = spawn(process.execPath, [bin, command, '--port', '0', '--fixtures', fixtures], { cwd: work })
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (data: Buffer) => {
          out += data.toString()
          if (/default first-capture/.test(out) && (command === 'replay' || out.includes('try it:'))) resolve(out)
        })
        child.on('exit', (code) => reject(new Error(`${command} exited ${code}: ${out}`)))
      })
      expect(output, command).not.toContain('cherry')
    } finally {
      child.kill('SIGTERM')
    }
  }
})

test('--help for the command and each subcommand', () => {
  expect(run(['--help']).stdout).toContain('Usage: dsml-streams <command> [options]')
  expect(run([]).stdout).toContain('Commands:')
  expect(run(['serve', '--help']).stdout).toContain('Usage: dsml-streams serve [options]')
  expect(run(['sanitize', '--help']).stdout).toContain('Usage: dsml-streams sanitize [FILE|-] [options]')
  expect(run(['replay', '--help']).stdout).toContain('Usage: dsml-streams replay [options]')
})

test('replay serves the built-in captures in every wire format, with no files beside the bin', async () => {
  const child = spawn(process.execPath, [bin, 'replay', '--port', '0'], { cwd: work })
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (data: Buffer) => {
        out += data.toString()
        const found = /http:\/\/[^\s]+/.exec(out)
        if (found !== null) resolve(found[0])
      })
      child.on('exit', (code) => reject(new Error(`replay exited ${code}`)))
    })
    const post = (path: string, body: unknown): Promise<Response> => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const chat = await (await post('/v1/chat/completions', { model: 'cherry-14747-captured-sse-deltas', stream: true, messages: [] })).text()
    expect(chat).toContain(MARKER.slice(1, 5))
    expect(chat.endsWith('data: [DONE]\n\n')).toBe(true)
    const responses = await (await post('/v1/responses', { model: 'cherry-14747-captured-sse-deltas', stream: true, input: 'go' })).text()
    for (const type of ['response.created', 'response.output_text.delta', 'response.completed']) expect(responses).toContain(`event: ${type}\n`)
    const captures = (await (await fetch(`${base}/captures`)).json()) as { data: unknown[] }
    expect(captures.data.length).toBe(21)
    const lingma = await (await fetch(`${base}/algo/api/v2/service/pro/sse/agent_chat_generation`, { method: 'POST', body: JSON.stringify({ model_config: { key: 'cherry-14747-captured-sse-deltas' } }) })).text()
    expect(lingma.endsWith(lingmaEvents('x', 'm', ['a'], 1, 1).at(-1)!)).toBe(true)
  } finally {
    child.kill('SIGTERM')
  }
})
