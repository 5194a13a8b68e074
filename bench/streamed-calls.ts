/**
 * Calls that stream as they form (`streamToolCalls`): how soon a call is
 * announced, how its arguments arrive, and what it costs. Every capture whose
 * calls stream, fed 4 characters at a time (token-sized): the input read
 * between the end of the invoke's name and the feed that announced it, and
 * between the end of its first parameter's opener and that feed (0: the same
 * feed). A 20,000-character value fed 50 characters at a time: the argument
 * pieces and where the first came. And the engine's time, on and off, on the
 * DSML-heavy capture texts. The engine that ships (bundled from `src/`).
 *
 *   npm run bench:streamed-calls   (node --import tsx bench/streamed-calls.ts)
 */
import { fileURLToPath } from 'node:url'
import type * as Package from '../src/index.ts'
import { cpuModel, importAsBuilt, measureInterleaved } from './measure.ts'
import leaks from '../src/cli/leaks-real.json' with { type: 'json' }

const built = await importAsBuilt<typeof Package>(fileURLToPath(new URL('../src/index.ts', import.meta.url)))
if (built === undefined) throw new Error('esbuild could not bundle src/index.ts')
const { createDsmlSanitizer } = built

interface Capture {
  id: string
  input: string
  tools?: Array<{ name: string; parameters?: Record<string, unknown> }>
}
const captures = leaks as unknown as Capture[]

const BAR = '\uFF5C'
const MARKER = `${BAR}DSML${BAR}`

/** Per announced call: input read past the end of its name, and past the end of its first parameter opener, when announced. */
function latencies(capture: Capture): Array<{ afterName: number; afterParameter: number }> {
  const text = capture.input
  const sanitizer = createDsmlSanitizer({ streamToolCalls: true, ...(capture.tools === undefined ? {} : { tools: capture.tools }) })
  const out: Array<{ afterName: number; afterParameter: number }> = []
  let searchFrom = 0
  for (let at = 0; at < text.length; at += 4) {
    const fed = Math.min(text.length, at + 4)
    for (const event of sanitizer.feed(text.slice(at, fed))) {
      if (event.type !== 'tool-call-start') continue
      const nameAt = text.indexOf(`"${event.name}"`, searchFrom)
      if (nameAt === -1 || nameAt > fed) continue
      const nameEnd = nameAt + event.name.length + 2
      const parameterEnd = text.indexOf('>', text.indexOf('parameter', nameEnd)) + 1
      out.push({ afterName: fed - nameEnd, afterParameter: Math.max(0, fed - parameterEnd) })
      searchFrom = nameEnd
    }
  }
  sanitizer.end()
  return out
}

const lines: string[] = ['# Calls that stream as they form', '', `Node ${process.version}, ${await cpuModel()}.`, '']
const all = captures.flatMap((capture) => latencies(capture).map((latency) => ({ id: capture.id, ...latency })))
const afterName = all.map((entry) => entry.afterName).sort((a, b) => a - b)
const lateCount = all.filter((entry) => entry.afterParameter > 0).length
lines.push(
  `**Announcement** (${all.length} calls of ${new Set(all.map((entry) => entry.id)).size} captures, fed 4 characters at a time): the input read past the end of the invoke's name when the call was announced: median ${afterName[afterName.length >> 1]}, at most ${afterName.at(-1)} characters (the call is announced once its invoke goes on past the opener); before its first argument's opener was complete: ${all.length - lateCount} of ${all.length}.`,
  '',
)

const value = 'line "quoted" \\ 中文 &amp; tab\t\n'.repeat(700).slice(0, 20000)
const leak = `Writing.\n<${MARKER}tool_calls>\n<${MARKER}invoke name="write_file">\n<${MARKER}parameter name="path" string="true">a.txt</${MARKER}parameter>\n<${MARKER}parameter name="content" string="true">${value}</${MARKER}parameter>\n</${MARKER}invoke>\n</${MARKER}tool_calls>`
{
  const sanitizer = createDsmlSanitizer({ streamToolCalls: true })
  let deltas = 0
  let first = -1
  for (let at = 0; at < leak.length; at += 50) {
    for (const event of sanitizer.feed(leak.slice(at, at + 50))) {
      if (event.type !== 'tool-call-delta') continue
      deltas++
      if (first === -1) first = Math.min(leak.length, at + 50)
    }
  }
  sanitizer.end()
  const closer = leak.indexOf(`</${MARKER}parameter>`, leak.indexOf(value))
  lines.push(`**A 20,000-character value** fed 50 characters at a time: ${deltas} argument pieces; the first by input offset ${first}, the value's closer at ${closer}.`, '')
}

const texts = Array.from({ length: 20 }, () => captures.map((capture) => capture.input).join('\n\n')).join('\n\n')
const fed = (streamToolCalls: boolean): number => {
  const sanitizer = createDsmlSanitizer({ streamToolCalls })
  let events = 0
  for (let at = 0; at < texts.length; at += 4) events += sanitizer.feed(texts.slice(at, at + 4)).length
  return events + sanitizer.end().length
}
const [off, on] = measureInterleaved([() => fed(false), () => fed(true)])
lines.push(`**Cost**: every capture's text, 20 times (${(texts.length / 1000).toFixed(0)} K characters, DSML-heavy) fed 4 characters at a time: ${off!.toFixed(2)} ms off, ${on!.toFixed(2)} ms on (× ${(on! / off!).toFixed(2)}).`)
console.log(lines.join('\n'))
