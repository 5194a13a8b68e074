/**
 * What the runaway guard saves: a degenerate response that repeats one
 * doubled-bar parameter closer (or, after a parameter opener, one character)
 * for megabytes, streamed as Chat Completions SSE in 64-character deltas,
 * through `ChatCompletionsRepairStream` with the gateway's guard (64) and
 * with the guard off. Reported: how much of the upstream each reads before
 * its stream ends (the tokens a client still pays for), and the time. The
 * stream that ships (bundled from `src/` as `dist/` is), one process.
 *
 *   npm run bench:runaway   (node --import tsx bench/runaway.ts)
 */
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import type * as Package from '../src/index.ts'
import { cpuModel, importAsBuilt } from './measure.ts'

const built = await importAsBuilt<typeof Package>(fileURLToPath(new URL('../src/index.ts', import.meta.url)))
if (built === undefined) throw new Error('esbuild could not bundle src/index.ts')
const { ChatCompletionsRepairStream } = built

const MB = 1e6
const BAR = '\uFF5C'
const MARKER = `${BAR}DSML${BAR}`
const DOUBLED_CLOSER = `</${BAR}${BAR}DSML${BAR}${BAR} parameter>`
const ENVELOPE = { id: 'chatcmpl-runaway', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-flash' }
const chunk = (delta: Record<string, unknown>, finish: string | null = null): string => `data: ${JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`

/** The SSE events of a response whose content is `content`, in 64-character deltas. */
function events(content: string): string[] {
  const out = [chunk({ role: 'assistant', content: '' })]
  for (let index = 0; index < content.length; index += 64) out.push(chunk({ content: content.slice(index, index + 64) }))
  out.push(chunk({}, 'stop'), 'data: [DONE]\n\n')
  return out
}

interface Run {
  bytesRead: number
  bytesTotal: number
  finish: string | undefined
  ms: number
}

async function run(list: readonly string[], runawayRepeat: number): Promise<Run> {
  const encoder = new TextEncoder()
  const bytes = list.map((event) => encoder.encode(event))
  const bytesTotal = bytes.reduce((sum, event) => sum + event.length, 0)
  let pulled = 0
  let bytesRead = 0
  const upstream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === bytes.length) return controller.close()
        bytesRead += bytes[pulled]!.length
        controller.enqueue(bytes[pulled++]!)
      },
    },
    { highWaterMark: 0 },
  )
  const started = performance.now()
  const output = await new Response(upstream.pipeThrough(new ChatCompletionsRepairStream({ runawayRepeat }))).text()
  const ms = performance.now() - started
  const finish = /"finish_reason":"([a-z_]+)"/.exec(output.slice(output.lastIndexOf('finish_reason') - 20))?.[1]
  return { bytesRead, bytesTotal, finish, ms }
}

const SHAPES: Array<[string, (size: number) => string]> = [
  ['one closer repeated', (size) => `Let me write it.\n<${MARKER}tool_calls>\n${DOUBLED_CLOSER.repeat(Math.ceil(size / DOUBLED_CLOSER.length))}`],
  ['one character repeated in a value', (size) => `Let me write it.\n<${MARKER}tool_calls>\n<${MARKER}invoke name="write_file">\n<${MARKER}parameter name="content" string="true">${'M'.repeat(size)}`],
]

const lines: string[] = []
lines.push('# The runaway guard: what it saves', '')
lines.push(`Node ${process.version}, ${await cpuModel()}, ${os.availableParallelism()} CPUs. Chat Completions SSE, 64-character deltas, through \`ChatCompletionsRepairStream\`.`, '')
lines.push('| degenerate content | size | guard | upstream read | saved | finish | time |', '|---|---|---|---|---|---|---|')
for (const [name, make] of SHAPES) {
  for (const size of [1 * MB, 10 * MB]) {
    const list = events(make(size))
    for (const guard of [64, 0]) {
      await run(list, guard) // warm-up
      const result = await run(list, guard)
      const saved = 1 - result.bytesRead / result.bytesTotal
      lines.push(
        `| ${name} | ${size / MB} MB | ${guard === 0 ? 'off' : guard} | ${(result.bytesRead / MB).toFixed(3)} of ${(result.bytesTotal / MB).toFixed(1)} MB | ${(saved * 100).toFixed(1)} % | ${result.finish} | ${result.ms.toFixed(0)} ms |`,
      )
    }
  }
}
console.log(lines.join('\n'))
