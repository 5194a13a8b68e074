/**
 * The streaming rows of seeds/TEST-MATRIX.md, at engine level: the
 * incremental sanitizer (createDsmlSanitizer) fed token-like chunks. After
 * every feed, heldChars must stay within maxHoldChars; after end() it is 0.
 * Every input also goes through assertChunkInvariant (whole, every split, one
 * code point at a time).
 *
 * Rows that belong to the stream layer above the engine (stream-finish-rewrite,
 * stream-finish-untouched, stream-transition) are not here: the engine has no
 * finish reason and no non-text parts.
 */
import { createDsmlSanitizer } from '../../src/dsml/index.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import type { SanitizerEvent } from '../../src/dsml/types.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, normalizeEvents, piecesOf, reassemble, textOf } from '../support/chunking.ts'
import { FW_BAR, block, close, dialect, hasBarChar, invoke, leaksMarkup, marker, open, param, tokenChunks, WORD } from '../support/dsml-builders.ts'
import { diagnosticsOf, kindsOf } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'

const DEFAULT_MAX_HOLD = 65_536

interface FeedRecord {
  chunk: string
  events: SanitizerEvent[]
  heldChars: number
}

interface Run {
  events: SanitizerEvent[]
  feeds: FeedRecord[]
  endEvents: SanitizerEvent[]
}

/**
 * Feeds `chunks` one by one, checking after every feed that heldChars is a
 * non-negative integer within maxHoldChars, and after end() that it is 0 and
 * that conservation holds.
 */
function drive(chunks: readonly string[], options: DsmlSanitizerOptions = {}, beforeFeed?: (index: number, sanitizer: ReturnType<typeof createDsmlSanitizer>) => void): Run {
  let counter = 0
  const sanitizer = createDsmlSanitizer({ generateId: () => `call_${++counter}`, ...options })
  const max = options.maxHoldChars ?? DEFAULT_MAX_HOLD
  const feeds: FeedRecord[] = []
  const events: SanitizerEvent[] = []
  chunks.forEach((chunk, index) => {
    beforeFeed?.(index, sanitizer)
    const out = sanitizer.feed(chunk)
    const held = sanitizer.heldChars
    assert(Number.isInteger(held) && held >= 0, `heldChars is ${held} after feed ${index}`)
    assert(held <= max, `heldChars ${held} exceeds maxHoldChars ${max} after feed ${index}`)
    feeds.push({ chunk, events: out, heldChars: held })
    events.push(...out)
  })
  const endEvents = sanitizer.end()
  events.push(...endEvents)
  assertEqual(sanitizer.heldChars, 0, 'heldChars after end()')
  assertEqual(reassemble(events), chunks.join(''), 'conservation')
  return { events, feeds, endEvents }
}

/** Cumulative output text after each feed. */
function textSoFar(run: Run, feedIndex: number): string {
  let out = ''
  for (let index = 0; index <= feedIndex; index++) out += textOf(run.feeds[index]?.events ?? [])
  return out
}

function invariant(input: string, options: DsmlSanitizerOptions = {}): SanitizerEvent[] {
  return assertChunkInvariant(input, options, assertEqual)
}

/** No text event ever carries a bar or (when `lt`) a `<`: nothing partial leaked. */
function assertNoPartialMarkup(events: readonly SanitizerEvent[], lt: boolean): void {
  for (const event of events) {
    if (event.type !== 'text') continue
    assert(!hasBarChar(event.text), `a text event carries a bar: ${JSON.stringify(event.text)}`)
    if (lt) assert(!event.text.includes('<'), `a text event carries '<': ${JSON.stringify(event.text)}`)
    assert(!leaksMarkup(event.text), `a text event carries markup: ${JSON.stringify(event.text)}`)
  }
}

/** Prose with no `<` and no bar character (and no backticks). */
function prose(length: number): string {
  const words = ['the', 'renderer', 'joins', 'pieces', 'when', 'buffer', 'grows,', 'so', 'we', 'check', 'DSML', 'docs', 'and', '42', 'items.', '\n', '逐日', '预测']
  let out = ''
  let index = 0
  while (out.length < length) {
    out += `${words[index % words.length]} `
    index = (index * 7 + 3) % 1009
  }
  return out.slice(0, length)
}

const BASH = { name: 'bash', arguments: { command: 'ls -la' } }

/** Adjacent diagnostics of one kind merged: how a drop is cut into reports is a chunking detail. */
function mergeDiagnostics(events: readonly SanitizerEvent[]): SanitizerEvent[] {
  const out: SanitizerEvent[] = []
  for (const event of normalizeEvents(events)) {
    const last = out[out.length - 1]
    if (event.type === 'diagnostic' && last?.type === 'diagnostic' && last.diagnostic.kind === event.diagnostic.kind) {
      out[out.length - 1] = { type: 'diagnostic', diagnostic: { ...last.diagnostic, text: last.diagnostic.text + event.diagnostic.text, message: '' } }
      continue
    }
    out.push(event.type === 'diagnostic' ? { type: 'diagnostic', diagnostic: { ...event.diagnostic, message: '' } } : event)
  }
  return out
}

export const suite = defineSuite('dsml/stream', (test) => {
  test('stream-text-passthrough: prose comes out on every feed, nothing held', () => {
    const input = prose(3000)
    const chunks = tokenChunks(input)
    const run = drive(chunks)
    run.feeds.forEach((feed, index) => {
      assertEqual(feed.heldChars, 0, `heldChars after feed ${index} (${JSON.stringify(feed.chunk)})`)
      assertEqual(textOf(feed.events), feed.chunk, `feed ${index} text`)
    })
    assertEqual(normalizeEvents(run.events), [{ type: 'text', text: input }], 'events')
    invariant(input)
  })

  test('stream-text-passthrough: prose with <, > and tags is released in full, nothing left held', () => {
    const input = 'if a < b and c > d, write <b>bold</b> or a<b; x</y. 3<4 ok.\n'.repeat(10)
    const run = drive(tokenChunks(input))
    assertEqual(normalizeEvents(run.events), [{ type: 'text', text: input }], 'events')
    assertEqual(run.feeds[run.feeds.length - 1]?.heldChars, 0, 'heldChars after the last feed')
    invariant(input)
  })

  test('stream-v2-recovered: doubled-bar block split per token', () => {
    const d = dialect({ bars: 2 })
    const input = d.block([d.invoke('bash', [d.param('command', 'ls -la')])])
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [BASH], 'calls')
    assertEqual(textOf(run.events), '', 'text')
    assertNoPartialMarkup(run.events, true)
    const whole = invariant(input)
    assertEqual(callsOf(whole), [BASH], 'calls (whole)')
  })

  test('stream-v17-chunk-split: opener split < / bar / DSML / bar / tool_calls>', () => {
    const head = 'Let me look. '
    const b = block([invoke('bash', [param('command', 'ls -la')])])
    const rest = b.slice(`<${marker()}tool_calls>`.length)
    const chunks = [head, '<', FW_BAR, WORD, FW_BAR, 'tool', '_calls>', ...tokenChunks(rest)]
    assertEqual(chunks.join(''), head + b, 'test bug: chunks')
    const run = drive(chunks)
    assertEqual(textOf(run.feeds[0]?.events ?? []), head, 'prose before the opener comes out at once')
    assertEqual(run.feeds[0]?.heldChars, 0, 'nothing held after the prose')
    for (let index = 1; index < run.feeds.length; index++) {
      assertEqual(textOf(run.feeds[index]?.events ?? []), '', `no text while the block streams (feed ${index})`)
    }
    assertEqual(callsOf(run.events), [BASH], 'calls')
    assertEqual(textOf(run.events), head, 'text')
    assertNoPartialMarkup(run.events, true)
    invariant(head + b)
  })

  test('stream-v17-chunk-split: block closer split mid-word (</m DS + ML m> Done!)', () => {
    const b = block([invoke('bash', [param('command', 'ls -la')])])
    const input = `${b} Done!`
    const cut = input.lastIndexOf(WORD) + 2
    const run = drive([input.slice(0, cut), input.slice(cut)])
    assertEqual(callsOf(run.events), [BASH], 'calls')
    assertEqual(textOf(run.events), ' Done!', 'text')
    assertNoPartialMarkup(run.events, true)
    invariant(input)
  })

  test('stream-v17-chunk-split: opener split inside the attribute value and the tag name', () => {
    const input = `Hi.\n${block([invoke('read_file', [param('path', 'src/main.ts')])])}\nBye.`
    for (const size of [1, 2, 3, 5, 7, 11, 17]) {
      const run = drive(piecesOf(input, size))
      assertEqual(callsOf(run.events), [{ name: 'read_file', arguments: { path: 'src/main.ts' } }], `calls (pieces of ${size})`)
      assertEqual(textOf(run.events), 'Hi.\n\nBye.', `text (pieces of ${size})`)
      assertNoPartialMarkup(run.events, true)
    }
    invariant(input)
  })

  test('stream-v17-chunk-split: text before a < in the same chunk comes out at once, only the < is held', () => {
    const b = block([invoke('bash', [param('command', 'ls -la')])])
    const input = `Let me look. ${b}`
    const cut = 'Let me look. <'.length
    const run = drive([input.slice(0, cut), input.slice(cut)])
    assertEqual(textOf(run.feeds[0]?.events ?? []), 'Let me look. ', 'text of the first feed')
    assertEqual(run.feeds[0]?.heldChars, 1, 'only the < is held')
    assertEqual(callsOf(run.events), [BASH], 'calls')
  })

  test('stream-v17-chunk-split: prose after a closed block comes out on the feed that brings it', () => {
    const b = block([invoke('bash', [param('command', 'ls -la')])])
    const run = drive([b, ' and then more prose.'])
    assertEqual(textOf(run.feeds[1]?.events ?? []), ' and then more prose.', 'text of the second feed')
    assertEqual(run.feeds[1]?.heldChars, 0, 'nothing held after the prose')
    assertEqual(callsOf(run.events), [BASH], 'calls')
  })

  test('stream-v17-chunk-split: astral characters (surrogate pairs) split anywhere', () => {
    const value = 'deploy 🚀 to 𝕏-prod ✅'
    const input = `Ship it 🚢\n${block([invoke('bash', [param('command', value)])])}\nDone 🎉`
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [{ name: 'bash', arguments: { command: value } }], 'calls')
    assertEqual(textOf(run.events), 'Ship it 🚢\n\nDone 🎉', 'text')
    invariant(input)
  })

  test('stream-surrounding: a "<" directly before the block is removed with it (junction policy)', () => {
    // Decided (README, policy): a partial marker cut short by the start of
    // markup ("<" then "<‹DSML›…") goes with that markup, so removing it can
    // never join the text on both sides into a marker. A "<" followed by
    // anything else stays text: "a < b" with a space after "<" is prose.
    const input = `a <${block([invoke('bash', [param('command', 'ls -la')])])} b`
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [BASH], 'calls')
    assertEqual(textOf(run.events), 'a  b', 'text')
    invariant(input)
    const spaced = `a < ${block([invoke('bash', [param('command', 'ls -la')])])} b`
    const spacedRun = drive(tokenChunks(spaced))
    assertEqual(callsOf(spacedRun.events), [BASH], 'calls (spaced)')
    invariant(spaced)
  })

  test('stream-surrounding: "a " + block + " b" gives text "a  b" and one call', () => {
    const input = `a ${block([invoke('bash', [param('command', 'ls -la')])])} b`
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [BASH], 'calls')
    assertEqual(textOf(run.events), 'a  b', 'text')
    assertNoPartialMarkup(run.events, false)
    invariant(input)
  })

  test('stream-multiline-edit: captured edit shape (orphan V4.1 invoke, multi-line values)', () => {
    const v41 = dialect({ tagSpace: true })
    const oldString = '    fun total(): Int {\n        return items.sum()\n    }'
    const newString = '    fun total(): Long {\n        // widen: sums overflow Int on long sessions\n        return items.sumOf { it.toLong() }\n    }'
    const call = v41.invoke('edit', [
      v41.param('filePath', '/proj/app/src/main/java/com/example/Cart.kt'),
      v41.param('oldString', oldString),
      v41.param('newString', newString),
    ])
    const head = 'The total overflows on long sessions. Let me widen it.\n\n'
    const input = head + call
    const run = drive(tokenChunks(input))
    assertEqual(
      callsOf(run.events),
      [{ name: 'edit', arguments: { filePath: '/proj/app/src/main/java/com/example/Cart.kt', oldString, newString } }],
      'calls',
    )
    assertEqual(textOf(run.events), head, 'text')
    assertNoPartialMarkup(run.events, true)
    invariant(input)
  })

  test('stream-orphan-invoke: V9 invoke mid-stream gives one call, prose kept', () => {
    const input = `Checking.\n${invoke('read', [param('path', 'a.txt')])}\nDone`
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [{ name: 'read', arguments: { path: 'a.txt' } }], 'calls')
    assertEqual(textOf(run.events), 'Checking.\n\nDone', 'text')
    assertNoPartialMarkup(run.events, true)
    invariant(input)
  })

  test('stream-buffer-cap: unclosed value past maxHoldChars is dropped and reported, no growth, no call', () => {
    const maxHoldChars = 256
    const head = 'Writing.\n'
    const input = head + open('tool_calls') + '\n' + open('invoke', { name: 'write' }) + '\n' + open('parameter', { name: 'content', string: 'true' }) + 'x'.repeat(2000)
    const run = drive(piecesOf(input, 16), { maxHoldChars })
    assertEqual(callsOf(run.events), [], 'calls')
    assert(kindsOf(diagnosticsOf(run.events)).includes('hold-limit'), `expected a hold-limit diagnostic, got ${JSON.stringify(kindsOf(diagnosticsOf(run.events)))}`)
    assertEqual(textOf(run.events), head, 'text: the held markup never comes out as text')
    assertChunkInvariant(input, { maxHoldChars }, (actual, expected, message) =>
      assertEqual(mergeDiagnostics(actual as SanitizerEvent[]), mergeDiagnostics(expected as SanitizerEvent[]), message),
    )
  })

  test('stream-buffer-cap: after an over-long value the block still closes and prose after it comes out', () => {
    const maxHoldChars = 256
    const input =
      block([invoke('write', [param('content', 'y'.repeat(2000))])]) + ' after'
    const run = drive(piecesOf(input, 16), { maxHoldChars })
    assertEqual(callsOf(run.events), [], 'calls: no call for the invoke that overflowed')
    assert(kindsOf(diagnosticsOf(run.events)).includes('hold-limit'), 'expected a hold-limit diagnostic')
    assertEqual(textOf(run.events), ' after', 'text')
    assertChunkInvariant(input, { maxHoldChars }, (actual, expected, message) =>
      assertEqual(mergeDiagnostics(actual as SanitizerEvent[]), mergeDiagnostics(expected as SanitizerEvent[]), message),
    )
  })

  test('stream-buffer-cap: default cap (64 KiB) with a 70 KiB unclosed value', () => {
    const input = open('tool_calls') + '\n' + open('invoke', { name: 'write' }) + '\n' + open('parameter', { name: 'content', string: 'true' }) + 'z'.repeat(70 * 1024)
    const run = drive(piecesOf(input, 100))
    assertEqual(callsOf(run.events), [], 'calls')
    assert(kindsOf(diagnosticsOf(run.events)).includes('hold-limit'), 'expected a hold-limit diagnostic')
    assertEqual(textOf(run.events), '', 'text')
    assertChunkInvariant(
      input,
      {},
      (actual, expected, message) => assertEqual(mergeDiagnostics(actual as SanitizerEvent[]), mergeDiagnostics(expected as SanitizerEvent[]), message),
      200,
    )
  })

  test('stream-eager-stop: markerless <parameter> candidate with no marker is released after eagerStopChars', () => {
    const input = `Note: <parameter name="x">${prose(1500)}`
    const run = drive(piecesOf(input, 10))
    const last = run.feeds.length - 1
    const held = run.feeds[last]?.heldChars ?? -1
    assert(held <= 64, `heldChars after 1500 chars of prose past the candidate is ${held}, expected it back near 0`)
    assertEqual(textSoFar(run, last), input.slice(0, input.length - held), 'everything not held came out as text, in order')
    assertEqual(normalizeEvents(run.events), [{ type: 'text', text: input }], 'events: all of it is text')
    invariant(input)
  })

  test('stream-eager-stop: eagerStopChars option sets the release point', () => {
    const eagerStopChars = 100
    const input = `<parameter name="x">${prose(600)}`
    const run = drive(piecesOf(input, 10), { eagerStopChars })
    const afterRelease = run.feeds.findIndex((_, index) => (index + 1) * 10 >= 20 + 3 * eagerStopChars)
    const held = run.feeds[afterRelease]?.heldChars ?? -1
    assert(held >= 0 && held <= 64, `heldChars ${held} once ${3 * eagerStopChars} chars passed the candidate (eagerStopChars ${eagerStopChars})`)
    assertEqual(normalizeEvents(run.events), [{ type: 'text', text: input }], 'events')
    invariant(input, { eagerStopChars })
  })

  test('stream-eager-stop: markered block opener followed by plain prose is abandoned, the prose released', () => {
    const opener = open('tool_calls')
    const body = prose(1500)
    const input = `Hi ${opener}${body}`
    const run = drive(piecesOf(input, 10))
    const last = run.feeds.length - 1
    const held = run.feeds[last]?.heldChars ?? -1
    assert(held <= 64, `heldChars ${held} after 1500 chars of prose past the opener`)
    assertEqual(callsOf(run.events), [], 'calls')
    assertEqual(textOf(run.events), `Hi ${body}`, 'text: opener removed, prose released')
    assert(diagnosticsOf(run.events).some((d) => d.kind === 'dropped-markup' && d.text === opener), 'the opener is reported as dropped-markup')
    invariant(input)
  })

  // Adapted: complete invokes are recovered, incomplete markup removed and
  // reported; no markup reaches the text (the matrix's "emitted verbatim"
  // predates the no-markup policy, DESIGN §5.2).
  test('stream-unclosed-fallback: complete invoke recovered, incomplete rest removed at end', () => {
    const input =
      'Intro.\n' + open('tool_calls') + '\n' + invoke('bash', [param('command', 'ls -la')]) + '\n' + open('invoke', { name: 'read' }) + '\n' + open('parameter', { name: 'path', string: 'true' }) + 'a.t'
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [BASH], 'calls')
    assertEqual(textOf(run.events), 'Intro.\n', 'text')
    assert(kindsOf(diagnosticsOf(run.endEvents)).includes('dropped-markup'), 'end() reports the incomplete markup')
    assertNoPartialMarkup(run.events, true)
    invariant(input)
  })

  test('stream-unclosed-fallback: lone opener, the text after it is released at end', () => {
    const input = `hello${open('tool_calls')}world`
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [], 'calls')
    assertEqual(textOf(run.events), 'helloworld', 'text')
    invariant(input)
  })

  // Adapted: a closed block with no parseable invoke is removed and reported,
  // not re-emitted as text (DESIGN §5.2: no markup reaches output text).
  test('stream-empty-invoke-fallback: closed block with an empty invoke is removed and reported', () => {
    const b = block([invoke('bash', [])])
    const input = `Ok.\n${b}`
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [], 'calls')
    assertEqual(textOf(run.events), 'Ok.\n', 'text')
    const dropped = diagnosticsOf(run.events).filter((d) => d.kind === 'dropped-markup').map((d) => d.text).join('')
    assertEqual(dropped, b, 'the dropped-markup diagnostics carry the whole block')
    invariant(input)
  })

  test('stream-empty-invoke-fallback: closed block holding only junk is removed and reported', () => {
    const b = `${open('tool_calls')}\n...\n${close('tool_calls')}`
    const input = `Ok.\n${b}\nnext`
    const run = drive(tokenChunks(input))
    assertEqual(callsOf(run.events), [], 'calls')
    assertEqual(textOf(run.events), 'Ok.\n\nnext', 'text')
    assert(kindsOf(diagnosticsOf(run.events)).includes('dropped-markup'), 'reported as dropped-markup')
    invariant(input)
  })
})
