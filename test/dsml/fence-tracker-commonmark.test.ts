/**
 * FenceTracker against the CommonMark reference parser (commonmark.js 0.31.2,
 * a development dependency): for random Markdown built from block-structure
 * pieces, a probe character is inside a fence by the tracker exactly when the
 * reference puts it in a fenced code block (DESIGN.md §5.4). HTML blocks are
 * left out of the alphabet: the tracker does not follow them (see its header).
 *
 * Node only (vitest): the portable suites run under Deno and Bun without npm
 * packages.
 */
import { Parser } from 'commonmark'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createFenceTracker } from '../../src/dsml/fence-tracker.ts'

const PROBE = 'Q'
const PIECES = [
  '```', '````', '`````', '~~~', '~~~~', '~~~ x', '``', '`', '`x`', '~',
  '\n', '\n', '\n', '\r\n', '\r', ' ', '  ', '   ', '    ', '     ', '\t', ' \t',
  '> ', '>', '>>', '>\t', '   > ', '- > ', '> - ',
  '- ', '* ', '+ ', '-', '*', '-  ', '-\t', '  - ', '1. ', '1.  ', '2. ', '2) ', '1) ', '0. ', '01. ', '10. ',
  '#', '# ', '---', '***', '___', '===', '- - -', '* * *',
  'py', 'a', 'b c',
]

const parser = new Parser()

/** The probes the reference parser puts inside fenced code blocks. */
function probesInFencesByCommonMark(document: string): string[] {
  const walker = parser.parse(document).walker()
  const inside: string[] = []
  for (let event = walker.next(); event !== null; event = walker.next()) {
    const node = event.node
    if (event.entering && node.type === 'code_block' && node.info !== null) {
      for (const match of (node.literal ?? '').matchAll(/Q\d+Z/g)) inside.push(match[0])
    }
  }
  return inside.sort()
}

/** The probes the tracker puts inside fences, asked at each probe's first character; fed in `chunk`-character pieces. */
function probesInFencesByTracker(document: string, chunk: number): string[] {
  const tracker = createFenceTracker()
  const inside: string[] = []
  let tracked = 0
  for (let index = document.indexOf(PROBE); index !== -1; index = document.indexOf(PROBE, index + 1)) {
    for (; tracked < index; tracked = Math.min(index, tracked + chunk)) tracker.track(document, tracked, Math.min(index, tracked + chunk))
    if (tracker.inFenceAt(PROBE.charCodeAt(0))) inside.push(document.slice(index, document.indexOf('Z', index) + 1))
  }
  return inside.sort()
}

const documents = fc
  .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.constant(PROBE) }), { maxLength: 90, size: 'max' })
  .map((pieces) => {
    let probes = 0
    return pieces.map((piece) => (piece === PROBE ? `${PROBE}${probes++}Z` : piece)).join('')
  })

describe('dsml/fence-tracker against CommonMark', () => {
  test('v20-code-fence (DESIGN §5.4): the regression cases agree with the reference', () => {
    for (const document of [
      '> ```\n\nQ0Z', '> ```\n>\n> Q0Z', '```\n    > Q0Z', '- > ```\n  > Q0Z', '-\n\n   ```\nQ0Z', '- \n\n   ```\nQ0Z',
      '10. \n  ```\nQ0Z', 'text\n2. ```\nQ0Z', 'text\n1. ```\n   Q0Z', 'text\n-\n```\nQ0Z', '- a\nlazy\n  ```\n  Q0Z',
      '> a\nlazy\n> ```\n> Q0Z', '- a\n---\n  ```\nQ0Z', '- a\n\n      ```\n  Q0Z', '# ```\nQ0Z', '>\t```\n> Q0Z', '- a\n\t```\n  Q0Z',
    ]) {
      expect(probesInFencesByTracker(document, 1), JSON.stringify(document)).toEqual(probesInFencesByCommonMark(document))
      expect(probesInFencesByTracker(document, document.length), JSON.stringify(document)).toEqual(probesInFencesByCommonMark(document))
    }
  })

  test('v20-code-fence (DESIGN §5.4): random block structure, whole and in pieces, agrees with the reference', () => {
    fc.assert(
      fc.property(documents, fc.integer({ min: 1, max: 9 }), (document, chunk) => {
        const expected = probesInFencesByCommonMark(document)
        expect(probesInFencesByTracker(document, document.length)).toEqual(expected)
        expect(probesInFencesByTracker(document, chunk)).toEqual(expected)
      }),
      { numRuns: 5000 },
    )
  })
})
