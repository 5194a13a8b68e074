/**
 * code-span-gate.ts and the code-span watch it reads by (code-spans.ts, fed by
 * the fence tracker): where a tag start after an unmatched backtick run is in
 * a code span, the span's end (the first unmatched run that closes, not the
 * first run that closes), the closing run's judgement, the cap, and the runs a
 * paragraph read to its end answers for. Each text is also fed one character
 * at a time and must decide the same. Issue 21, "inline code spans are
 * documentation"; the engine end to end is in drift.cases.ts and
 * code-spans-commonmark.test.ts.
 */
import { CodeSpanGate, type GateDecision, HeldRuns } from '../../src/dsml/code-span-gate.ts'
import { createFenceTracker } from '../../src/dsml/fence-tracker.ts'
import { ALL_NAMES, OPENERS } from '../../src/dsml/markup-starts.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { runChunks, textOf } from '../support/chunking.ts'
import { marker } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

/** The place watched is marked `@` (removed from the text). */
const PLACE = '@'

interface Watched {
  /** The decision, and each closing run's end in the text after the place, as the watch reported them. */
  decision: string
  closes: number[]
  settlement: string
}

/** A clone of the tracker that read the text up to `@` watches the rest, `step` characters at a time. */
function watch(marked: string, step: number): Watched {
  const at = marked.indexOf(PLACE)
  const text = marked.slice(0, at) + marked.slice(at + 1)
  const tracker = createFenceTracker()
  tracker.track(text, 0, at)
  const clone = tracker.clone()
  clone.watchCodeSpan()
  const closes: number[] = []
  let index = at
  while (index < text.length && clone.codeSpanSettlement === 'open') {
    index = clone.track(text, index, Math.min(text.length, index + step))
    const back = clone.takeCodeSpanClose()
    if (back !== -1) closes.push(index - 1 - back - at)
  }
  if (clone.codeSpanSettlement === 'open') {
    clone.endOfText()
    if (clone.takeCodeSpanClose() !== -1) closes.push(text.length - at)
  }
  return { decision: closes.length > 0 ? 'code' : 'text', closes, settlement: clone.codeSpanSettlement }
}

function checkWatch(marked: string, expected: Watched): void {
  assertEqual(watch(marked, marked.length), expected, JSON.stringify(marked))
  assertEqual(watch(marked, 1), expected, `${JSON.stringify(marked)}, one character at a time`)
}

/** A gate begun at `@` reading the rest whole, then the text's end: its decision, span end, and held text. */
function gate(marked: string): { decision: GateDecision; spanEnd: number; held: string; runs: HeldRuns | undefined } {
  const at = marked.indexOf(PLACE)
  const text = marked.slice(0, at) + marked.slice(at + 1)
  const tracker = createFenceTracker()
  tracker.track(text, 0, at)
  assert(tracker.codeSpanOpenAt(text.charCodeAt(at)), `a span may be open at the place: ${JSON.stringify(marked)}`)
  const held = new CodeSpanGate(65_536)
  held.begin(tracker, OPENERS)
  let index = at
  while (index < text.length && held.decision === 'none') index = held.read(text, index)
  if (held.decision === 'none') held.finish()
  const decision = held.decision
  const spanEnd = held.spanEnd
  return { decision, spanEnd, ...held.take() }
}

/** The same gate fed a character at a time. */
function gateByCharacters(marked: string, cap = 65_536): { decision: GateDecision; spanEnd: number; held: string } {
  const at = marked.indexOf(PLACE)
  const text = marked.slice(0, at) + marked.slice(at + 1)
  const tracker = createFenceTracker()
  tracker.track(text, 0, at)
  const held = new CodeSpanGate(cap)
  held.begin(tracker, OPENERS)
  let index = at
  let consumed = ''
  while (index < text.length && held.decision === 'none') {
    const stop = held.read(text.slice(index, index + 1), 0)
    consumed += text.slice(index, index + stop)
    index += stop
  }
  if (held.decision === 'none') held.finish()
  const decision = held.decision
  const spanEnd = held.spanEnd
  const taken = held.take().held
  assertEqual(taken, consumed, 'what the gate held is what it read')
  return { decision, spanEnd, held: taken }
}

export const suite = defineSuite('dsml/code-span-gate', (test) => {
  test('issue 21 (inline code spans): the watch reports each run closing the place\'s span, until where it ends is settled', () => {
    checkWatch('a `@x` b', { decision: 'code', closes: [2], settlement: 'first-run-closed' })
    checkWatch('a `@x b', { decision: 'text', closes: [], settlement: 'paragraph-ended' })
    checkWatch('a `@x\n\nb` c', { decision: 'text', closes: [], settlement: 'paragraph-ended' })
    // Two runs unmatched at the place: a run closing the later one ends a span inside the earlier one's, if that closes.
    checkWatch('` a `` @x `` b ` c', { decision: 'code', closes: [4, 8], settlement: 'first-run-closed' })
    checkWatch('` a `` @x `` b', { decision: 'code', closes: [4], settlement: 'paragraph-ended' })
    // The first unmatched run closing settles it at once: a later run cannot end a span around it.
    checkWatch('` a `` @x ` b `` c', { decision: 'code', closes: [3], settlement: 'first-run-closed' })
    // An escaped backtick opens one backtick fewer; a closer needs the opener's length.
    checkWatch('a \\``@x` b', { decision: 'code', closes: [2], settlement: 'first-run-closed' })
  })

  test('issue 21 (inline code spans): a line\'s opening run closes a span where it ends, though known to be inline text only later', () => {
    // "````" at the line's start could open a fence until the backtick after it: the span ends after the run, not at that backtick.
    checkWatch('`` a ```` @x\n```` y ` z', { decision: 'code', closes: [6], settlement: 'paragraph-ended' })
  })

  test('issue 21 (inline code spans): the gate holds to the span\'s closing run and judges it by the characters after it', () => {
    const closing = gate('a `@x` b')
    assertEqual([closing.decision, closing.held.slice(0, closing.spanEnd)], ['code', 'x`'])
    // A tag start that may be markup right after the closing run: documentation (README Policy 4).
    const call = `<${marker()}tool_calls>`
    const before = gate(`a \`@x\`${call}`)
    assertEqual([before.decision, before.held.slice(0, before.spanEnd)], ['documentation', 'x`'])
    // A tag start the grammar calls text is no reason to doubt the run.
    assertEqual(gate('a `@x`<b>').decision, 'code')
    // The span is that of the first unmatched run that closes: judged at its run, not at the first run that closed.
    const nested = gate(`\` a \`\` @x \`\` b \`${call}`)
    assertEqual([nested.decision, nested.held.slice(0, nested.spanEnd)], ['documentation', 'x `` b `'])
    // No closer before the paragraph ends: not in a span; the runs of the paragraph are kept, to answer for its later places.
    const text = gate('a `@x ``y`` z\n\nw')
    assertEqual([text.decision, text.runs?.answersBefore], ['text', 'x ``y`` z\n'.length], 'the blank line ended it')
    // The same when the paragraph's end settled a span; not when its first run closing did (the paragraph was not read to its end).
    assertEqual(gate('` a `` @x `` b\nc\n\nd').runs?.answersBefore, 'x `` b\nc\n'.length)
    assertEqual(gate('a `@x` b').runs, undefined)
    // HTML after the span: its tag start is decided by the lexer (`tagStartAhead`), past its first characters.
    for (const html of ['<p>', '<img src=x>', '<td>', '<table>', '<pre>', '<code>']) assertEqual(gate(`a \`@x\`${html} end`).decision, 'code', html)
    assertEqual(gate('a `@x`<invoke name="y">').decision, 'documentation', 'a markerless opener may be markup')
    for (const marked of ['a `@x` b', `a \`@x\`${call}`, 'a `@x`<b>', 'a `@x`<table> end', `\` a \`\` @x \`\` b \`${call}`, 'a `@x ``y`` z\n\nw']) {
      const whole = gate(marked)
      const single = gateByCharacters(marked)
      // The gate may read on after the run to judge it; what it read past the span is read again as usual.
      const decided = (result: { decision: GateDecision; spanEnd: number; held: string }): unknown[] => [result.decision, result.spanEnd, result.decision === 'text' ? result.held : result.held.slice(0, result.spanEnd)]
      assertEqual(decided(single), decided(whole), `one character at a time: ${JSON.stringify(marked)}`)
    }
  })

  test('issue 21 (inline code spans): the gate never holds more than its cap; at the cap, a place no run closed yet is not in a span', () => {
    for (const cap of [24, 40, 64]) {
      const result = gateByCharacters(`a \`@${'x'.repeat(100)}\` b`, cap)
      assertEqual(result.decision, 'text', `cap ${cap}`)
      assert(result.held.length <= cap, `cap ${cap}: held ${result.held.length}`)
    }
    // A run closed the place's span before the cap, a longer span around it could still close after: it is in a span,
    // which ends at that run (the runs still unmatched at the cap are literal).
    for (const tail of ['y'.repeat(100), 'y'.repeat(10)]) {
      const result = gateByCharacters(`\` a \`\` @x \`\` ${tail} \``, 24)
      assertEqual([result.decision, result.held.slice(0, result.spanEnd)], ['code', 'x ``'])
      assert(result.held.length <= 24, `held ${result.held.length}`)
    }
    const settled = gateByCharacters(`\` a \`\` @x \`\` ${'y'.repeat(10)} \``, 64)
    assertEqual([settled.decision, settled.held.slice(0, settled.spanEnd)], ['code', `x \`\` ${'y'.repeat(10)} \``], 'settled within the cap')
  })

  test('issue 21 (inline code spans): a paragraph read to its end answers for its later places, from the runs unmatched there', () => {
    const text = 'x ``y `z` w `` v\n\nnext `a`'
    const lineStart = text.indexOf('next')
    const runs = new HeldRuns(text, 6, lineStart, false)
    assertEqual(runs.answersBefore, lineStart)
    // At "y", "``" is unmatched: it closes at the second "``" (the "`z`" inside it).
    assertEqual(runs.closerAfter(text.indexOf('y'), [2]), text.indexOf('`` v') + 2)
    // Runs unmatched in order "`" then "``": the first one that closes decides, wherever the second closes.
    const ordered = '` a `` b `` c ` d'
    const all = new HeldRuns(ordered, 4, ordered.length, true)
    assertEqual(all.closerAfter(ordered.indexOf('b'), [1, 2]), ordered.indexOf('` d') + 1)
    assertEqual(all.closerAfter(ordered.indexOf('b'), [3]), -1)
    // Runs past the counted ones (the next paragraph's) are not read.
    const counted = new HeldRuns(text, 2, lineStart, false)
    assertEqual(counted.closerAfter(text.indexOf('y'), [2]), -1)
    assertEqual(counted.judge(text.indexOf('`` v') + 2, ALL_NAMES), 'code')
  })

  test('issue 21 (inline code spans): held runs judge a run at the held text\'s end as the gate did, by whether the text ended there', () => {
    const text = '`x `a`'
    // Nothing follows the last run: a tag cannot complete after it.
    assertEqual(new HeldRuns(text, 3, text.length, true).judge(text.length, ALL_NAMES), 'code')
    // The text goes on past the held text (the gate stopped at its cap), and nothing read tells: as documentation.
    assertEqual(new HeldRuns(text, 3, text.length, false).judge(text.length, ALL_NAMES), 'documentation')
  })

  test('issue 21 (inline code spans): a fragment in a span that closes at the text\'s end is kept, whichever path read the tag before it', () => {
    // "``" is unmatched; "<calls>" after it (a tag only before a marked one) made a gate hold, which the paragraph's end
    // settled as no span; the held text read again, the fragment stands in the span the last "`" closes at the text's end.
    const tail = `\`\`<calls>\`${marker()}\``
    for (const pad of [0, 5, 90]) {
      const text = 'x'.repeat(pad) + tail
      const whole = textOf(runChunks([text]))
      assertEqual(whole, text, `kept whole, after ${pad} characters`)
      for (let cut = 1; cut < text.length; cut++) assertEqual(textOf(runChunks([text.slice(0, cut), text.slice(cut)])), whole, `split at ${cut} of ${pad}`)
      assertEqual(textOf(runChunks(text.split(''))), whole, `one character at a time, after ${pad}`)
    }
  })
})
