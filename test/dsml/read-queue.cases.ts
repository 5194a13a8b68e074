/**
 * read-queue.ts: the texts the scanner still has to read, in order, each
 * with how it is read (as documentation or not, with the runs of a text a
 * code-span gate held). The scanner end to end: scanner.cases.ts and
 * code-span-reading.cases.ts.
 */
import { HeldRuns } from '../../src/dsml/code-span-gate.ts'
import { ReadQueue } from '../../src/dsml/read-queue.ts'
import { assertEqual } from '../support/assert.ts'
import { defineSuite } from '../support/harness.ts'

export const suite = defineSuite('dsml/read-queue', (test) => {
  test('first: the texts given are read before everything queued, in their order; next looks, take takes', () => {
    const queue = new ReadQueue()
    assertEqual(queue.next, undefined, 'nothing queued')
    queue.first(queue.rest('c', 0))
    queue.first(queue.piece('a'), queue.rest('b', 2))
    assertEqual(queue.next?.text, 'a', 'next looks at the first')
    assertEqual([queue.take()?.text, queue.take()?.text, queue.take()?.text, queue.take()], ['a', 'b', 'c', undefined])
  })

  test('rest and piece: queued to be read as the text being read now; a piece is its own text, so no runs answer for it', () => {
    const queue = new ReadQueue()
    const runs = new HeldRuns('held `x`', 0, 8, true)
    queue.documentation = true
    queue.runs = runs
    assertEqual(queue.rest('text', 3), { text: 'text', start: 3, documentation: true, runs })
    assertEqual(queue.piece('<tag'), { text: '<tag', start: 0, documentation: true, runs: undefined })
    queue.documentation = false
    queue.runs = undefined
    assertEqual(queue.rest('text', 1), { text: 'text', start: 1, documentation: false, runs: undefined })
  })
})
