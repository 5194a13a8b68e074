/**
 * fence-backlog.ts: a fence tracker that reads its text when next asked.
 * Whatever the pieces (whole texts and ranges, short and past
 * `FENCE_BACKLOG_CHARS`) and wherever it is asked, it answers as a tracker
 * that read each piece as it came; whether a tag start is in a fence is
 * answered without reading while what waits can open none; and what it
 * keeps unread stays under the cap.
 */
import fc from 'fast-check'
import { FENCE_BACKLOG_CHARS, FENCE_BACKLOG_PIECES, FenceBacklog } from '../../src/dsml/fence-backlog.ts'
import { FenceTracker } from '../../src/dsml/fence-tracker.ts'
import { Positions, RecentTexts } from '../../src/dsml/positions.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

/** What a tracker answers about what follows: fences, line starts, code spans, quiet. */
function answers(tracker: FenceTracker): string {
  const x = 'x'.charCodeAt(0)
  const lessThan = '<'.charCodeAt(0)
  return JSON.stringify([tracker.inFence, tracker.inFenceAt(x), tracker.atLineStart, tracker.quiet, tracker.codeSpanOpenAt(lessThan), tracker.codeSpanLengthsAt(lessThan)])
}

const PIECES = ['```js\n', '~~~\n', '```\n', '```', '~~~', ' js', 'x', 'code `x` and ``y', '`', '\\`', '\n', '\r\n', '> quote\n', '- item\n   ```\n', 'prose < b | c ', '    indented\n']

/** A piece given to both: a whole text, or a range of a longer one (sometimes past the cap). */
const piece = fc.record({
  text: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
  padding: fc.constantFrom(0, 3, FENCE_BACKLOG_CHARS),
  ask: fc.boolean(),
  askFence: fc.boolean(),
})

/** Characters a tag start may be asked about: text, indentation, a line break, a quote's `>`. */
const FIRST_CHARACTERS = ['<', ' ', '\n', '>', '-'].map((character) => character.charCodeAt(0))

export const suite = defineSuite('dsml/fence-backlog', (test) => {
  test('the backlog answers as a tracker that read each piece at once, asked anywhere (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), (pieces) => {
        const backlog = new FenceBacklog()
        const eager = new FenceTracker()
        for (const [index, { text, padding, ask, askFence }] of pieces.entries()) {
          // The piece as a range in the middle of a longer text (its padding is emitted too, before and after).
          const pad = ' '.repeat(padding)
          const host = `${pad}${text}${pad}`
          backlog.add(host, 0, padding)
          backlog.add(host, padding, padding + text.length)
          backlog.add(host.slice(padding + text.length))
          eager.track(host)
          if (askFence) {
            for (const code of FIRST_CHARACTERS) assertEqual(backlog.inFenceAt(code), eager.inFenceAt(code), `in a fence at ${code}, after piece ${index}`)
          }
          if (ask || index === pieces.length - 1) assertEqual(answers(backlog.tracker()), answers(eager), `after piece ${index}`)
          assertEqual([backlog.unreadChars < FENCE_BACKLOG_CHARS, backlog.unreadPieces < FENCE_BACKLOG_PIECES], [true, true], 'what waits stays under both caps')
        }
      }),
      { numRuns: 300 },
    )
  })

  test('short chunks wait; a text past the cap is read at once, with what waited before it', () => {
    const backlog = new FenceBacklog()
    backlog.add('```\n')
    backlog.add('code ')
    assertEqual(backlog.unreadChars, 9, 'both short chunks wait')
    const long = `${'x'.repeat(FENCE_BACKLOG_CHARS)}\n\`\`\`\n`
    backlog.add(long)
    assertEqual(backlog.unreadChars, 0, 'the long text and what waited were read')
    assertEqual(backlog.tracker().inFence, false, 'the fence opened, then closed by the long text')
    for (let index = 0; index < FENCE_BACKLOG_CHARS / 64; index++) backlog.add('y'.repeat(64))
    assertEqual(backlog.unreadChars < FENCE_BACKLOG_CHARS, true, 'chunks that fill the backlog are read')
  })

  test('a stream fed a character at a time keeps fewer than FENCE_BACKLOG_PIECES pieces waiting, each a node the collector walks', () => {
    const backlog = new FenceBacklog()
    const counts: number[] = []
    for (let index = 0; index < 3 * FENCE_BACKLOG_PIECES; index++) {
      backlog.add('y')
      counts.push(backlog.unreadPieces)
    }
    assertEqual(Math.max(...counts), FENCE_BACKLOG_PIECES - 1, 'the most that wait')
    assertEqual(counts.filter((count) => count === 0).length, 3, 'read once every FENCE_BACKLOG_PIECES pieces')
    assertEqual(backlog.unreadChars, backlog.unreadPieces, 'one character per piece waits')
  })

  test('inFenceAt reads nothing while what waits can open no fence, and reads it all when it may', () => {
    const backlog = new FenceBacklog()
    const lessThan = '<'.charCodeAt(0)
    backlog.add('prose\n')
    backlog.add('more prose ')
    assertEqual([backlog.inFenceAt(lessThan), backlog.unreadChars], [false, 17], 'no backtick or tilde: answered, nothing read')
    backlog.add('and ')
    assertEqual([backlog.inFenceAt(lessThan), backlog.unreadChars], [false, 21], 'the new piece looked at, still nothing read')
    backlog.add('\n```js\n')
    assertEqual([backlog.inFenceAt(lessThan), backlog.unreadChars], [true, 0], 'a fence opened: everything read')
    backlog.add('code ')
    assertEqual([backlog.inFenceAt(lessThan), backlog.unreadChars], [true, 0], 'in a fence: read at once')
    const opening = new FenceBacklog()
    opening.add('```')
    assertEqual(opening.tracker().inFence, false, 'an opening run read, its line not ended')
    opening.add(' js\n')
    assertEqual([opening.inFenceAt(lessThan), opening.unreadChars], [true, 0], 'a fence being opened: its line read, and the fence open')
  })

  test('Positions.forget: a text read to its end is dropped; searches in a text of its length and prefix stay right', () => {
    const positions = new Positions(['\n', '`'])
    const first = `${'a'.repeat(400)}\n`
    const second = `${'a'.repeat(400)}\``
    assertEqual(positions.first(first, 0), 400)
    positions.forget(first)
    assertEqual(positions.first(second, 0), 400)
    assertEqual(positions.first(second, 0, 1), second.length, 'no line break in the second text')
    assertEqual(positions.first(first, 0, 1), 400, 'the first text, searched again, from the start')
  })

  test('RecentTexts.forget: the entry of a text read to its end is the one a new text takes, and the other text keeps its own', () => {
    const made: Array<{ text: string | undefined }> = []
    const recent = new RecentTexts(
      () => {
        const entry = { text: undefined as string | undefined }
        made.push(entry)
        return entry
      },
      () => {},
    )
    const long = 'l'.repeat(600)
    const short = 's'.repeat(300)
    const first = recent.of(long)
    const second = recent.of(short)
    recent.forget(long)
    assertEqual(recent.of('n'.repeat(500)), first, "the forgotten text's entry is taken (not the shorter text's)")
    assertEqual([recent.of(short), second.text], [second, short], 'the other text keeps its entry')
    assertEqual(made.length, 2, 'no entry made beyond the two')
  })
})
