/**
 * What a client accumulates from the official SDKs' raw streams, folded the way their own helpers do:
 * Chat Completions chunks (content, each call by its index, the finish) and Anthropic Messages events
 * (blocks by index, the stop reason). Used by the Node test and by the page the Chromium test bundles.
 */
import type Anthropic from '@anthropic-ai/sdk'
import type OpenAI from 'openai'

export interface Folded {
  text: string
  calls: Array<{ name: string; arguments: unknown }>
  finish: string | null
}

/** A streamed chat completion, folded: its content, its calls (arguments parsed), its finish. */
export async function foldChatStream(stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>): Promise<Folded> {
  let text = ''
  let finish: string | null = null
  const slots: Array<{ name: string; arguments: string }> = []
  for await (const chunk of stream) {
    const choice = chunk.choices[0]
    if (choice === undefined) continue
    text += choice.delta.content ?? ''
    for (const call of choice.delta.tool_calls ?? []) {
      const slot = (slots[call.index] ??= { name: '', arguments: '' })
      slot.name += call.function?.name ?? ''
      slot.arguments += call.function?.arguments ?? ''
    }
    finish = choice.finish_reason ?? finish
  }
  return { text, calls: slots.map((slot) => ({ name: slot.name, arguments: JSON.parse(slot.arguments) as unknown })), finish }
}

/** A streamed message, folded: its text, its `tool_use` blocks (input parsed), its stop reason. */
export async function foldMessageStream(stream: AsyncIterable<Anthropic.Messages.RawMessageStreamEvent>): Promise<Folded> {
  const blocks: Array<{ type: string; name: string; json: string; text: string }> = []
  let finish: string | null = null
  for await (const event of stream) {
    if (event.type === 'content_block_start') blocks[event.index] = { type: event.content_block.type, name: event.content_block.type === 'tool_use' ? event.content_block.name : '', json: '', text: '' }
    else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') blocks[event.index]!.json += event.delta.partial_json
    else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') blocks[event.index]!.text += event.delta.text
    else if (event.type === 'message_delta') finish = event.delta.stop_reason
  }
  return {
    text: blocks.map((block) => block.text).join(''),
    calls: blocks.filter((block) => block.type === 'tool_use').map((block) => ({ name: block.name, arguments: JSON.parse(block.json) as unknown })),
    finish,
  }
}
