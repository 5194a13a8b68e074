/**
 * Every real capture in src/cli/leaks-real.json: expected calls and
 * text whole (sanitizeText, parseDsml), split at every offset and one code
 * point at a time (assertChunkInvariant), conservation at every split, and,
 * for captures that carry their real `chunks`, fed exactly those chunks.
 *
 * Text is compared after trimEnd() on both sides: the engine keeps whitespace
 * that preceded removed markup, the captures' expected_text does not.
 *
 * Decisions on the captures marked DEBATABLE (lead's brief):
 * - sglang-35736 (tool_choice none): the engine recovers the call; the gateway
 *   decides about tool_choice.
 * - vllm-ascend-13794: call Read with the fence's JSON (fencedJson rescue);
 *   text is the prose before the marker; the hallucinated result is dropped.
 * - pi-free-376: call with string values as listed (toolNameTag rescue).
 * - codex-relay-49: calls as listed.
 * - opencode-34676 (no marker anywhere): a call only because its request declared
 *   `read` (DESIGN.md §5.1); with nothing declared it stays text.
 * - opencode-24566: raw-string fallback for the invalid JSON, as listed.
 * - opencode-plugin-golden-*: the model's own <analysis> blocks stay as text.
 */
import { createDsmlSanitizer } from '../../src/dsml/index.ts'
import type { DsmlSanitizerOptions } from '../../src/dsml/options.ts'
import type { DeclaredTool } from '../../src/dsml/tool-schema.ts'
import type { SanitizerEvent } from '../../src/dsml/types.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, normalizeEvents, reassemble, runChunks, textOf } from '../support/chunking.ts'
import { leaksMarkup } from '../support/dsml-builders.ts'
import { expectOutcome, type CallShape } from '../support/dsml-checks.ts'
import { defineSuite } from '../support/harness.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }

interface Capture {
  id: string
  input: string
  chunks?: string[]
  expected_calls: CallShape[]
  expected_text: string
  /** The tools the capture's request declared, where the capture says (markerless markup needs them). */
  tools?: DeclaredTool[]
}

/** The options a capture runs with: the tools its request declared. */
const optionsOf = (capture: Capture): DsmlSanitizerOptions => (capture.tools === undefined ? {} : { tools: capture.tools })

const captures = leaks as unknown as Capture[]

/** Calls without ids, text trimmed at the end: what every way of feeding must give. */
function checkEvents(capture: Capture, events: readonly SanitizerEvent[], label: string): void {
  assertEqual(reassemble(events), capture.input, `${label}: conservation`)
  assertEqual(callsOf(events), capture.expected_calls, `${label}: calls`)
  const text = textOf(events)
  assertEqual(text.trimEnd(), capture.expected_text.trimEnd(), `${label}: text (trimEnd)`)
  assert(!leaksMarkup(text), `${label}: markup leaked into text ${JSON.stringify(text)}`)
}

export const suite = defineSuite('dsml/fixtures', (test) => {
  test('fixtures: the capture file holds 21 captures with unique ids', () => {
    assertEqual(captures.length, 21, 'captures')
    assertEqual(new Set(captures.map((capture) => capture.id)).size, captures.length, 'unique ids')
    assertEqual(captures.filter((capture) => Array.isArray(capture.chunks)).length, 2, 'captures with chunks')
  })

  for (const capture of captures) {
    test(`fixture ${capture.id}: whole input (sanitizeText, parseDsml)`, () => {
      expectOutcome(capture.input, { calls: capture.expected_calls, textTrimmed: capture.expected_text }, optionsOf(capture))
    })

    test(`fixture ${capture.id}: split at every offset and one code point at a time`, () => {
      const whole = assertChunkInvariant(capture.input, optionsOf(capture), assertEqual)
      checkEvents(capture, whole, 'whole')
    })

    test(`fixture ${capture.id}: conservation at every split`, () => {
      for (let index = 1; index < capture.input.length; index++) {
        const events = runChunks([capture.input.slice(0, index), capture.input.slice(index)], optionsOf(capture))
        assertEqual(reassemble(events), capture.input, `conservation, split at ${index}`)
      }
    })

    const chunks = capture.chunks
    if (chunks !== undefined) {
      test(`fixture ${capture.id}: fed exactly the captured chunks`, () => {
        assertEqual(chunks.join(''), capture.input, 'test bug: chunks do not rebuild the input')
        let counter = 0
        const sanitizer = createDsmlSanitizer({ ...optionsOf(capture), generateId: () => `call_${++counter}` })
        const events: SanitizerEvent[] = []
        chunks.forEach((chunk, index) => {
          events.push(...sanitizer.feed(chunk))
          assert(sanitizer.heldChars <= 65_536, `heldChars ${sanitizer.heldChars} over the cap after chunk ${index}`)
        })
        events.push(...sanitizer.end())
        assertEqual(sanitizer.heldChars, 0, 'heldChars after end()')
        checkEvents(capture, events, 'captured chunks')
        for (const event of events) {
          if (event.type === 'text') assert(!/[\uFF5C\u2016]/.test(event.text), `partial marker leaked in a text event: ${JSON.stringify(event.text)}`)
        }
        assertEqual(normalizeEvents(events), normalizeEvents(runChunks([capture.input], optionsOf(capture))), 'captured chunks give the same events as the whole input')
      })
    }
  }
})
