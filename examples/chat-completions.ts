// Repair an OpenAI Chat Completions SSE body: the composed stages, then the fused stream.
// Run: npx tsx examples/chat-completions.ts
import {
  ChatCompletionsDecoderStream,
  ChatCompletionsEncoderStream,
  ChatCompletionsRepairStream,
  DsmlPartSanitizerStream,
  SseDecoderStream,
  SseEncoderStream,
  ToolCallSynthesizerStream,
} from 'dsml-streams'

// A leaking upstream: DeepSeek-style chunks whose content is DSML (‹DSML› = U+FF5C "DSML" U+FF5C).
const m = '\uFF5CDSML\uFF5C'
const leak = `Checking.\n\n<${m}tool_calls>\n<${m}invoke name="bash">\n<${m}parameter name="command" string="true">ls -la</${m}parameter>\n</${m}invoke>\n</${m}tool_calls>`
const envelope = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-flash' }
const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`
const sse = [chunk({ role: 'assistant', content: '' }), ...(leak.match(/[\s\S]{1,7}/g) ?? []).map((piece) => chunk({ content: piece })), chunk({}, 'stop'), 'data: [DONE]\n\n']

function upstream(): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const event of sse) controller.enqueue(bytes.encode(event))
      controller.close()
    },
  })
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

// The six stages, for people who build their own chains:
const composed = upstream()
  .pipeThrough(new SseDecoderStream())
  .pipeThrough(new ChatCompletionsDecoderStream())
  .pipeThrough(new DsmlPartSanitizerStream({ knownTools: ['bash'] }))
  .pipeThrough(new ToolCallSynthesizerStream())
  .pipeThrough(new ChatCompletionsEncoderStream())
  .pipeThrough(new SseEncoderStream())

// The same cores fused in one stream (what a gateway uses):
const fused = upstream().pipeThrough(new ChatCompletionsRepairStream({ knownTools: ['bash'] }))

const [viaStages, viaFused] = await Promise.all([text(composed), text(fused)])
const calls = viaFused.split('\n').filter((line) => line.includes('tool_calls'))
console.log(viaFused)
console.log(`identical: ${viaStages.replace(/call_\w+/g, 'call_') === viaFused.replace(/call_\w+/g, 'call_')}`)
console.log(`chunks with tool_calls: ${calls.length}`)
