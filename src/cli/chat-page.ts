/**
 * The chat page `dsml-streams serve` shows at `/`: a small chat UI that
 * fetches a streaming chat completion — from the built-in replay of real
 * leaks (`/replay/v1`), or any OpenAI-compatible base URL and key the user
 * enters (the key stays in the page's memory) — and shows two panes as the
 * bytes arrive: the raw stream as the upstream sent it, markup and all, and
 * the same body repaired by the library in the browser (clean text, a card
 * per recovered tool call, a line of diagnostics). No framework: one HTML
 * document and one module, which imports the built library from `/lib/` (an
 * import map points its one dependency at `/vendor/`).
 */

export const CHAT_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dsml-streams: the repair, live</title>
<script type="importmap">{ "imports": { "eventsource-parser": "/vendor/eventsource-parser.mjs" } }</script>
<style>
  :root { font-family: system-ui, sans-serif; color: #1d2230; background: #f6f7fb; }
  body { margin: 0; padding: 16px 20px; }
  h1 { font-size: 18px; margin: 0 0 12px; }
  form { display: grid; grid-template-columns: 1fr auto; gap: 8px; margin-bottom: 12px; }
  .row { display: flex; gap: 8px; grid-column: 1 / -1; flex-wrap: wrap; }
  select, input, textarea, button { font: inherit; padding: 6px 8px; border: 1px solid #c7cbd8; border-radius: 6px; background: #fff; }
  textarea { grid-column: 1; min-height: 38px; resize: vertical; }
  button { background: #2f5bd3; color: #fff; border: none; padding: 6px 18px; cursor: pointer; }
  button:disabled { background: #9aa6c9; }
  #custom[hidden] { display: none; }
  .panes { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
  .pane { background: #fff; border: 1px solid #dde0ea; border-radius: 8px; padding: 10px 12px; min-height: 320px; overflow: auto; }
  .pane h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #5b6274; margin: 0 0 8px; }
  #raw { white-space: pre-wrap; word-break: break-all; font: 12px/1.45 ui-monospace, monospace; margin: 0; color: #7a2e2e; }
  #text { white-space: pre-wrap; line-height: 1.5; }
  .card { border: 1px solid #b9c7f0; background: #eef2fe; border-radius: 8px; padding: 8px 10px; margin-top: 10px; }
  .card b { font-family: ui-monospace, monospace; }
  .card pre { margin: 6px 0 0; font-size: 12px; white-space: pre-wrap; }
  #diagnostics { margin-top: 10px; font-size: 12px; color: #5b6274; }
  #status { font-size: 12px; color: #5b6274; margin-left: auto; align-self: center; }
</style>
</head>
<body>
<h1>dsml-streams — leaked DSML tool calls, repaired in the browser as they stream</h1>
<form id="chat">
  <div class="row">
    <select id="model" aria-label="model"></select>
    <span id="custom" hidden>
      <input id="base" placeholder="https://api.deepseek.com" aria-label="base URL" size="28">
      <input id="key" type="password" placeholder="API key (kept in memory only)" aria-label="API key" size="24">
      <input id="custom-model" placeholder="deepseek-chat" aria-label="model name" size="14">
    </span>
    <span id="status"></span>
  </div>
  <textarea id="message" aria-label="message">Look up the funding rounds of Qichacha</textarea>
  <button id="send" type="submit">Send</button>
</form>
<div class="panes">
  <section class="pane"><h2>Raw stream, as the upstream sent it</h2><pre id="raw"></pre></section>
  <section class="pane" id="repaired"><h2>Repaired in the browser</h2><div id="text"></div><div id="calls"></div><div id="diagnostics"></div></section>
</div>
<script type="module" src="/chat-page.mjs"></script>
</body>
</html>
`

export const CHAT_PAGE_SCRIPT = `import { ChatCompletionsRepairStream, SseDecoderStream } from '/lib/index.mjs'

const $ = (id) => document.getElementById(id)
const CUSTOM = '__custom__'
let key = '' // the user's key: in memory only, never stored

async function loadCaptures() {
  const select = $('model')
  try {
    const list = await (await fetch('/replay/v1/captures')).json()
    for (const capture of list.data) {
      const option = new Option(capture.id + (capture.expected_calls.length ? ' (' + capture.expected_calls.join(', ') + ')' : ''), capture.id)
      if (capture.id === list.default) option.selected = true
      select.add(option)
    }
  } catch {
    $('status').textContent = 'no replay captures'
  }
  select.add(new Option('Another OpenAI-compatible API…', CUSTOM))
  select.addEventListener('change', () => { $('custom').hidden = select.value !== CUSTOM })
}

function card(call) {
  const element = document.createElement('div')
  element.className = 'card tool-card'
  const name = document.createElement('b')
  name.textContent = call.function.name
  const args = document.createElement('pre')
  let formatted = call.function.arguments
  try { formatted = JSON.stringify(JSON.parse(call.function.arguments), null, 2) } catch {}
  args.textContent = formatted
  element.append('tool call ', name, args)
  return element
}

async function send(event) {
  event.preventDefault()
  const custom = $('model').value === CUSTOM
  if (custom) key = $('key').value
  const base = custom ? $('base').value.replace(/\\/+$/, '') : '/replay/v1'
  const model = custom ? $('custom-model').value || 'deepseek-chat' : $('model').value
  for (const id of ['raw', 'text', 'calls', 'diagnostics']) $(id).textContent = ''
  $('send').disabled = true
  $('status').textContent = 'streaming…'
  document.body.dataset.done = 'false'
  const diagnostics = new Map()
  try {
    const response = await fetch(base + '/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(custom && key ? { authorization: 'Bearer ' + key } : {}) },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: $('message').value }] }),
    })
    if (!response.ok || response.body === null) throw new Error('the upstream answered ' + response.status)
    const [raw, toRepair] = response.body.tee()
    const showRaw = raw.pipeThrough(new TextDecoderStream()).pipeTo(new WritableStream({ write(text) { $('raw').append(text) } }))
    const calls = []
    const repaired = toRepair
      .pipeThrough(new ChatCompletionsRepairStream({ onDiagnostic(diagnostic) { note(diagnostics, diagnostic) } }))
      .pipeThrough(new SseDecoderStream())
      .pipeTo(new WritableStream({
        write(message) {
          if (!('data' in message) || message.data === '[DONE]') return
          const chunk = JSON.parse(message.data)
          for (const choice of chunk.choices || []) {
            const delta = choice.delta || {}
            if (typeof delta.content === 'string') $('text').append(delta.content)
            for (const call of delta.tool_calls || []) {
              calls[call.index] = call
              $('calls').append(card(call))
            }
            if (choice.finish_reason) $('status').textContent = 'finish: ' + choice.finish_reason
          }
        },
      }))
    await Promise.all([showRaw, repaired])
  } catch (error) {
    $('status').textContent = 'error: ' + error.message
  } finally {
    $('send').disabled = false
    document.body.dataset.done = 'true'
  }
}

/** One line: each kind of diagnostic, how many, and why (its first message). */
function note(diagnostics, diagnostic) {
  const seen = diagnostics.get(diagnostic.kind) || { count: 0, message: diagnostic.message }
  seen.count++
  diagnostics.set(diagnostic.kind, seen)
  $('diagnostics').textContent = 'diagnostics: ' + [...diagnostics].map(([kind, { count, message }]) => kind + ' ×' + count + ' (' + message + ')').join('; ')
}

$('chat').addEventListener('submit', send)
loadCaptures()
`
