/**
 * The `stream-*` rows of seeds/TEST-MATRIX.md, for the AI SDK middleware's
 * `wrapStream`: a `MockLanguageModelV4` streams token-sized deltas, wrapped
 * with `dsmlMiddleware`; each row checks the wrapped model's own parts and,
 * where an app would notice, what `streamText` with declared tools returns.
 * The rows about holding (eager stop, buffer cap, transition) drive the
 * stage's synchronous core one part at a time, to see when text goes out.
 *
 * Where the matrix (written for an older plugin) says a failed block is
 * "re-emitted as text", this library's policy (DESIGN.md §5.2) removes the
 * markup and reports it instead; those rows assert that.
 */
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { assert, assertEqual } from '../support/assert.ts'
import { codePoints, piecesOf } from '../support/chunking.ts'
import { block, dialect, invoke, leaksMarkup, marker, open, param, tokenChunks } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import {
  assertToolSequences,
  barsInDeltas,
  callOptions,
  deltaText,
  finishPart,
  modelParts,
  reasoningParts,
  streamModel,
  streamOf,
  textParts,
  toolCallsOf,
  typesOf,
  viaStreamText,
  wrap,
  type Part,
} from './support.ts'
import { driveCore } from './core-support.ts'
import { MockLanguageModelV4 } from 'ai/test'
import { madeFinish } from '../../src/ai-sdk/finish-reason.ts'

interface Capture {
  id: string
  input: string
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>
  expected_text: string
}

const captures = leaks as unknown as Capture[]
const bash = block([invoke('bash', [param('command', 'ls -la')])])

export const suite = defineSuite('ai-sdk/stream', (test) => {
  test('stream-text-passthrough: plain text deltas come out as the very parts the model sent', async () => {
    const parts = streamOf([
      { type: 'response-metadata', id: 'resp-1', modelId: 'deepseek-v4-flash' },
      ...textParts(['Plain ', 'prose, ', 'a < b and a > b, ', '`code`', ' and | pipes.']),
    ])
    const withMetadata = parts[3] as Extract<Part, { type: 'text-delta' }>
    withMetadata.providerMetadata = { deepseek: { logprob: -0.5 } }
    const unwrapped = await modelParts(streamModel(parts), callOptions(['bash']))
    const wrapped = wrap(streamModel(parts))
    const out = await modelParts(wrapped.model, callOptions(['bash']))
    assertEqual(out, unwrapped, 'parts identical to the unwrapped model')
    assertEqual(wrapped.diagnostics, [], 'no diagnostics')
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['bash'])
    const plain = await viaStreamText(streamModel(parts), ['bash'])
    assertEqual(app, plain, 'streamText sees the same as without the middleware')
    assertEqual(app.toolCalls, [], 'no tool calls')
  })

  test('stream-v2-recovered: a doubled-bar block split per token becomes tool-input-start/delta/end + tool-call', async () => {
    const doubled = dialect({ bars: 2 })
    const leak = doubled.block([doubled.invoke('bash', [doubled.param('command', 'ls -la')])])
    const parts = streamOf(textParts(tokenChunks(leak)))
    const out = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash']))
    assertEqual(typesOf(out), ['stream-start', 'tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'finish'], 'parts (the emptied text part emits neither text-start nor text-end)')
    assertToolSequences(out, assert)
    const [call] = toolCallsOf(out)
    assertEqual({ toolName: call?.toolName, input: JSON.parse(call?.input ?? '') }, { toolName: 'bash', input: { command: 'ls -la' } }, 'call')
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['bash'])
    assertEqual(app.toolCalls, [{ toolName: 'bash', input: { command: 'ls -la' } }], 'streamText tool calls')
    assertEqual(app.text, '', 'no leaked text')
    assertEqual(app.finishReason, 'tool-calls', 'finish')
    assertEqual(app.errors, [], 'no errors')
  })

  test('unrecoveredNote: a call cut off by the model shows as a note in the text, through streamText', async () => {
    const cut = `Listing.\n${bash.slice(0, bash.indexOf('ls -la') + 2)}`
    const parts = streamOf(textParts(tokenChunks(cut)))
    const app = await viaStreamText(wrap(streamModel(parts), { unrecoveredNote: true }).model, ['bash'])
    assertEqual([app.text, app.toolCalls], ['Listing.\n[tool call to "bash" could not be recovered: the output was cut off]', []])
    const off = await viaStreamText(wrap(streamModel(streamOf(textParts(tokenChunks(cut))))).model, ['bash'])
    assertEqual(off.text, 'Listing.\n', 'off by default')
  })

  test('runawayRepeat: a stream repeating one tag ends with finish length, the open text part closed, the model\'s stream cancelled', async () => {
    const doubled = dialect({ bars: 2, tagSpace: true })
    const parts = streamOf(textParts(['Listing.\n', open('tool_calls'), ...Array.from({ length: 200 }, () => doubled.close('parameter'))]))
    let pulled = 0
    let cancelled = false
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<Part>({
          pull(controller) {
            if (pulled < parts.length) controller.enqueue(parts[pulled++]!)
            else controller.close()
          },
          cancel() {
            cancelled = true
          },
        }, { highWaterMark: 0 }),
      }),
    })
    const out = await modelParts(wrap(model, { runawayRepeat: 8 }).model, callOptions(['bash']))
    assertEqual(typesOf(out), ['stream-start', 'text-start', 'text-delta', 'text-end', 'finish'])
    assertEqual([deltaText(out), (out.at(-1) as { finishReason: unknown }).finishReason], ['Listing.\n', { unified: 'length', raw: undefined }])
    // Some runtimes cancel a piped source a few turns after the output ended.
    for (let turn = 0; turn < 100 && !cancelled; turn++) await new Promise((resolve) => setTimeout(resolve, 10))
    assert(cancelled && pulled < parts.length / 2, `the model's stream cancelled after ${pulled} of ${parts.length} parts`)
    const app = await viaStreamText(wrap(streamModel(parts), { runawayRepeat: 8 }).model, ['bash'])
    assertEqual([app.text, app.finishReason, app.toolCalls, app.errors], ['Listing.\n', 'length', [], []])
    // A V2 model (ai 5) gets its own shape: a string reason, flat usage.
    assertEqual(madeFinish('length', 'v2'), { finishReason: 'length', usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined } })
  })

  test('stream-v17-chunk-split: an opener split <, bar, DSML, bar, … is recovered and no partial marker leaks', async () => {
    const leak = `Checking the tree.\n\n${bash}\n`
    const marked = marker()
    // Split exactly at the marker's pieces, then also one code point at a time.
    const opener = ['<', marked[0]!, 'DSML', marked[marked.length - 1]!, 'tool', '_calls', '>']
    const splitOpener = ['Checking the tree.\n\n', ...opener, ...tokenChunks(leak.slice('Checking the tree.\n\n'.length + opener.join('').length))]
    assertEqual(splitOpener.join(''), leak, 'test bug: chunks rebuild the input')
    for (const chunks of [splitOpener, codePoints(leak)]) {
      const out = await modelParts(wrap(streamModel(streamOf(textParts(chunks)))).model, callOptions(['bash']))
      assertEqual(barsInDeltas(out), [], 'no bar in any text delta')
      assertEqual(deltaText(out), 'Checking the tree.\n\n\n', 'text')
      assertEqual(toolCallsOf(out).map((call) => JSON.parse(call.input)), [{ command: 'ls -la' }], 'one call')
      assertToolSequences(out, assert)
    }
  })

  test('stream-finish-rewrite: a recovered call turns finish stop into { unified: tool-calls, raw } and keeps the rest', async () => {
    const finish: Part = { ...finishPart('stop', 'stop'), providerMetadata: { deepseek: { promptCacheHitTokens: 3 } } }
    const parts = streamOf(textParts(tokenChunks(`Listing.\n${bash}`)), finish)
    const out = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash']))
    const last = out[out.length - 1]
    assertEqual(last, { ...finish, finishReason: { unified: 'tool-calls', raw: 'stop' } }, 'finish part')
    assertEqual(typesOf(out).slice(-6), ['text-end', 'tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'finish'], 'calls come just before the finish')
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['bash'])
    assertEqual([app.finishReason, app.rawFinishReason], ['tool-calls', 'stop'], 'streamText finish reason and raw reason')
  })

  test('stream-finish-untouched: without DSML the finish part is the one the model sent', async () => {
    const finish = finishPart('stop', 'stop')
    const parts = streamOf(textParts(['Nothing <to> see ', 'here: <b>bold</b>.']), finish)
    const out = await modelParts(wrap(streamModel(parts)).model, callOptions(['bash']))
    assert(out[out.length - 1] === finish, 'the same finish object')
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['bash'])
    assertEqual([app.finishReason, app.text], ['stop', 'Nothing <to> see here: <b>bold</b>.'], 'finish and text')
  })

  test('stream-unclosed-fallback: a lone block opener is removed, the text after it released at text-end, finish stays stop', async () => {
    const input = `Let me check.\n${open('tool_calls')}\nActually, no tool is needed.`
    const parts = streamOf(textParts(tokenChunks(input)))
    const { outputs, all, diagnostics } = driveCore(parts, {}, callOptions(['bash']))
    assertEqual(deltaText(all), 'Let me check.\n\nActually, no tool is needed.', 'text')
    const textEndAt = parts.findIndex((part) => part.type === 'text-end')
    assert(deltaText(outputs[textEndAt] ?? []).includes('Actually'), 'the held text is released by text-end')
    assertEqual(typesOf(outputs[textEndAt] ?? []).slice(-1), ['text-end'], 'text-end after the released text')
    assertEqual(toolCallsOf(all), [], 'no call')
    assertEqual(diagnostics.map((diagnostic) => [diagnostic.kind, diagnostic.text]), [['dropped-markup', open('tool_calls')]], 'the opener is reported')
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['bash'])
    assertEqual([app.finishReason, app.toolCalls.length], ['stop', 0], 'finish stop, no call')
  })

  test('stream-unclosed-fallback: an invoke cut off by text-end is removed (never run), the text before it kept', async () => {
    const cut = `Let me check.\n${open('tool_calls')}\n${invoke('bash', [param('command', 'ls')], { noCloser: true })}`
    const parts = streamOf(textParts(tokenChunks(cut)))
    const wrapped = wrap(streamModel(parts))
    const out = await modelParts(wrapped.model, callOptions(['bash']))
    assertEqual(deltaText(out), 'Let me check.\n', 'text')
    assertEqual(toolCallsOf(out), [], 'no call')
    assertEqual((out[out.length - 1] as Extract<Part, { type: 'finish' }>).finishReason.unified, 'stop', 'finish')
    assertEqual(wrapped.diagnostics.map((diagnostic) => diagnostic.kind), ['dropped-markup'], 'reported')
    assertEqual(wrapped.diagnostics[0]?.text, cut.slice('Let me check.\n'.length), 'the diagnostic carries the exact removed markup')
  })

  test('stream-empty-invoke-fallback: a closed block with an argument-less invoke of a tool that requires arguments is removed and reported, not run', async () => {
    const empty = block([invoke('bash', [])])
    const input = `a ${empty} b`
    const wrapped = wrap(streamModel(streamOf(textParts(tokenChunks(input)))))
    const bashSchema: { type: 'object'; properties: Record<string, { type: 'string' }>; required: string[] } = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }
    const out = await modelParts(wrapped.model, callOptions([], { tools: [{ type: 'function', name: 'bash', inputSchema: bashSchema }] }))
    assertEqual(deltaText(out), 'a  b', 'text')
    assertEqual(toolCallsOf(out), [], 'no call')
    assertEqual((out[out.length - 1] as Extract<Part, { type: 'finish' }>).finishReason, { unified: 'stop', raw: 'stop' }, 'finish')
    assertEqual(wrapped.diagnostics.map((diagnostic) => diagnostic.text).join(''), empty, 'every removed character is reported')
  })

  test('declared tools (DESIGN §5.1): the call is fitted to its inputSchema; a zero-argument invoke is a call when the schema requires nothing', async () => {
    const schema = { type: 'object', properties: { timeout: { type: 'integer' }, command: { type: 'string' } } } as const
    const leak = `${block([invoke('bash', [param('command', 'ls'), param('timeout', '30')])])}${block([invoke('bash', [])])}`
    const wrapped = wrap(streamModel(streamOf(textParts(tokenChunks(leak)))))
    const out = await modelParts(wrapped.model, callOptions([], { tools: [{ type: 'function', name: 'bash', inputSchema: schema }] }))
    assertEqual(
      toolCallsOf(out).map((call) => JSON.parse(call.input) as unknown),
      [{ command: 'ls', timeout: 30 }, {}],
      '"30" → 30; the empty invoke is a call',
    )
  })

  test('stream-surrounding: "a " + block + " b" gives text "a  b" and one call', async () => {
    const parts = streamOf(textParts(tokenChunks(`a ${bash} b`)))
    const app = await viaStreamText(wrap(streamModel(parts)).model, ['bash'])
    assertEqual(app.text, 'a  b', 'text')
    assertEqual(app.toolCalls, [{ toolName: 'bash', input: { command: 'ls -la' } }], 'call')
    assertEqual(app.finishReason, 'tool-calls', 'finish')
  })

  test('stream-multiline-edit: the captured wrapped edit (opencode-plugin-golden-5177) gives one edit call with exact arguments', async () => {
    const capture = captures.find((entry) => entry.id === 'opencode-plugin-golden-5177-wrapped-edit')!
    const app = await viaStreamText(wrap(streamModel(streamOf(textParts(tokenChunks(capture.input))))).model, ['edit', 'read'])
    assertEqual(app.toolCalls, capture.expected_calls.map((call) => ({ toolName: call.name, input: call.arguments })), 'edit call')
    assertEqual(app.text.trimEnd(), capture.expected_text.trimEnd(), 'text')
    assertEqual(app.finishReason, 'tool-calls', 'finish')
  })

  test('stream-orphan-invoke: an invoke with no block, mid-stream, gives one call and keeps the text around it', async () => {
    const input = `Reading it.\n${invoke('read', [param('path', 'src/a.kt')])}\nDone.`
    const app = await viaStreamText(wrap(streamModel(streamOf(textParts(tokenChunks(input))))).model, ['read'])
    assertEqual(app.toolCalls, [{ toolName: 'read', input: { path: 'src/a.kt' } }], 'call')
    assertEqual(app.text, 'Reading it.\n\nDone.', 'text')
  })

  test('stream-buffer-cap: over 64 KiB of unclosed markup is reported in bounded pieces while streaming, never held whole', () => {
    const head = `Writing the file.\n${open('tool_calls')}\n${open('invoke', { name: 'write' })}\n${open('parameter', { name: 'content', string: 'true' })}`
    const input = head + 'x'.repeat(200 * 1024)
    const deltas = piecesOf(input, 1000)
    const parts = streamOf(textParts(deltas))
    const { outputs, all, diagnostics } = driveCore(parts, {}, callOptions(['write']))
    // Held = received - (emitted text + removed text); it must stay under the cap after every part.
    let received = 0
    let released = 0
    let reported = 0
    const seen = new Set<unknown>()
    parts.forEach((part, index) => {
      if (part.type === 'text-delta') received += part.delta.length
      released += deltaText(outputs[index] ?? []).length
      for (const diagnostic of diagnostics) {
        if (seen.has(diagnostic)) continue
        seen.add(diagnostic)
        reported += diagnostic.text.length
      }
      assert(received - released - reported <= 65_536, `held ${received - released - reported} chars after part ${index}`)
    })
    const kinds = new Set(diagnostics.map((diagnostic) => diagnostic.kind))
    assert(kinds.has('hold-limit'), `expected a hold-limit diagnostic, got ${[...kinds].join(', ')}`)
    assertEqual(deltaText(all).length + diagnostics.reduce((sum, diagnostic) => sum + diagnostic.text.length, 0), input.length, 'every character is text or reported')
    assert(!leaksMarkup(deltaText(all)), 'no markup in the text')
    assertEqual(toolCallsOf(all), [], 'no call')
    assertEqual((all[all.length - 1] as Extract<Part, { type: 'finish' }>).finishReason.unified, 'stop', 'finish stays stop')
  })

  test('stream-eager-stop: a markerless opener in prose is released early as text, not held to the end', () => {
    const prose = 'The template reads <parameter name="x"> and then goes on. '.concat('More prose here. '.repeat(200))
    const deltas = piecesOf(prose, 100)
    const parts = streamOf(textParts(deltas))
    const { outputs, all } = driveCore(parts)
    assertEqual(deltaText(all), prose, 'text unchanged')
    const releasedAt = outputs.findIndex((output) => deltaText(output).includes('<parameter'))
    assert(releasedAt >= 0 && releasedAt < 20, `the opener is released after about 1024 chars (part ${releasedAt} of ${parts.length})`)
  })

  test('stream-transition (channels independent): a reasoning part mid-text leaves the held text held; the text decides it', () => {
    const candidate = '<parameter name="x">'
    const parts = streamOf([
      { type: 'text-start', id: 'txt-0' },
      { type: 'text-delta', id: 'txt-0', delta: `Hello ${candidate}` },
      ...reasoningParts(['thinking']),
      { type: 'text-delta', id: 'txt-0', delta: ' world' },
      { type: 'text-end', id: 'txt-0' },
    ])
    const { outputs, all } = driveCore(parts)
    assertEqual(outputs[2], [{ type: 'text-start', id: 'txt-0' }, { type: 'text-delta', id: 'txt-0', delta: 'Hello ' }], 'text before the candidate goes out at once')
    assertEqual(outputs[3], [{ type: 'reasoning-start', id: 'reasoning-0' }], 'the reasoning goes out; the candidate stays held')
    assertEqual(deltaText(all), `Hello ${candidate} world`, 'text')
    assertEqual(typesOf(all), ['stream-start', 'text-start', 'text-delta', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-delta', 'text-end', 'finish'], 'order')
  })

  test('stream-transition: a tag start whose marker is undecided waits for its text, so no marker is joined across a reasoning part', () => {
    const bar = '\uFF5C'
    for (const [before, after, text] of [
      ['Sure <', 'b> world', 'Sure <b> world'],
      [`Sure <${bar}`, `DSML${bar}tool_calls>\n`, 'Sure \n'],
    ] as const) {
      const parts = streamOf([
        { type: 'text-start', id: 'txt-0' },
        { type: 'text-delta', id: 'txt-0', delta: before },
        ...reasoningParts(['thinking']),
        { type: 'text-delta', id: 'txt-0', delta: after },
        { type: 'text-end', id: 'txt-0' },
      ])
      const { outputs, all } = driveCore(parts)
      assertEqual(outputs[3], [{ type: 'reasoning-start', id: 'reasoning-0' }], `${JSON.stringify(before)}: the tag start is still held at the reasoning part`)
      assertEqual(deltaText(all), text, `${JSON.stringify(before)}: the text`)
    }
  })

  test('stream-transition: a finish resolves everything held before it, a tag start included', () => {
    const parts = streamOf([{ type: 'text-start', id: 'txt-0' }, { type: 'text-delta', id: 'txt-0', delta: 'a <' }])
    const { all } = driveCore(parts)
    assertEqual(typesOf(all).slice(-2), ['text-delta', 'finish'], 'the < goes out before the finish')
    assertEqual(deltaText(all), 'a <', 'text')
  })

  test('stream-transition: held markup interrupted by a native tool part is resolved (removed) before it', () => {
    const parts = streamOf([
      ...textParts([`Let me look.\n${open('tool_calls')}\n${open('invoke', { name: 'read' })}`]).slice(0, 2),
      { type: 'tool-input-start', id: 'native-1', toolName: 'read' },
      { type: 'tool-input-delta', id: 'native-1', delta: '{"path":"a"}' },
      { type: 'tool-input-end', id: 'native-1' },
      { type: 'tool-call', toolCallId: 'native-1', toolName: 'read', input: '{"path":"a"}' },
      { type: 'text-end', id: 'txt-0' },
    ], finishPart('tool-calls', 'tool_calls'))
    const { outputs, all, diagnostics } = driveCore(parts, {}, callOptions(['read']))
    assertEqual(typesOf(outputs[3] ?? []), ['tool-input-start'], 'the hold was resolved before (nothing left to emit)')
    assertEqual(deltaText(all), 'Let me look.\n', 'text')
    assertEqual(diagnostics.map((diagnostic) => diagnostic.kind), ['dropped-markup'], 'markup reported')
    assertEqual(typesOf(all).filter((type) => type === 'tool-call').length, 1, 'only the native call')
  })
})
