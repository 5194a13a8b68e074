/**
 * repairChatCompletionsBody (src/chat-completions/repair.ts, over src/dialect-kit/repair-body.ts): the fused
 * repair as a pull-based stream over the upstream body. The same bytes as
 * `pipeThrough(new ChatCompletionsRepairStream())` on every fixture and in
 * every reading; the same behaviour at the edges: upstream failure, a repair
 * error (the SSE buffer cap), the consumer cancelling, lazy reads.
 */
import { StreamLimitError } from '../../src/sse/index.ts'
import { repairChatCompletionsBody } from '../../src/chat-completions/index.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }
import { assert, assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'
import {
  answer,
  bytesEqual,
  collect,
  collectUntilError,
  concatBytes,
  counterIds,
  cutAt,
  firstDifference,
  fromUtf8,
  fusedBytes,
  loadSseFixture,
  randomCuts,
  readRepaired,
  settle,
  streamOf,
  text,
  utf8,
} from '../chat-completions/support.ts'

async function bodyBytes(reads: readonly (string | Uint8Array)[]): Promise<Uint8Array> {
  return concatBytes(await collect(repairChatCompletionsBody(streamOf(reads), { generateId: counterIds() })))
}

/** One read per SSE event (blank-line separated). */
function perEvent(bytes: Uint8Array): Uint8Array[] {
  const reads: Uint8Array[] = []
  let start = 0
  for (let index = 1; index < bytes.length; index++) {
    if (bytes[index] === 0x0a && bytes[index - 1] === 0x0a) {
      reads.push(bytes.subarray(start, index + 1))
      start = index + 1
    }
  }
  if (start < bytes.length) reads.push(bytes.subarray(start))
  return reads
}

export const suite = defineSuite('dialect-kit/repair-body', (test) => {
  test('every fixture, whole, one event per read and in random reads: the same bytes as the fused TransformStream', async () => {
    for (const capture of leaks as Array<{ id: string }>) {
      const fixture = await loadSseFixture(capture.id)
      for (const reads of [[fixture.bytes], perEvent(fixture.bytes), cutAt(fixture.bytes, randomCuts(fixture.bytes.length, 7, 64))]) {
        const body = await bodyBytes(reads)
        const stream = await fusedBytes(reads)
        assert(bytesEqual(body, stream), `${capture.id}: body and stream differ\n${firstDifference(body, stream)}`)
      }
    }
  })

  test('string reads: the same text as the fused stream', async () => {
    const input = answer(['Hello', ' <', ' world', '.'])
    assertEqual(fromUtf8(await bodyBytes([input.slice(0, 50), input.slice(50)])), fromUtf8(await fusedBytes([input.slice(0, 50), input.slice(50)])), 'same text')
  })

  test('upstream fails mid-stream: what came before is delivered, then the output fails with the same error', async () => {
    const failure = new Error('connection reset')
    let pulls = 0
    const upstream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        if (pulls === 1) controller.enqueue(utf8(answer(['partial ']).split('data: {"id"').slice(0, 3).join('data: {"id"')))
        else controller.error(failure)
      },
    })
    const { values, error } = await collectUntilError(repairChatCompletionsBody(upstream))
    assert(error === failure, `the upstream error is the output error: ${String(error)}`)
    assertEqual(readRepaired(values.map(fromUtf8).join('')).content, 'partial ', 'delivered before the failure')
  })

  test('a repair error (line past maxBufferSize) errors the output and cancels the upstream with it', async () => {
    let cancelled: unknown
    const upstream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8(text('ok')))
        controller.enqueue(utf8(`data: ${'x'.repeat(500)}\n\n`))
      },
      cancel(reason) {
        cancelled = reason
      },
    })
    const { error } = await collectUntilError(repairChatCompletionsBody(upstream, { maxBufferSize: 256 }))
    assert(error instanceof StreamLimitError, `StreamLimitError: ${String(error)}`)
    await settle()
    assert(cancelled === error, `upstream cancelled with the error: ${String(cancelled)}`)
  })

  test('the consumer cancels: the upstream is cancelled with the reason; reads are lazy', async () => {
    let pulls = 0
    let cancelled: unknown
    const upstream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls++
          controller.enqueue(utf8(text(`piece ${pulls} `)))
        },
        cancel(reason) {
          cancelled = reason
        },
      },
      { highWaterMark: 0 },
    )
    const body = repairChatCompletionsBody(upstream)
    assert(upstream.locked, 'the upstream is locked at once')
    await settle()
    assertEqual(pulls, 0, 'nothing read before the consumer asks')
    const reader = body.getReader()
    const first = await reader.read()
    assert(!first.done && first.value.length > 0, 'a first chunk')
    await settle()
    assert(pulls <= 2, `reads follow the consumer (${pulls})`)
    await reader.cancel('client went away')
    await settle()
    assertEqual(cancelled, 'client went away', 'upstream cancelled with the reason')
  })
})
