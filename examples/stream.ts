// Repair a live text stream: model deltas in, clean text and tool calls out.
// Run: npx tsx examples/stream.ts
import { DsmlSanitizerStream, type SanitizerEvent } from 'dsml-streams'

const m = '\uFF5C\uFF5CDSML\uFF5C\uFF5C' // doubled bars, as in a real Cherry Studio capture
const deltas = ['I will search for that.', '\n\n<', `${m}tool_calls>\n<`, `${m}invoke name="web_search">\n<`,
  `${m}parameter name="query" string="true">deepseek dsml leak</`, `${m}parameter>\n</${m}invoke>\n</${m}tool_calls>`]

const source = new ReadableStream<string>({
  start(controller) {
    for (const delta of deltas) controller.enqueue(delta)
    controller.close()
  },
})

const reader = source.pipeThrough(new DsmlSanitizerStream()).getReader()
while (true) {
  const { done, value } = await reader.read()
  if (done) break
  const event: SanitizerEvent = value
  if (event.type === 'text') console.log('text:', JSON.stringify(event.text))
  else if (event.type === 'tool-call') console.log('tool-call:', event.call.name, JSON.stringify(event.call.arguments))
  else if (event.type === 'diagnostic') console.log('diagnostic:', event.diagnostic.kind)
}
