/**
 * The wild captures (test/fixtures/leaks-wild-2.json, and leaks-wild-3.json:
 * spellings drifted in every position, issue 21): each with the tools its
 * request declared (`tools`, schemas included), whole, split at every offset
 * and one code point at a time, with conservation and no markup left.
 *
 * Decided differently from a capture's expected text:
 * - tableplus-ascii-spaced-function-calls-prose-after: the line breaks on both
 *   sides of the removed block are kept (policy: whitespace around removed
 *   markup is kept verbatim), so the text holds two where the capture has one.
 */
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import type { DeclaredTool } from '../../src/dsml/tool-schema.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, reassemble, textOf } from '../support/chunking.ts'
import { leaksMarkup } from '../support/dsml-builders.ts'
import type { CallShape } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'
import wild2 from '../fixtures/leaks-wild-2.json' with { type: 'json' }
import wild3 from '../fixtures/leaks-wild-3.json' with { type: 'json' }

interface WildCapture {
  id: string
  input: string
  expected_calls: CallShape[]
  expected_text: string
  benign: boolean
  tools: DeclaredTool[]
}

const files: ReadonlyArray<readonly [string, WildCapture[]]> = [
  ['leaks-wild-2.json', wild2 as unknown as WildCapture[]],
  ['leaks-wild-3.json', wild3 as unknown as WildCapture[]],
]

/** Expected texts decided differently (see the file's doc). */
const TEXT_DECISIONS: Readonly<Record<string, string>> = {
  'tableplus-ascii-spaced-function-calls-prose-after': '让我查看一下样本：\n\n以下是结论',
}

export const suite = defineSuite('dsml/wild-captures', (test) => {
  for (const [file, captures] of files) {
    test(`${file}: 12 captures, unique ids, every one with its declared tools`, () => {
      assertEqual(captures.length, 12)
      assertEqual(new Set(captures.map((capture) => capture.id)).size, 12)
      assert(captures.every((capture) => Array.isArray(capture.tools)), 'tools')
    })

    for (const capture of captures) {
      test(`wild capture ${capture.id}: calls and text, whole, at every split and one code point at a time`, () => {
        const options: DsmlSanitizerOptions = capture.tools.length > 0 ? { tools: capture.tools } : {}
        const events = assertChunkInvariant(capture.input, options, assertEqual)
        assertEqual(reassemble(events), capture.input, 'conservation')
        assertEqual(callsOf(events), capture.expected_calls, 'calls')
        const text = textOf(events)
        assertEqual(text.trimEnd(), (TEXT_DECISIONS[capture.id] ?? capture.expected_text).trimEnd(), 'text (trimEnd)')
        if (!capture.benign) assert(!leaksMarkup(text), `markup left in ${JSON.stringify(text)}`)
      })
    }
  }
})
