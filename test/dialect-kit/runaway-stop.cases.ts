/**
 * The runaway guard through the streams (src/parts/part-repair.ts stops the
 * message, src/dialect-kit/dialect-repair.ts and the body wrappers stop
 * reading; issue "beyond recovery", part 4): a response that repeats one tag
 * inside markup ends there, with each dialect's `length` finish in a
 * well-formed ending, and the upstream is cancelled, so its tokens stop.
 */
import { ChatCompletionsRepairStream, repairChatCompletionsBody } from '../../src/chat-completions/index.ts'
import { AnthropicRepairStream } from '../../src/anthropic/index.ts'
import { ResponsesRepairStream } from '../../src/responses/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { dialect, open } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'
import { answer, readRepaired } from '../chat-completions/support.ts'
import { fold, message, textBlock } from '../anthropic/support.ts'
import { foldResponses, responsesEvents } from '../responses/support.ts'

const doubled = dialect({ bars: 2, tagSpace: true })
const REPEATED = doubled.close('parameter')
/** Prose, a block opener, then one closer again and again: 2,000 pieces of 7 characters after the prose. */
const DELTAS = ['Let me write it.\n', ...pieces(`${open('tool_calls')}\n${REPEATED.repeat(700)}`, 7)]

function pieces(text: string, size: number): string[] {
  const out: string[] = []
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size))
  return out
}

/** One SSE event per read, pulled one at a time; what was read, and whether (and why) the source was cancelled. */
function source(events: readonly string[]): { stream: ReadableStream<string>; pulled: () => number; cancelled: () => unknown } {
  let pulled = 0
  let cancelled: unknown
  const stream = new ReadableStream<string>(
    {
      pull(controller) {
        if (pulled < events.length) controller.enqueue(events[pulled++]!)
        else controller.close()
      },
      cancel(reason) {
        cancelled = reason ?? 'cancelled'
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, pulled: () => pulled, cancelled: () => cancelled }
}

/**
 * Waits (up to a second) for the upstream's cancel: a piped upstream is
 * cancelled once the pipe sees the stream's writable side errored, which some
 * runtimes do a few turns after the output ended.
 */
async function cancelledSoon(upstream: { cancelled: () => unknown }): Promise<boolean> {
  for (let turn = 0; turn < 100 && upstream.cancelled() === undefined; turn++) await new Promise((resolve) => setTimeout(resolve, 10))
  return upstream.cancelled() !== undefined
}

/** The SSE text of `answer`'s events, one event per string. */
function eventsOf(sse: string): string[] {
  return sse.split(/(?<=\n\n)/).filter((event) => event !== '')
}

export const suite = defineSuite('dialect-kit/runaway-stop', (test) => {
  test('Chat Completions: finish length, then [DONE]; the prose kept; the upstream cancelled long before its end', async () => {
    const events = eventsOf(answer(DELTAS))
    const upstream = source(events)
    const output = await new Response(upstream.stream.pipeThrough(new ChatCompletionsRepairStream({ runawayRepeat: 64 }))).text()
    const read = readRepaired(output)
    assertEqual([read.content, read.finishReasons, read.doneCount, read.doneLast], ['Let me write it.\n', ['length'], 1, true])
    assert(output.trimEnd().endsWith('data: [DONE]'), 'the terminator is the last event')
    assert(await cancelledSoon(upstream), 'the upstream was cancelled')
    assert(upstream.pulled() < events.length / 2, `read ${upstream.pulled()} of ${events.length} events`)
    const off = await new Response(source(events).stream.pipeThrough(new ChatCompletionsRepairStream())).text()
    assertEqual(readRepaired(off).finishReasons, ['stop'], 'off by default: read to the end')
  })

  test('the pull-based body (repairChatCompletionsBody, what the gateway runs) cancels the upstream too', async () => {
    const events = eventsOf(answer(DELTAS))
    const upstream = source(events)
    const output = await new Response(repairChatCompletionsBody(upstream.stream, { runawayRepeat: 64 })).text()
    assertEqual(readRepaired(output).finishReasons, ['length'])
    assert((await cancelledSoon(upstream)) && upstream.pulled() < events.length / 2, `cancelled after ${upstream.pulled()} of ${events.length}`)
  })

  test('Anthropic: the open text block closes, message_delta max_tokens, message_stop; blocks well formed', async () => {
    const events = eventsOf(message(textBlock(0, DELTAS)))
    const upstream = source(events)
    const output = await new Response(upstream.stream.pipeThrough(new AnthropicRepairStream({ runawayRepeat: 64 }))).text()
    const folded = fold(output)
    assertEqual([folded.stopReason, folded.faults], ['max_tokens', []])
    assertEqual(folded.content, [{ type: 'text', text: 'Let me write it.\n' }])
    assertEqual(folded.events.at(-1)?.event, 'message_stop')
    assert((await cancelledSoon(upstream)) && upstream.pulled() < events.length / 2, `cancelled after ${upstream.pulled()} of ${events.length}`)
  })

  test('Responses: the text part and its item end, then response.incomplete (max_output_tokens); sequence numbers in order', async () => {
    const events = responsesEvents('resp_1', 'deepseek-chat', DELTAS, 10, 1)
    const upstream = source(events)
    const output = await new Response(upstream.stream.pipeThrough(new ResponsesRepairStream({ runawayRepeat: 64 }))).text()
    const folded = foldResponses(output)
    assertEqual([folded.status, folded.text, folded.faults], ['incomplete', 'Let me write it.\n', []])
    const last = JSON.parse(output.trimEnd().split('\n').at(-1)!.slice('data: '.length)) as { type: string; response: { incomplete_details: unknown } }
    assertEqual([last.type, last.response.incomplete_details], ['response.incomplete', { reason: 'max_output_tokens' }])
    assert((await cancelledSoon(upstream)) && upstream.pulled() < events.length / 2, `cancelled after ${upstream.pulled()} of ${events.length}`)
  })
})
