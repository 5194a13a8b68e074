/**
 * `ChatCompletionsRepairStream`: the fused repair chain in one
 * `TransformStream`. Bytes or strings of an upstream Chat Completions SSE body
 * in, repaired UTF-8 SSE bytes out.
 */
import { type ChatCompletionsRepairOptions, createChatCompletionsRepair } from './repair.ts'

export interface ChatCompletionsRepairStreamOptions extends ChatCompletionsRepairOptions {}

/**
 * @example
 * ```ts
 * const repaired = upstream.body!.pipeThrough(new ChatCompletionsRepairStream({ knownTools: ['bash'] }))
 * return new Response(repaired, { headers: { 'content-type': 'text/event-stream' } })
 * ```
 */
export class ChatCompletionsRepairStream extends TransformStream<string | Uint8Array, Uint8Array> {
  constructor(options: ChatCompletionsRepairStreamOptions = {}) {
    const repair = createChatCompletionsRepair(options)
    const encoder = new TextEncoder()
    super({
      transform(chunk, controller) {
        const text = repair.feed(chunk)
        if (text.length > 0) controller.enqueue(encoder.encode(text))
      },
      flush(controller) {
        const text = repair.end()
        if (text.length > 0) controller.enqueue(encoder.encode(text))
      },
    })
  }
}
