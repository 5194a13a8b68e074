/**
 * Behaviour of the Chat Completions repair at the edges a gateway meets:
 * native and leaked calls in one message (either order), leaks in
 * `reasoning_content`, an upstream error mid-stream (in-band error object and
 * a failing body), an upstream that ends without `[DONE]` or a finish chunk,
 * malformed JSON in one chunk, keep-alive comments, a 10 MB single chunk
 * (the SSE buffer cap), the consumer cancelling (the upstream body is
 * cancelled), and the options (`mode`, `knownTools`, truncation).
 *
 * Unless a case says otherwise, every input is checked three ways: the fused
 * core, `ChatCompletionsRepairStream` and the six composed stages give the
 * same bytes (`check`).
 */
import { SseDecoderStream, StreamLimitError } from '../../src/sse/index.ts'
import {
  ChatCompletionsDecoderStream,
  ChatCompletionsRepairStream,
  createChatCompletionsRepair,
} from '../../src/chat-completions/index.ts'
import type { ChatCompletionsRepairOptions } from '../../src/chat-completions/repair.ts'
import { assert, assertEqual, thrownBy } from '../support/assert.ts'
import { block, invoke, leaksMarkup, param } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import {
  answer,
  bytesEqual,
  callShapes,
  chunk,
  chunkJson,
  collect,
  collectUntilError,
  composedBytes,
  data,
  DONE,
  ENVELOPE,
  firstDifference,
  fromUtf8,
  fusedBytes,
  nativeCall,
  readRepaired,
  reasoning,
  repair,
  repairChunks,
  ROLE,
  settle,
  STOP,
  streamOf,
  text,
  USAGE,
  USAGE_CHUNK,
  utf8,
  type Repaired,
  type RepairRun,
} from './support.ts'

const BASH = block([invoke('bash', [param('command', 'ls -la')])])
const READ = block([invoke('read', [param('path', '/etc/hosts')])])
const NATIVE_ARGS = '{"command":"ls -la"}'

/** Runs the fused core, checks that the fused stream and the composed stages give the same bytes, and reads the output. */
async function check(input: string, options: ChatCompletionsRepairOptions = {}): Promise<RepairRun & { repaired: Repaired }> {
  const run = repair(input, options)
  const bytes = [utf8(input)]
  const fused = await fusedBytes(bytes, options)
  const composed = await composedBytes(bytes, options)
  assert(bytesEqual(fused, composed), `fused and composed differ\n${firstDifference(fused, composed)}`)
  assertEqual(fromUtf8(fused), run.output, 'the fused stream gives the core’s output')
  return { ...run, repaired: readRepaired(run.output) }
}

function kinds(run: RepairRun): string[] {
  return run.diagnostics.map((diagnostic) => diagnostic.kind)
}

export const suite = defineSuite('chat-completions/behaviour', (test) => {
  // ------------------------------------------------------------------ native + leaked

  test('native then leaked duplicate: only the native call goes out, the markup is removed, a duplicate-call diagnostic', async () => {
    const input = ROLE + nativeCall(0, 'call_native', 'bash', NATIVE_ARGS) + text('Running it. ') + text(BASH) + chunk({}, 'tool_calls') + USAGE_CHUNK + DONE
    const run = await check(input)
    assertEqual(run.repaired.calls, [{ index: 0, id: 'call_native', type: 'function', name: 'bash', arguments: NATIVE_ARGS }], 'native call only')
    assertEqual(run.repaired.content, 'Running it. ', 'markup removed')
    assertEqual(run.repaired.finishReasons, ['tool_calls'], 'finish as it came')
    assertEqual(run.repaired.usages, [USAGE], 'usage')
    assert(kinds(run).includes('duplicate-call'), `duplicate-call reported: ${kinds(run).join(', ')}`)
    assertEqual(run.diagnostics.find((diagnostic) => diagnostic.kind === 'duplicate-call')?.tool, 'bash', 'names the tool')
  })

  test('leaked then native duplicate: the recovered call is still not sent (the decision waits for the finish)', async () => {
    const input = ROLE + text(BASH) + nativeCall(0, 'call_native', 'bash', NATIVE_ARGS) + chunk({}, 'tool_calls') + DONE
    const run = await check(input)
    assertEqual(run.repaired.calls.map((call) => call.id), ['call_native'], 'native call only')
    assertEqual(run.repaired.content, '', 'markup removed')
    assertEqual(run.repaired.finishReasons, ['tool_calls'], 'finish')
    assert(kinds(run).includes('duplicate-call'), 'duplicate-call reported')
  })

  test('native calls win for the whole message: a different leaked call is not sent either, in both orders', async () => {
    for (const order of ['native first', 'leak first'] as const) {
      const native = nativeCall(0, 'call_native', 'bash', NATIVE_ARGS)
      const body = order === 'native first' ? native + text(READ) : text(READ) + native
      const run = await check(ROLE + body + chunk({}, 'tool_calls') + DONE)
      assertEqual(run.repaired.calls.map((call) => call.name), ['bash'], `${order}: native call only`)
      assertEqual(run.repaired.content, '', `${order}: markup removed`)
    }
  })

  test('native call with finish_reason stop and a leak: the finish is not rewritten by the repair', async () => {
    const run = await check(ROLE + text(BASH) + nativeCall(0, 'call_native', 'bash', NATIVE_ARGS) + STOP + DONE)
    assertEqual(run.repaired.finishReasons, ['stop'], 'upstream finish kept')
    assertEqual(run.repaired.calls.length, 1, 'native call only')
  })

  test('JSON nested 5,000 deep in a leaked call (a string="false" value, a raw JSON body) or in a native call: no throw; the leaked value is kept as its text with an invalid-json diagnostic; 512 deep (MAX_JSON_DEPTH) is still JSON', async () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
    const deep = await check(ROLE + text('hi ' + block([invoke('write', [param('v', nested(5000), { string: 'false' })])])) + STOP + DONE)
    assertEqual(callShapes(deep.repaired.calls), [{ name: 'write', arguments: { v: nested(5000) } }], 'the value as its text')
    assert(deep.diagnostics.some((diagnostic) => diagnostic.kind === 'invalid-json' && diagnostic.tool === 'write'), 'invalid-json reported')
    const limit = await check(ROLE + text(block([invoke('write', [param('v', nested(512), { string: 'false' })])])) + STOP + DONE)
    assertEqual(JSON.stringify(callShapes(limit.repaired.calls)[0]?.arguments), `{"v":${nested(512)}}`, '512 deep: JSON')
    const body = await check(ROLE + text(block([invoke('write', [], { body: `{"v":${nested(5000)}}` })])) + STOP + DONE)
    assertEqual(body.repaired.content, '', 'a raw body too deep: no arguments, no throw, no markup out')
    const native = await check(ROLE + text(BASH) + nativeCall(0, 'call_native', 'bash', `{"v":${nested(5000)}}`) + STOP + DONE)
    assertEqual(native.repaired.calls.map((call) => [call.id, call.arguments]), [['call_native', `{"v":${nested(5000)}}`]], 'a native call nested too deep: compared as its text (no throw), passed on as sent')
  })

  // ------------------------------------------------------------------ reasoning

  test('leak in reasoning_content: removed from the reasoning, the call is recovered, finish stop → tool_calls', async () => {
    const input = ROLE + reasoning('I should list files. ') + reasoning(BASH.slice(0, 30)) + reasoning(BASH.slice(30)) + text('Listing.') + STOP + USAGE_CHUNK + DONE
    const run = await check(input)
    assertEqual(run.repaired.reasoning, 'I should list files. ', 'reasoning cleaned')
    assert(!leaksMarkup(run.repaired.reasoning), 'no markup in reasoning')
    assertEqual(run.repaired.content, 'Listing.', 'content untouched')
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call')
    assertEqual(run.repaired.finishReasons, ['tool_calls'], 'finish')
    for (const chunkData of run.repaired.chunks) {
      const delta = (chunkData.choices as Array<{ delta?: Record<string, unknown> }>)[0]?.delta
      if (delta !== undefined && 'reasoning_content' in delta) assertEqual(delta.content, null, 'reasoning chunks keep content: null')
    }
  })

  test('the same call drafted in reasoning_content and leaked in content is sent once', async () => {
    const run = await check(ROLE + reasoning('Plan: ' + BASH) + text(BASH) + STOP + DONE)
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'one call')
    assertEqual(run.repaired.reasoning, 'Plan: ', 'reasoning cleaned')
    assertEqual(run.repaired.content, '', 'content cleaned')
    assert(kinds(run).includes('duplicate-call'), 'the copy is reported')
  })

  test('a call leaked twice in content is sent twice (only a cross-channel copy is deduplicated)', async () => {
    const run = await check(ROLE + text(BASH) + text(BASH) + STOP + DONE)
    assertEqual(run.repaired.calls.map((call) => call.index), [0, 1], 'two calls, indexes 0 and 1')
    assertEqual(run.repaired.calls.map((call) => call.id), ['call_1', 'call_2'], 'distinct ids')
  })

  // ------------------------------------------------------------------ upstream errors

  test('upstream error object mid-stream: held text is resolved first, the error is forwarded as it came, the stream closes without [DONE]', async () => {
    const error = JSON.stringify({ error: { message: 'Internal server error', type: 'server_error', param: null, code: 'internal_error' } })
    const input = ROLE + text('a ') + text('<') + data(error)
    const run = await check(input)
    assertEqual(run.repaired.content, 'a <', 'held "<" released as text before the error')
    assertEqual(run.repaired.data[run.repaired.data.length - 1], error, 'error forwarded byte for byte, last')
    assertEqual(run.repaired.doneCount, 0, 'no [DONE] invented')
    const madeUp = run.repaired.chunks[run.repaired.chunks.length - 2] as Record<string, unknown>
    for (const key of ['id', 'object', 'created', 'model', 'system_fingerprint'] as const) assertEqual(madeUp[key], ENVELOPE[key], `released text keeps the envelope: ${key}`)
  })

  test('upstream error object inside a leak: the partial markup is removed (reported), the error forwarded, no call', async () => {
    const error = JSON.stringify({ error: { message: 'upstream timeout' } })
    const run = await check(ROLE + text('Let me check. ') + text(BASH.slice(0, 70)) + data(error) + DONE)
    assertEqual(run.repaired.content, 'Let me check. ', 'content')
    assert(!leaksMarkup(run.output), 'no markup in the output')
    assertEqual(run.repaired.calls, [], 'no call from an incomplete invoke')
    assertEqual(run.repaired.data.slice(-2), [error, '[DONE]'], 'error and [DONE] forwarded')
    const dropped = run.diagnostics.filter((diagnostic) => diagnostic.kind === 'dropped-markup').map((diagnostic) => diagnostic.text).join('')
    assertEqual(dropped, BASH.slice(0, 70), 'the removed markup is reported exactly')
  })

  test('`event: error` message mid-stream: forwarded with its event field', async () => {
    const run = await check(ROLE + text('x') + 'event: error\ndata: {"message":"overloaded"}\n\n')
    assertEqual(run.repaired.messages[run.repaired.messages.length - 1], { event: 'error', data: '{"message":"overloaded"}' }, 'forwarded')
  })

  test('upstream body fails mid-stream: what came before is delivered, then the output fails with the same error', async () => {
    const failure = new Error('connection reset')
    let pulls = 0
    const upstream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        if (pulls === 1) controller.enqueue(utf8(ROLE + text('partial ')))
        else controller.error(failure)
      },
    })
    const { values, error } = await collectUntilError(upstream.pipeThrough(new ChatCompletionsRepairStream()))
    assert(error === failure, `the upstream error is the output error: ${String(error)}`)
    assertEqual(readRepaired(values.map(fromUtf8).join('')).content, 'partial ', 'delivered before the failure')
  })

  // ------------------------------------------------------------------ truncated upstream

  test('upstream ends without [DONE] or a finish chunk: held text resolved into a last chunk with the envelope, nothing invented', async () => {
    const run = await check(ROLE + text('hello ') + text('<'))
    assertEqual(run.repaired.content, 'hello <', 'held text released')
    assertEqual(run.repaired.doneCount, 0, 'no [DONE] invented')
    assertEqual(run.repaired.finishReasons, [], 'no finish invented')
    const last = run.repaired.chunks[run.repaired.chunks.length - 1] as Record<string, unknown>
    assertEqual(last.id, ENVELOPE.id, 'envelope copied')
    assertEqual(last.model, ENVELOPE.model, 'model copied')
  })

  test('upstream ends without [DONE] or a finish after a complete leak: markup removed, the call not sent (no finish), suppressed-call', async () => {
    const run = await check(ROLE + text('hello ') + text(BASH))
    assertEqual(run.repaired.content, 'hello ', 'content')
    assertEqual(run.repaired.calls, [], 'no call without a finish')
    assert(!leaksMarkup(run.output), 'no markup')
    assert(kinds(run).includes('suppressed-call'), 'suppressed-call reported')
  })

  test('upstream ends inside a leak: the partial markup is removed and reported', async () => {
    const run = await check(ROLE + text('hello ') + text(BASH.slice(0, 50)))
    assertEqual(run.repaired.content, 'hello ', 'content')
    assert(!leaksMarkup(run.output), 'no markup')
    assertEqual(run.diagnostics.filter((diagnostic) => diagnostic.kind === 'dropped-markup').map((diagnostic) => diagnostic.text).join(''), BASH.slice(0, 50), 'reported')
  })

  test('[DONE] without a finish chunk: held text resolved before [DONE], no call sent', async () => {
    const run = await check(ROLE + text('ok <') + DONE)
    assertEqual(run.repaired.content, 'ok <', 'content')
    assertEqual(run.repaired.data[run.repaired.data.length - 1], '[DONE]', '[DONE] last')
    const withLeak = await check(ROLE + text(BASH) + DONE)
    assertEqual(withLeak.repaired.calls, [], 'no call without a finish')
    assertEqual(withLeak.repaired.content, '', 'markup removed')
    assertEqual(withLeak.repaired.doneCount, 1, 'one [DONE]')
  })

  test('an event cut off without its blank line at the end of the body is dropped (SSE rule); held text still resolved', async () => {
    const run = await check(ROLE + text('x <') + 'data: {"choices":[{"index":0,"delta":{"content":"y"}')
    assertEqual(run.repaired.content, 'x <', 'the unfinished event is not dispatched')
  })

  // ------------------------------------------------------------------ malformed chunks

  test('malformed JSON in one chunk: forwarded unchanged with a malformed-chunk diagnostic; the rest is repaired', async () => {
    const bad = '{"id":"chatcmpl-test-1","choices":[{"index":0,"delta":{"content":"oops"}'
    const input = ROLE + text('Hi. ') + data(bad) + text(BASH) + STOP + DONE
    const run = await check(input)
    assert(run.repaired.data.includes(bad), 'malformed data forwarded byte for byte')
    assertEqual(run.diagnostics.filter((diagnostic) => diagnostic.kind === 'malformed-chunk').length, 1, 'one malformed-chunk diagnostic')
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call recovered')
    assertEqual(run.repaired.finishReasons, ['tool_calls'], 'finish')
    assertEqual(run.repaired.content, 'Hi. ', 'content')
  })

  test('malformed JSON inside a leak: no markup reaches the content, and the output is forwarded in order', async () => {
    const bad = '{not json'
    const run = await check(ROLE + text('Hi. ') + text(BASH.slice(0, 40)) + data(bad) + text(BASH.slice(40)) + STOP + DONE)
    assert(run.repaired.data.includes(bad), 'forwarded')
    assert(!leaksMarkup(run.repaired.content), `no marker in content: ${JSON.stringify(run.repaired.content)}`)
  })

  test('malformed JSON inside a leak: forwarded unchanged, the call still recovered across it, no tag residue', async () => {
    const run = await check(ROLE + text('Hi. ') + text(BASH.slice(0, 40)) + data('{not json') + text(BASH.slice(40)) + STOP + DONE)
    assertEqual(run.repaired.content, 'Hi. ', `content: ${JSON.stringify(run.repaired.content)}`)
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call recovered across the bad chunk')
  })

  // ------------------------------------------------------------------ per-chunk extras

  test('usage: null and reasoning_content: null on every chunk (OpenAI include_usage, DeepSeek content phase): a leak across chunks is recovered', async () => {
    const pieces = ['Sure. ', BASH.slice(0, 25), BASH.slice(25, 60), BASH.slice(60)]
    const input = ROLE + pieces.map((piece) => chunk({ content: piece, reasoning_content: null }, null, { usage: null })).join('') + chunk({ content: '' }, 'stop', { usage: null }) + USAGE_CHUNK + DONE
    const run = await check(input)
    assertEqual(run.repaired.content, 'Sure. ', 'content')
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call')
  })

  test('usage on every chunk (vLLM continuous_usage_stats): a leak across chunks is still recovered', async () => {
    let tokens = 0
    const usage = (): Record<string, unknown> => ({ usage: { prompt_tokens: 10, completion_tokens: ++tokens, total_tokens: 10 + tokens } })
    const pieces = ['Sure. ', BASH.slice(0, 25), BASH.slice(25, 60), BASH.slice(60)]
    const input = chunk({ role: 'assistant', content: '' }, null, usage()) + pieces.map((piece) => chunk({ content: piece }, null, usage())).join('') + chunk({ content: '' }, 'stop', usage()) + DONE
    const run = await check(input)
    assertEqual(run.repaired.content, 'Sure. ', `content: ${JSON.stringify(run.repaired.content)}`)
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call recovered')
  })

  test('an empty delta on the other channel in every chunk ("reasoning_content": "" beside content) does not cut a leak', async () => {
    const pieces = ['Sure. ', BASH.slice(0, 25), BASH.slice(25, 60), BASH.slice(60)]
    const input = ROLE + pieces.map((piece) => chunk({ content: piece, reasoning_content: '' })).join('') + STOP + DONE
    const run = await check(input)
    assertEqual(run.repaired.content, 'Sure. ', `content: ${JSON.stringify(run.repaired.content)}`)
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call recovered')
  })

  // ------------------------------------------------------------------ comments

  test('keep-alive comments before, between and inside a leak are forwarded at once; the leak is still recovered', async () => {
    const keepAlive = ': keep-alive\n\n'
    const input = keepAlive + ROLE + text('Working. ') + keepAlive + text(BASH.slice(0, 33)) + keepAlive + text(BASH.slice(33)) + STOP + keepAlive + USAGE_CHUNK + DONE
    const run = await check(input)
    assertEqual(run.repaired.comments, ['keep-alive', 'keep-alive', 'keep-alive', 'keep-alive'], 'every comment forwarded')
    assert(run.output.startsWith(keepAlive), 'a leading comment goes out first')
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call recovered')
    assertEqual(run.repaired.content, 'Working. ', 'content')
    // A comment while markup is held goes out at once (it does not wait for the held text).
    const sequence = run.repaired.messages.map((message) => ('comment' in message ? 'comment' : message.data === '[DONE]' ? 'done' : 'chunk'))
    assertEqual(sequence, ['comment', 'chunk', 'chunk', 'comment', 'comment', 'chunk', 'comment', 'chunk', 'done'], 'message order')
  })

  // ------------------------------------------------------------------ buffer cap

  test('10 MB single chunk, default cap (8 Mi chars), read in 64 KiB pieces: the stream fails with StreamLimitError sse-buffer-limit', async () => {
    const big = 'a'.repeat(10 * 1024 * 1024)
    const bytes = utf8(ROLE + text(big) + STOP + DONE)
    const reads: Uint8Array[] = []
    for (let index = 0; index < bytes.length; index += 65_536) reads.push(bytes.subarray(index, index + 65_536))
    const { values, error } = await collectUntilError(streamOf(reads).pipeThrough(new ChatCompletionsRepairStream()))
    assert(error instanceof StreamLimitError, `StreamLimitError expected, got ${String(error)}`)
    assertEqual(error.type, 'sse-buffer-limit', 'type')
    assertEqual(error.limit, 8 * 1024 * 1024, 'limit')
    assert(error.message.includes('maxBufferSize'), `the message names the option: ${error.message}`)
    const delivered = values.map(fromUtf8).join('')
    assert(delivered.length < 1024, `only the role chunk went out (${delivered.length} chars)`)

    // The core throws the same error, and keeps throwing it.
    const core = createChatCompletionsRepair()
    let thrown: unknown
    for (const read of reads) {
      try {
        core.feed(read)
      } catch (caught) {
        thrown = caught
        break
      }
    }
    assert(thrown instanceof StreamLimitError, 'core throws StreamLimitError')
    assert(thrownBy(() => core.feed(utf8('data: [DONE]\n\n'))) === thrown, 'later feeds throw the same error')
    assert(thrownBy(() => core.end()) === thrown, 'end() throws the same error')
  })

  test('10 MB single chunk with maxBufferSize raised to 16 Mi: passes through whole', async () => {
    const big = 'b'.repeat(10 * 1024 * 1024)
    const input = ROLE + text(big) + STOP + USAGE_CHUNK + DONE
    const bytes = utf8(input)
    const reads: Uint8Array[] = []
    for (let index = 0; index < bytes.length; index += 65_536) reads.push(bytes.subarray(index, index + 65_536))
    const out = await collect(streamOf(reads).pipeThrough(new ChatCompletionsRepairStream({ maxBufferSize: 16 * 1024 * 1024 })))
    const output = out.map(fromUtf8).join('')
    assertEqual(output, input, 'a stream with no markup comes out as it came')
  })

  test('a smaller maxBufferSize applies to the fused and the composed path alike', async () => {
    const input = ROLE + text('x'.repeat(5000)) + STOP + DONE
    const bytes = utf8(input)
    const reads = [bytes.subarray(0, 3000), bytes.subarray(3000)]
    const fused = await collectUntilError(streamOf(reads).pipeThrough(new ChatCompletionsRepairStream({ maxBufferSize: 1024 })))
    assert(fused.error instanceof StreamLimitError && fused.error.limit === 1024, `fused: ${String(fused.error)}`)
    let composedError: unknown
    try {
      await composedBytes(reads, { maxBufferSize: 1024 })
    } catch (error) {
      composedError = error
    }
    assert(composedError instanceof StreamLimitError && composedError.limit === 1024, `composed: ${String(composedError)}`)
  })

  test('10 MB single chunk arriving in one read, default cap: fails the same way (the cap does not depend on how the bytes are cut)', async () => {
    const input = ROLE + text('c'.repeat(10 * 1024 * 1024)) + STOP + DONE
    const error = thrownBy(() => repairChunks([utf8(input)]))
    assert(error instanceof StreamLimitError && error.type === 'sse-buffer-limit', `core: StreamLimitError expected, got ${String(error)}`)
    const streamed = await collectUntilError(streamOf([utf8(input)]).pipeThrough(new ChatCompletionsRepairStream()))
    assert(streamed.error instanceof StreamLimitError && streamed.error.type === 'sse-buffer-limit', `stream: StreamLimitError expected, got ${String(streamed.error)}`)
  })

  // ------------------------------------------------------------------ cancel

  test('consumer cancel: the upstream body is cancelled, with the reason', async () => {
    let cancelled = false
    let reason: unknown
    const upstream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8(ROLE))
        controller.enqueue(utf8(text('first ')))
      },
      pull() {
        // never ends on its own: only a cancel stops it
      },
      cancel(why) {
        cancelled = true
        reason = why
      },
    })
    const reader = upstream.pipeThrough(new ChatCompletionsRepairStream()).getReader()
    const first = await reader.read()
    assert(!first.done && first.value instanceof Uint8Array, 'one chunk read')
    await reader.cancel('client went away')
    for (let turn = 0; turn < 20 && !cancelled; turn++) await settle(1)
    assert(cancelled, 'the upstream cancel callback ran')
    assertEqual(reason, 'client went away', 'with the consumer’s reason')
  })

  test('consumer cancel through composed stages (SseDecoderStream → ChatCompletionsDecoderStream) cancels the upstream too', async () => {
    let cancelled = false
    const upstream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8(ROLE + text('x')))
      },
      cancel() {
        cancelled = true
      },
    })
    const reader = upstream.pipeThrough(new SseDecoderStream()).pipeThrough(new ChatCompletionsDecoderStream()).getReader()
    await reader.read()
    await reader.cancel()
    for (let turn = 0; turn < 20 && !cancelled; turn++) await settle(1)
    assert(cancelled, 'the upstream cancel callback ran')
  })

  // ------------------------------------------------------------------ options

  test('finish length / content_filter / insufficient_system_resource: nothing synthesized, finish kept, markup removed', async () => {
    for (const reason of ['length', 'content_filter', 'insufficient_system_resource']) {
      const run = await check(answer(['Doing it. ', BASH], reason))
      assertEqual(run.repaired.calls, [], `${reason}: no call`)
      assertEqual(run.repaired.finishReasons, [reason], `${reason}: finish kept`)
      assertEqual(run.repaired.content, 'Doing it. ', `${reason}: content`)
      assert(kinds(run).includes('suppressed-call'), `${reason}: suppressed-call reported`)
    }
  })

  test('recoverOnTruncation: calls are sent on length, the finish reason kept', async () => {
    const run = await check(answer([BASH], 'length'), { recoverOnTruncation: true })
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'call sent')
    assertEqual(run.repaired.finishReasons, ['length'], 'finish kept')
  })

  test('mode strip: markup removed, no call, finish stays stop; mode off: the stream comes out as it came', async () => {
    const input = answer(['Hi ', BASH, ' bye'])
    const strip = await check(input, { mode: 'strip' })
    assertEqual(strip.repaired.calls, [], 'strip: no call')
    assertEqual(strip.repaired.content, 'Hi  bye', 'strip: content')
    assertEqual(strip.repaired.finishReasons, ['stop'], 'strip: finish')
    const off = await check(input, { mode: 'off' })
    assertEqual(off.output, input, 'off: unchanged')
  })

  test('knownTools: a call to an undeclared tool is removed and reported, the finish stays stop', async () => {
    const run = await check(answer([READ, BASH]), { knownTools: ['bash'] })
    assertEqual(callShapes(run.repaired.calls), [{ name: 'bash', arguments: { command: 'ls -la' } }], 'declared call only')
    assertEqual(run.repaired.finishReasons, ['tool_calls'], 'finish')
    assert(kinds(run).includes('unknown-tool'), 'unknown-tool reported')
    const none = await check(answer([READ]), { knownTools: ['bash'] })
    assertEqual(none.repaired.finishReasons, ['stop'], 'no call: finish stays stop')
  })

  test('markup inside a code fence is documentation: kept, not run', async () => {
    const fenced = '```\n' + BASH + '\n```'
    const run = await check(answer(['Example:\n', fenced]))
    assertEqual(run.repaired.content, 'Example:\n' + fenced, 'kept verbatim')
    assertEqual(run.repaired.calls, [], 'no call')
    assertEqual(run.repaired.finishReasons, ['stop'], 'finish')
  })

  test('bad options fail fast with a TypeError, at construction', () => {
    assert(thrownBy(() => createChatCompletionsRepair({ maxBufferSize: 0 })) instanceof TypeError, 'maxBufferSize 0')
    assert(thrownBy(() => new ChatCompletionsRepairStream({ maxHoldChars: 1 })) instanceof TypeError, 'maxHoldChars 1')
  })

  test('each chunk of a stream with no markup comes out at once (nothing held for plain prose)', () => {
    const core = createChatCompletionsRepair()
    assertEqual(core.feed(ROLE), ROLE, 'role chunk at once')
    assertEqual(core.feed(text('plain prose, no tags')), text('plain prose, no tags'), 'prose at once')
    assertEqual(core.feed(chunk({ content: 'half' }).slice(0, 20)), '', 'half an event waits for its end')
    assertEqual(core.feed(chunk({ content: 'half' }).slice(20)), chunk({ content: 'half' }), 'then goes out whole')
    assertEqual(core.end(), '', 'nothing left at the end')
  })

  test('chunk JSON built by the helpers is what DeepSeek sends (sanity of this suite)', () => {
    assertEqual(JSON.parse(chunkJson({ content: 'x' })), { ...ENVELOPE, choices: [{ index: 0, delta: { content: 'x' }, logprobs: null, finish_reason: null }] })
  })
})
