/**
 * History repair in slices, for a server: one request's history must not hold
 * the event loop while other streams wait (`work-slices.ts`). Every assistant
 * text is fed to its repairer `SLICE_CHARS` at a time (the engine answers the
 * same whatever the pieces), the loop given a turn between slices when one is
 * due. A history that repairs within one slice of work is repaired at once.
 *
 * Which texts are repaired stays the dialect's decision, written once: its
 * history walk (`repair…History`) is run once to collect the texts it asks
 * for, then, with their repairs made in slices, once more to build the body.
 */
import type { LongTexts } from '../long-texts.ts'
import { Pace } from '../work-slices.ts'
import { createHistoryTextRepairer, type HistoryRepairOptions, type HistoryTextRepair, type RepairedHistoryText } from './history-repair.ts'

/** A dialect's history walk over one body, each assistant text repaired by `repair`. */
export type HistoryWalk<Body> = (repair: HistoryTextRepair) => Body

/** Characters fed to the engine at once: about a millisecond at its slowest. */
export const SLICE_CHARS = 8192

async function repairInSlices(text: string, options: HistoryRepairOptions, pace: Pace, longTexts: LongTexts | undefined): Promise<RepairedHistoryText> {
  const repairer = createHistoryTextRepairer(options, longTexts)
  for (const piece of longTexts?.piecesOf(text) ?? [text]) {
    for (let start = 0; start < piece.length; start += SLICE_CHARS) {
      const slice = piece.slice(start, start + SLICE_CHARS)
      await pace.turn(slice.length)
      repairer.feed(slice)
    }
  }
  return repairer.end(text)
}

/**
 * `walk`'s body, each text it repairs repaired in slices, the loop given a
 * turn when `pace` says one is due. With `longTexts`, a long text the body
 * was read with is read from its pieces (never joined), and a long repaired
 * text kept as its pieces.
 */
export async function repairHistoryInSlices<Body>(walk: HistoryWalk<Body>, pace: Pace = new Pace(), longTexts?: LongTexts): Promise<Body> {
  const asked: Array<{ text: string; options: HistoryRepairOptions }> = []
  walk((text, options) => {
    asked.push({ text, options })
    return { text, removedCalls: 0, unrunTools: [], diagnostics: [] }
  })
  const repaired: RepairedHistoryText[] = []
  for (const { text, options } of asked) repaired.push(await repairInSlices(text, options, pace, longTexts))
  let next = 0
  return walk((text) => {
    const answer = repaired[next]
    if (answer === undefined || asked[next++]!.text !== text) throw new Error('A history walk asked for other texts the second time')
    return answer
  })
}
