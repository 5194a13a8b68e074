// The browser example's script: fetch a streaming chat completion, repair it with
// ChatCompletionsRepairStream, and show the clean text and each recovered tool call.
import { ChatCompletionsRepairStream, SseDecoderStream } from 'dsml-streams'

const $ = (id) => document.getElementById(id)

$('ask').addEventListener('submit', async (event) => {
  event.preventDefault()
  $('answer').textContent = ''
  $('calls').textContent = ''
  const key = $('key').value
  const response = await fetch(`${$('base').value.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ model: $('model').value, stream: true, messages: [{ role: 'user', content: $('message').value }] }),
  })
  await response.body
    .pipeThrough(new ChatCompletionsRepairStream())
    .pipeThrough(new SseDecoderStream())
    .pipeTo(new WritableStream({
      write(message) {
        if (!('data' in message) || message.data === '[DONE]') return
        for (const choice of JSON.parse(message.data).choices ?? []) {
          if (typeof choice.delta?.content === 'string') $('answer').append(choice.delta.content)
          for (const call of choice.delta?.tool_calls ?? []) {
            const item = document.createElement('li')
            item.textContent = `${call.function.name} ${call.function.arguments}`
            $('calls').append(item)
          }
        }
      },
    }))
  document.body.dataset.done = 'true'
})
