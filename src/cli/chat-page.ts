/**
 * The chat page `dsml-streams serve` shows at `/`: a small chat UI that
 * fetches a streaming chat completion — from the built-in replay of real
 * leaks (`/replay/v1`), or any OpenAI-compatible base URL and key the user
 * enters (the key stays in the page's memory) — and shows two panes as the
 * bytes arrive: what a plain client would render of the stream, markup and
 * all (or, toggled, its SSE lines as the upstream sent them), and the same
 * body repaired by the library in the browser (clean text, a card per
 * recovered tool call, a line of diagnostics). Both panes scroll within the
 * window. A request another origin refuses says it is CORS, and what to do.
 * No framework: one HTML
 * document and one module, which imports the built library from `/lib/` (an
 * import map points its one dependency at `/vendor/`).
 */

export const CHAT_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dsml-streams: the repair, live</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%232f5bd3'/%3E%3Cpath d='M9 10l-4 6 4 6M23 10l4 6-4 6' stroke='%23fff' stroke-width='3' fill='none' stroke-linecap='round'/%3E%3Cpath d='M13 16h6' stroke='%23fff' stroke-width='3' stroke-linecap='round'/%3E%3C/svg%3E">
<script type="importmap">{ "imports": { "eventsource-parser": "/vendor/eventsource-parser.mjs" } }</script>
<style>
  :root { font-family: system-ui, sans-serif; color: #1d2230; background: #f6f7fb; }
  body { margin: 0; padding: 16px 20px; height: 100vh; box-sizing: border-box; display: flex; flex-direction: column; }
  h1 { font-size: 18px; margin: 0 0 12px; }
  form { display: grid; grid-template-columns: 1fr auto; gap: 8px; margin-bottom: 12px; }
  .row { display: flex; gap: 8px; grid-column: 1 / -1; flex-wrap: wrap; }
  select, input, textarea, button { font: inherit; padding: 6px 8px; border: 1px solid #c7cbd8; border-radius: 6px; background: #fff; }
  textarea { grid-column: 1; min-height: 38px; resize: vertical; }
  button { background: #2f5bd3; color: #fff; border: none; padding: 6px 18px; cursor: pointer; }
  button:disabled { background: #9aa6c9; }
  #custom[hidden] { display: none; }
  .panes { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; flex: 1; min-height: 240px; }
  .pane { background: #fff; border: 1px solid #dde0ea; border-radius: 8px; padding: 10px 12px; min-height: 0; overflow: auto; }
  .pane h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #5b6274; margin: 0 0 8px; display: flex; gap: 8px; }
  .pane h2 label { margin-left: auto; text-transform: none; letter-spacing: 0; font-weight: normal; }
  #raw { white-space: pre-wrap; line-height: 1.5; margin: 0; color: #7a2e2e; }
  #raw.sse { word-break: break-all; font: 12px/1.45 ui-monospace, monospace; }
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
  <section class="pane"><h2>What a plain client shows <label><input type="checkbox" id="show-sse"> SSE lines</label></h2><pre id="raw"></pre></section>
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
  shown.text = ''
  shown.sse = ''
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
    const [rawLines, rawEvents] = raw.tee()
    // The pane shows one of the two, as it grows: the SSE lines, or the content a plain client would render.
    const showLines = rawLines.pipeThrough(new TextDecoderStream()).pipeTo(new WritableStream({ write(text) { shown.sse += text; render() } }))
    const showText = rawEvents.pipeThrough(new SseDecoderStream()).pipeTo(new WritableStream({
      write(message) {
        if (!('data' in message) || message.data === '[DONE]') return
        try {
          for (const choice of JSON.parse(message.data).choices || []) if (typeof choice.delta?.content === 'string') shown.text += choice.delta.content
        } catch {}
        render()
      },
    }))
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
    await Promise.all([showLines, showText, repaired])
  } catch (error) {
    $('status').textContent = 'error: ' + (custom && error instanceof TypeError ? unreachable(base) : error.message)
  } finally {
    $('send').disabled = false
    document.body.dataset.done = 'true'
  }
}

/** What the raw pane shows: the content a plain client renders, or the SSE lines (the toggle). */
const shown = { text: '', sse: '' }
function render() {
  const lines = $('show-sse').checked
  $('raw').className = lines ? 'sse' : ''
  $('raw').textContent = lines ? shown.sse : shown.text
}

/** A fetch the browser refused to complete: from another origin, most likely CORS. */
function unreachable(base) {
  return 'the browser could not read ' + base + ': most likely CORS (that API does not allow pages from ' + location.origin + '). ' +
    'Start this gateway with --upstream ' + base + ' and enter ' + location.origin + '/v1 as the base URL: the gateway calls that API for the page. ' +
    '(Another dsml-streams gateway serves this page with --allowed-origins ' + location.origin + '.)'
}

/** One line: each kind of diagnostic, how many, and why (its first message). */
function note(diagnostics, diagnostic) {
  const seen = diagnostics.get(diagnostic.kind) || { count: 0, message: diagnostic.message }
  seen.count++
  diagnostics.set(diagnostic.kind, seen)
  $('diagnostics').textContent = 'diagnostics: ' + [...diagnostics].map(([kind, { count, message }]) => kind + ' ×' + count + ' (' + message + ')').join('; ')
}

$('chat').addEventListener('submit', send)
$('show-sse').addEventListener('change', render)
loadCaptures()
`
