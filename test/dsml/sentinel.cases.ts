/**
 * sentinel.ts on its own: `containsDsmlSentinel` is the tag lexer run from
 * every `<` and bar, so it finds exactly what the lexer reads as markup —
 * markers of every spelling, barred known tags, special tokens — and nothing
 * in prose. `markerSpellings` shows them without live bytes (the report).
 */
import fc from 'fast-check'
import { containsDsmlSentinel } from '../../src/dsml/index.ts'
import { markerSpellings } from '../../src/dsml/sentinel.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { BOX_BAR, DOUBLE_BAR, eos, EOS_VARIANTS, FW_BAR, marker, WORD } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

export const suite = defineSuite('dsml/sentinel', (test) => {
  test('reject-not-dsml: markers of every spelling, alone or in prose', () => {
    const spellings = [marker(), marker({ bars: 2 }), marker({ bar: '|' }), marker({ bar: '|', spaced: true }), marker({ bar: DOUBLE_BAR }), marker({ bar: BOX_BAR, rightBar: FW_BAR })]
    for (const spelling of spellings) {
      for (const text of [`<${spelling}tool_calls>`, `</${spelling}invoke>`, `prose <${spelling} calls> prose`, `<${spelling}`]) {
        assert(containsDsmlSentinel(text), JSON.stringify(text))
      }
    }
    assert(containsDsmlSentinel(`${marker()}tool_calls>`), 'a fragment that lost its <')
    assert(containsDsmlSentinel(`x ${FW_BAR}${FW_BAR}${FW_BAR}${WORD}${FW_BAR} y`), 'a bare marker after a third bar')
    assert(containsDsmlSentinel(`<${FW_BAR}${FW_BAR}invoke name="x">`), 'a barred known tag')
    assert(containsDsmlSentinel(`text <${FW_BAR}parameter`), 'a barred known tag cut by the end')
  })

  test('v21-eos: special tokens in every spelling', () => {
    for (const variant of EOS_VARIANTS) assert(containsDsmlSentinel(`Done.${eos(variant)}`), variant)
  })

  test('reject-not-dsml: prose, tables, pipes and the word alone are not sentinels', () => {
    for (const text of [
      '',
      'The DSML format. If a < b and c > d then a | b.',
      `| a | b |\n|---|---|\n| ${WORD} | x |`,
      `<| not a marker, |${WORD} without a closing bar, ${WORD}${FW_BAR} without an opening one`,
      `<${FW_BAR}div> <${FW_BAR}DSM x`,
      `名称${FW_BAR}价格${FW_BAR}数量`,
      '<invoke name="x"><parameter name="y">z</parameter></invoke>',
    ]) {
      assertEqual(containsDsmlSentinel(text), false, JSON.stringify(text))
    }
    assertThrows(() => containsDsmlSentinel(42 as unknown as string), TypeError)
  })

  test('reject-not-dsml (property): text holding a sentinel holds it whatever surrounds it', () => {
    const pieces = ['<', '/', ' ', FW_BAR, '|', WORD, 'D', 'x', '>', 'invoke', '\n']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 20 }), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (parts, before, after) => {
        const text = parts.join('')
        if (containsDsmlSentinel(text)) assert(containsDsmlSentinel(`${before} ${text} ${after}`), `lost in context: ${JSON.stringify(text)}`)
      }),
      { numRuns: 2000 },
    )
  })

  test('markerSpellings: each spelling once, canonical bars shown as ‹ ›, other bars in brackets: never a live marker', () => {
    const text = `<${marker()}tool_calls> <${marker({ bars: 2 })}invoke> <${marker({ bar: '|', spaced: true })}calls> <${marker({ bar: DOUBLE_BAR })}x> ${eos()}`
    assertEqual(markerSpellings(text), ['‹DSML›', '‹‹DSML››', '[|] DSML [|]', `[${DOUBLE_BAR}]DSML[${DOUBLE_BAR}]`, 'special token'])
    assert(!markerSpellings(text).join('').includes(FW_BAR), 'no live bar')
    for (const shown of markerSpellings(text)) assert(!containsDsmlSentinel(shown) && !containsDsmlSentinel(`<${shown}invoke>`), `${shown} is no marker`)
    assertEqual(markerSpellings('plain'), [])
  })
})
