/**
 * Deterministic inputs for the pipeline benchmark: whole OpenAI/DeepSeek
 * `chat.completion.chunk` SSE streams, pre-encoded to one `Uint8Array` per
 * event (so a source that enqueues one array per pull delivers one event per
 * read).
 *
 * Every stream is a role chunk, content chunks, a finish chunk (`stop`), a
 * usage chunk (`choices: []`, as with `stream_options.include_usage`) and
 * `[DONE]`. Content deltas hold 1–8 token-like pieces each.
 *
 * DSML marker bytes are built here at run time from escapes (never written as
 * literals).
 */

import { createRandom, pick, WORDS } from './inputs.ts'

const BAR = '\uFF5C'
/** The canonical marker: full-width bar, the word DSML, full-width bar. */
const MARKER = `${BAR}DSML${BAR}`

function between(random: () => number, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1))
}


const PUNCTUATION = [',', ',', '.', '.', '.', ';', ':', '?', '!', ' —']

/** Comparisons that put a `<` into prose, as tokens. */
const COMPARISONS: readonly (readonly string[])[] = [
  [' a', ' <', ' b'],
  [' x', ' <', ' ', '10'],
  [' if', ' i', ' <', ' n'],
  [' latency', ' <', ' ', '200', ' ms'],
  [' ', '0', ' <', '=', ' k'],
]

/** Prose tokens: words with their leading space, punctuation, paragraph breaks, a `<` comparison every ~150–250 tokens. */
function proseTokens(random: () => number, count: number): string[] {
  const tokens: string[] = []
  let untilComparison = between(random, 150, 250)
  while (tokens.length < count) {
    if (--untilComparison <= 0) {
      tokens.push(...pick(random, COMPARISONS))
      untilComparison = between(random, 150, 250)
      continue
    }
    const roll = random()
    if (roll < 0.1) tokens.push(pick(random, PUNCTUATION))
    else if (roll < 0.115) tokens.push('\n\n')
    else tokens.push(` ${pick(random, WORDS)}`)
  }
  tokens.length = count
  return tokens
}

/** Splits text the way a BPE tokenizer roughly does: a word with its leading space, digit runs, single symbols, whitespace runs. */
function tokenize(text: string): string[] {
  return text.match(/ ?[A-Za-z_]+|[0-9]+|\s+|[^\sA-Za-z0-9_]/gu) ?? []
}

const tag = (name: string): string => `<${MARKER}${name}`
const close = (name: string): string => `</${MARKER}${name}>`

interface Invoke {
  name: string
  parameters: Array<[string, string, boolean]>
}

function randomValue(random: () => number, words: number): string {
  let out = ''
  for (let index = 0; index < words; index++) {
    out += (index > 0 ? (random() < 0.12 ? '\n' : ' ') : '') + pick(random, WORDS)
  }
  return out
}

function randomInvoke(random: () => number): Invoke {
  const path = `src/${pick(random, WORDS)}/${pick(random, WORDS)}.ts`
  switch (between(random, 0, 3)) {
    case 0:
      return { name: 'read_file', parameters: [['path', path, true]] }
    case 1:
      return {
        name: 'bash',
        parameters: [
          ['command', `grep -rn "${pick(random, WORDS)}" src/ | head -${between(random, 5, 50)}`, true],
          ['timeout', String(between(random, 10, 120)), false],
        ],
      }
    case 2:
      return {
        name: 'edit',
        parameters: [
          ['path', path, true],
          ['old_string', randomValue(random, between(random, 20, 80)), true],
          ['new_string', randomValue(random, between(random, 20, 80)), true],
        ],
      }
    default:
      return { name: 'write_file', parameters: [['path', path, true], ['content', randomValue(random, between(random, 60, 200)), true]] }
  }
}

/** One canonical block (V4 spelling) with 1–3 invokes, preceded by a paragraph break. */
function dsmlBlock(random: () => number): string {
  let block = `\n\n${tag('tool_calls')}>\n`
  const invokes = random() < 0.5 ? 1 : between(random, 2, 3)
  for (let index = 0; index < invokes; index++) {
    const invoke = randomInvoke(random)
    block += `${tag('invoke')} name="${invoke.name}">\n`
    for (const [key, value, raw] of invoke.parameters) {
      block += `${tag('parameter')} name="${key}" string="${raw}">${value}${close('parameter')}\n`
    }
    block += `${close('invoke')}\n`
  }
  return `${block}${close('tool_calls')}`
}

/** Groups tokens into deltas of 1–8 tokens each. */
function groupTokens(random: () => number, tokens: readonly string[]): string[] {
  const deltas: string[] = []
  for (let index = 0; index < tokens.length; ) {
    const size = between(random, 1, 8)
    deltas.push(tokens.slice(index, index + size).join(''))
    index += size
  }
  return deltas
}

export interface Workload {
  label: string
  /** One SSE event per array (role, content…, finish, usage, `[DONE]`). */
  events: Uint8Array[]
  /** Total bytes of all events. */
  bytes: number
  /** The concatenated delta contents (what the model wrote). */
  content: string
  /** Content deltas whose text touches DSML markup. */
  markupDeltas: number
  /** DSML blocks in the content. */
  blocks: number
  /** Invokes in the content (calls a repairing gateway should recover). */
  invokes: number
}

const ENVELOPE = {
  id: '0d6c5f2e-8a1b-4c3d-9e7f-1a2b3c4d5e6f',
  object: 'chat.completion.chunk',
  created: 1_749_616_352,
  model: 'deepseek-chat',
  system_fingerprint: 'fp_8802369eaa_prod0425fp8',
}

function chunk(delta: Record<string, unknown>, finishReason: string | null): string {
  return JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })
}

function buildStream(label: string, deltas: readonly string[], markupDeltas: number, blocks: number, invokes: number): Workload {
  const encoder = new TextEncoder()
  const data: string[] = [chunk({ role: 'assistant', content: '' }, null)]
  for (const content of deltas) data.push(chunk({ content }, null))
  data.push(chunk({ content: '' }, 'stop'))
  const completion = deltas.length
  data.push(
    JSON.stringify({
      ...ENVELOPE,
      choices: [],
      usage: {
        prompt_tokens: 1843,
        completion_tokens: completion,
        total_tokens: 1843 + completion,
        prompt_tokens_details: { cached_tokens: 1792 },
        prompt_cache_hit_tokens: 1792,
        prompt_cache_miss_tokens: 51,
      },
    }),
  )
  data.push('[DONE]')
  const events = data.map((payload) => encoder.encode(`data: ${payload}\n\n`))
  const bytes = events.reduce((sum, event) => sum + event.byteLength, 0)
  return { label, events, bytes, content: deltas.join(''), markupDeltas, blocks, invokes }
}

/** Prose: `events` SSE events in all, of which `events - 4` content deltas. */
export function proseStream(events: number, seed = 1): Workload {
  const random = createRandom(seed)
  const deltaCount = events - 4
  // 1–8 tokens per delta: 4.5 on average; make a few too many and cut.
  const deltas = groupTokens(random, proseTokens(random, Math.ceil(deltaCount * 4.6))).slice(0, deltaCount)
  return buildStream('prose', deltas, 0, 0, 0)
}

/**
 * DSML-heavy: prose with a canonical block every 100–250 prose deltas, tokenized
 * like the prose around it, so that roughly a quarter of the content deltas
 * carry markup.
 */
export function dsmlHeavyStream(events: number, seed = 2): Workload {
  const random = createRandom(seed)
  const deltaCount = events - 4
  const deltas: string[] = []
  let markupDeltas = 0
  let blocks = 0
  let invokes = 0
  while (deltas.length < deltaCount) {
    const proseDeltas = between(random, 100, 250)
    deltas.push(...groupTokens(random, proseTokens(random, proseDeltas * 5)).slice(0, proseDeltas))
    const block = dsmlBlock(random)
    const blockDeltas = groupTokens(random, tokenize(block))
    if (deltas.length + blockDeltas.length > deltaCount) break
    markupDeltas += blockDeltas.length
    deltas.push(...blockDeltas)
    blocks++
    invokes += block.split(tag('invoke')).length - 1
  }
  while (deltas.length < deltaCount) deltas.push(...groupTokens(random, proseTokens(random, 8)).slice(0, 1))
  return buildStream('DSML-heavy', deltas.slice(0, deltaCount), markupDeltas, blocks, invokes)
}

/** The marker as it would appear in output bytes, for the "no marker leaked" check. */
export const MARKER_BYTES = new TextEncoder().encode(MARKER)
