/**
 * The proof every leak family gets (issue: leak families): an example,
 * read whole, split at every offset and one code point at a time, in the
 * reasoning channel, with prose before and after, inside a fence (where it
 * must not run), and its benign look-alikes left byte for byte.
 */
import { createDsmlPartSanitizer } from '../../src/parts/index.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import type { Part } from '../../src/parts/part.ts'
import { assert, assertEqual } from './assert.ts'
import { assertChunkInvariant, callsOf, reassemble, runChunks, textOf } from './chunking.ts'
import { leaksMarkup } from './dsml-builders.ts'
import type { CallShape } from './dsml-checks.ts'

export interface FamilyExample {
  /** The leak: markup only, so that the text left is empty. */
  input: string
  calls: CallShape[]
  options?: DsmlSanitizerOptions
}

/** Whole, at every split, and one code point at a time: the calls, nothing left, every character accounted for. */
export function checkWhole({ input, calls, options = {} }: FamilyExample): void {
  const events = assertChunkInvariant(input, options, assertEqual)
  assertEqual(callsOf(events), calls, 'calls')
  assertEqual(textOf(events).trim(), '', 'no text left')
  assertEqual(reassemble(events), input, 'conservation')
}

/** In the reasoning channel, whole and split in two at every offset: the same calls, from that channel, and no markup in the reasoning. */
export function checkInReasoning({ input, calls, options = {} }: FamilyExample): void {
  for (let cut = 0; cut < input.length; cut++) {
    const sanitizer = createDsmlPartSanitizer(options)
    const parts: Part[] = []
    for (const piece of cut === 0 ? [input] : [input.slice(0, cut), input.slice(cut)]) parts.push(...sanitizer.feed({ type: 'reasoning', text: piece }))
    parts.push(...sanitizer.feed({ type: 'finish', reason: 'stop' }), ...sanitizer.end())
    const recovered = parts.flatMap((part) => (part.type === 'tool-call' ? [part] : []))
    assertEqual(
      recovered.map((part) => ({ name: part.call.name, arguments: { ...part.call.arguments } })),
      calls,
      `calls from reasoning, cut at ${cut}`,
    )
    assert(recovered.every((part) => part.channel === 'reasoning'), 'recovered from the reasoning channel')
    const reasoning = parts.map((part) => (part.type === 'reasoning' ? part.text : '')).join('')
    assertEqual(reasoning.trim(), '', `no reasoning text left, cut at ${cut}`)
  }
}

/** Prose before and after: kept exactly, around the removed markup. */
export function checkWithProse({ input, calls, options = {} }: FamilyExample): void {
  const before = 'Let me check that.\n'
  const after = '\nDone, here is what I found.'
  const events = assertChunkInvariant(before + input + after, options, assertEqual)
  assertEqual(callsOf(events), calls, 'calls')
  assertEqual(textOf(events), before + after, 'prose kept, markup removed')
}

/** Inside a fenced code block (backticks and tildes): documentation, byte for byte, no call. */
export function checkFenced({ input, options = {} }: FamilyExample): void {
  for (const fence of ['```', '~~~']) {
    const fenced = `An example:\n${fence}xml\n${input}\n${fence}\nThat is all.`
    const events = runChunks([fenced], options)
    assertEqual(textOf(events), fenced, `${fence}: kept byte for byte`)
    assertEqual(callsOf(events), [], `${fence}: no call`)
  }
}

/** Text that looks like the family but is not a leak: byte for byte, no call, whole and split. */
export function checkBenign(text: string, options: DsmlSanitizerOptions = {}): void {
  const events = assertChunkInvariant(text, options, assertEqual)
  assertEqual(textOf(events), text, 'kept byte for byte')
  assertEqual(callsOf(events), [], 'no call')
}

/** Every check for one example. */
export function checkFamily(example: FamilyExample): void {
  checkWhole(example)
  checkInReasoning(example)
  checkWithProse(example)
  checkFenced(example)
  assert(!leaksMarkup(textOf(runChunks([example.input], example.options))), 'no markup in the text')
}
