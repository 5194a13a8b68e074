/**
 * tag-lexer.ts on its own: one tag at a time, every spelling of DESIGN.md §4,
 * where each shape is rejected, where a tag commits, and what every state
 * means at the end of input. Markers are built at run time.
 */
import fc from 'fast-check'
import { BARE_MARKERLESS_OPENERS, classifyCloserName, classifyOpenerName, MARKERLESS_CLOSER_NAMES, MARKERLESS_OPENER_NAMES } from '../../src/dsml/grammar.ts'
import { ALL_NAMES, CLOSERS, NO_NAMES as NONE, OPENERS, type TagContext } from '../../src/dsml/markup-starts.ts'
import { STEP_COMPLETE, STEP_COMPLETE_BEFORE, STEP_CONTINUE, STEP_REJECT, Tag } from '../../src/dsml/tag.ts'
import { TagLexer } from '../../src/dsml/tag-lexer.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { DOUBLE_BAR, eos, FW_BAR, marker, WORD } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const M = marker()

interface Lexed {
  /** 'reject', 'complete' (at its `>`), 'before' (ended before a character), 'end' (decided by `finish`), 'open' (still reading). */
  outcome: 'reject' | 'complete' | 'before' | 'end' | 'open'
  /** Characters read when decided (the rejecting character not included). */
  read: number
  tag: Tag | undefined
  committed: boolean
  /** The lexer's own count of the characters it read (`TagLexer.length`). */
  length: number
}

/**
 * Runs one lexer over `text` from its first character; `finish` at the end when asked. With `readNames` (`readName`),
 * the characters a markerless name goes on with are read as a run after each step.
 */
function lex(text: string, names: TagContext = NONE, options: { finish?: boolean; maxTagChars?: number; readNames?: boolean } = {}): Lexed {
  const lexer = new TagLexer(options.maxTagChars ?? 4096)
  lexer.begin(text.charCodeAt(0), names)
  for (let index = 1; index < text.length; index++) {
    const step = lexer.step(text.charCodeAt(index))
    if (step === STEP_CONTINUE) {
      if (options.readNames) index = lexer.readName(text, index + 1, text.length) - 1
      continue
    }
    if (step === STEP_REJECT) return { outcome: 'reject', read: index, tag: undefined, committed: lexer.committed, length: lexer.length }
    const tag = new Tag(lexer.tag(), text)
    return { outcome: step === STEP_COMPLETE ? 'complete' : 'before', read: step === STEP_COMPLETE ? index + 1 : index, tag, committed: lexer.committed, length: lexer.length }
  }
  if (!options.finish) return { outcome: 'open', read: text.length, tag: undefined, committed: lexer.committed, length: lexer.length }
  const step = lexer.finish()
  if (step === STEP_REJECT) return { outcome: 'reject', read: text.length, tag: undefined, committed: lexer.committed, length: lexer.length }
  assertEqual(step, STEP_COMPLETE_BEFORE, 'finish completes before the end')
  return { outcome: 'end', read: text.length, tag: new Tag(lexer.tag(), text), committed: lexer.committed, length: lexer.length }
}

function completed(text: string, names: TagContext = NONE): Tag {
  const lexed = lex(text, names)
  assert(lexed.tag !== undefined, `expected a tag from ${JSON.stringify(text)}, got ${lexed.outcome}`)
  return lexed.tag
}

export const suite = defineSuite('dsml/tag-lexer', (test) => {
  test('v1-canonical: an opener with its name, attributes and marker', () => {
    const text = `<${M}parameter name="command" string="true">`
    const tag = completed(text)
    assertEqual(
      { closing: tag.closing, marker: tag.marker, name: tag.name, nameAttribute: tag.nameAttribute, stringAttribute: tag.stringAttribute, terminated: tag.terminated, length: tag.length },
      { closing: false, marker: 'dsml', name: 'parameter', nameAttribute: 'command', stringAttribute: 'true', terminated: true, length: text.length },
    )
    assertEqual(text.slice(tag.markerStart, tag.markerEnd), M, 'the marker')
  })

  test('v1-canonical: a closer, and V4.1 spaced tags', () => {
    const closer = completed(`</${M}invoke>`)
    assertEqual([closer.closing, closer.name], [true, 'invoke'])
    const spaced = completed(`<${M} invoke name="x">`)
    assertEqual([spaced.name, spaced.nameAttribute], ['invoke', 'x'])
  })

  test('v2/v3/v4 (DESIGN §4): bars of every kind, one or two a side, spaces in the marker', () => {
    for (const spelling of [marker({ bars: 2 }), marker({ bar: '|' }), marker({ bar: '|', spaced: true }), marker({ bar: DOUBLE_BAR, rightBar: FW_BAR })]) {
      const text = `<${spelling}tool_calls>`
      const tag = completed(text)
      assertEqual([tag.marker, tag.name], ['dsml', 'tool_calls'], JSON.stringify(text))
      assertEqual(text.slice(tag.markerStart, tag.markerEnd).trim(), spelling.trim(), 'marker text')
    }
    assertEqual(lex(`<${FW_BAR.repeat(3)}${WORD}${FW_BAR}x>`).outcome, 'reject', 'three bars before the word')
  })

  test('family 2 (DESIGN §4): doubled bars with spaces between them, on either side, mixed counts', () => {
    for (const spelling of [
      marker({ bar: '|', bars: 2, spaced: true, barSpaces: true }),
      marker({ bars: 2, barSpaces: true }),
      marker({ bar: '|', bars: 2, rightBar: '|', spaced: true, barSpaces: true }),
      `${FW_BAR}${FW_BAR}${WORD}${FW_BAR} `,
    ]) {
      const text = `<${spelling}calls>`
      const tag = completed(text)
      assertEqual([tag.marker, tag.name], ['dsml', 'calls'], JSON.stringify(text))
      assertEqual(text.slice(tag.markerStart, tag.markerEnd).trim(), spelling.trim(), 'marker text')
    }
    assertEqual(lex(`< | | | ${WORD} | x>`).outcome, 'reject', 'three bars before the word, spaced')
    const three = completed(`< | ${WORD} | | | calls>`)
    assertEqual([three.name, three.length], ['', `< | ${WORD} | | `.length], 'a third closing bar ends the marker: a bare marker up to it')
  })

  test('family 1 (DESIGN §4): closers with spaces between < and /, up to four on each side', () => {
    for (const text of [`< /${M}parameter>`, `<    /    ${M}parameter>`, `< / | ${WORD} | parameter>`]) {
      const tag = completed(text)
      assertEqual([tag.closing, tag.name, tag.length], [true, 'parameter', text.length], JSON.stringify(text))
    }
    assertEqual(lex(`<     /${M}parameter>`).outcome, 'reject', 'five spaces before the /')
    assertEqual(completed(`</ / | ${WORD} | | parameter>`).closing, true, 'issue 21: a closer with its slash doubled')
    assertEqual(lex(`< / / / ${M}x>`).outcome, 'reject', 'two slashes at most')
    assertEqual(lex('< /parameter>', ALL_NAMES).outcome, 'reject', 'markerless closers take no space')
  })

  test('v6-name-spacing: attribute spellings', () => {
    for (const attributes of [' name = "x"', " name='x'", ' name=x', ' NAME="x"', ' name=\u201cx\u201d', ' name="x" name="y"']) {
      assertEqual(completed(`<${M}invoke${attributes}>`).nameAttribute, 'x', attributes)
    }
    assertEqual(completed(`<${M}invoke name>`).nameAttribute, '', 'an attribute with no value')
    assertEqual(completed(`<${M}invoke other="x" name="y">`).nameAttribute, 'y', 'other attributes are read past')
  })

  test('v1-canonical (DESIGN §4): a markered opener that lost its > ends at a line break or the next <', () => {
    const lineBreak = lex(`<${M}tool_calls\nrest`)
    assertEqual([lineBreak.outcome, lineBreak.read, lineBreak.tag?.terminated], ['before', `<${M}tool_calls`.length, false])
    assertEqual(lex(`<${M}invoke name="x"<`).outcome, 'before')
  })

  test('v1-canonical (DESIGN §4): wordless bars carry a known name, any case', () => {
    const tag = completed(`<${FW_BAR}${FW_BAR}INVOKE name="x">`)
    assertEqual([tag.marker, tag.name, tag.nameAttribute], ['bars', 'INVOKE', 'x'])
    assertEqual(lex(`<${FW_BAR}div>`).outcome, 'reject', 'an unknown name under bars is text')
    assertEqual(lex(`<${FW_BAR.repeat(5)}invoke>`).outcome, 'reject', 'at most four wordless bars')
  })

  test('v21-eos (DESIGN §4): special tokens in every spelling', () => {
    for (const variant of ['canonical', 'spaces', 'underscores', 'doubled', 'ascii'] as const) {
      const tag = completed(eos(variant))
      assert(tag.special && tag.terminated, variant)
    }
    const lost = lex(`<${FW_BAR}end of sentence${FW_BAR}x`)
    assert(lost.outcome === 'before' && lost.tag?.special === true && lost.tag.terminated === false, 'a whole token and its closing bar: a special token that lost its >')
    assertEqual(lex(`<${FW_BAR}end of sentenc${FW_BAR}`).outcome, 'reject', 'not a whole token: text')
    assert(completed(`< | | tool_sep | | >`).special, 'spaced doubled bars on both sides')
  })

  test('v10-orphan-parameter (DESIGN §4): a fragment that lost its <, alone or followed by a word', () => {
    const whole = completed(`${M}tool_calls>`)
    assertEqual([whole.fragment, whole.name, whole.terminated], [true, 'tool_calls', true])
    const bare = lex(`${M}>`)
    assertEqual([bare.outcome, bare.tag?.length], ['complete', M.length + 1])
    const word = lex(`${M}hello world`)
    assertEqual([word.outcome, word.tag?.length], ['before', M.length], 'a word that is not a tag name is read again as text')
    assertEqual(lex(`| ${WORD}|`).outcome, 'reject', 'in ASCII bars, outside a block: no spaces in a fragment')
    assertEqual(lex(`${FW_BAR}x`).outcome, 'reject', 'a bar and a letter')
  })

  test('v9-orphan-invoke: markerless tags only where allowed, lower case, well formed', () => {
    assertEqual(lex('<invoke name="read">', NONE).outcome, 'reject', 'not allowed')
    const tag = completed('<invoke name="read">', OPENERS)
    assertEqual([tag.marker, tag.name, tag.nameAttribute], ['none', 'invoke', 'read'])
    assertEqual(lex('<Invoke name="read">', OPENERS).outcome, 'reject', 'upper case is not DeepSeek’s spelling')
    assertEqual(lex('<invokes>', OPENERS).outcome, 'reject', 'a longer name')
    assertEqual(lex('<param name="x">', OPENERS).outcome, 'reject', 'a shorter name')
    assertEqual(lex('<invoke name="a|b">', OPENERS).outcome, 'reject', 'a bar in a markerless tag')
    assertEqual(lex('<invoke name="a\nb">', OPENERS).outcome, 'reject', 'a line break in a markerless tag')
    assertEqual(lex('<invoke name="x"\n', OPENERS).outcome, 'reject', 'a markerless tag needs its >')
    assertEqual(lex('</invoke>', OPENERS).outcome, 'reject', 'closers are not allowed here')
    assertEqual(completed('</invoke>', CLOSERS).closing, true)
    assertEqual(lex('</invoke x>', CLOSERS).outcome, 'reject', 'markerless closers take no attributes')
    assertEqual(completed('<invoke name="x"/>', OPENERS).selfClosing, true)
  })

  test('v9-orphan-invoke: a markerless tag of every markerless word means what its name means (the known names taken where the name ends)', () => {
    for (const name of MARKERLESS_OPENER_NAMES) {
      const tag = completed(BARE_MARKERLESS_OPENERS.includes(name) ? `<${name}>` : `<${name} x="1">`, OPENERS)
      assertEqual([tag.kind, tag.compact], [classifyOpenerName(name), false], `<${name}>`)
    }
    for (const name of MARKERLESS_CLOSER_NAMES) {
      const tag = completed(`</${name}>`, CLOSERS)
      assertEqual([tag.kind, tag.compact], [classifyCloserName(name), false], `</${name}>`)
    }
    assertEqual(completed(`<${M}r=bash>`).compact, true, 'a compact name after the word itself is still read as one')
  })

  test('family 6 (DESIGN §4): <function> opens markerless only bare; <tool_call …> and <function_call> take attributes', () => {
    assertEqual(completed('<function>', OPENERS).name, 'function')
    assertEqual(lex('<function x>', OPENERS).outcome, 'reject', 'attributes: not the bare opener')
    assertEqual(lex('<function name="f">', OPENERS).outcome, 'reject')
    assertEqual(completed('<tool_call id="c1" name="bash">', OPENERS).nameAttribute, 'bash')
    assertEqual(completed('<function_call>', OPENERS).name, 'function_call')
    assertEqual(completed('</function>', CLOSERS).name, 'function', 'closers as usual')
  })

  test('reject-not-dsml: prose, HTML and generics are rejected at their first or second character', () => {
    for (const [text, read] of [['<b c', 1], ['<div>', 1], ['</span>', 2], ['< b', 2], ['<<', 1], ['<1', 1]] as const) {
      const lexed = lex(text, OPENERS)
      assertEqual([lexed.outcome, lexed.read], ['reject', read], JSON.stringify(text))
    }
  })

  test('commitment: at the word, at a fragment’s closing bar, past a wordless known name; never markerless', () => {
    assertEqual(lex(`<${FW_BAR}DSM`).committed, false)
    assertEqual(lex(`<${FW_BAR}${WORD}`).committed, true)
    assertEqual(lex(`|${WORD}`).committed, false, 'a fragment in ASCII bars needs its closing bar')
    assertEqual(lex(`${FW_BAR}${WORD}`).committed, true, 'issue 21: in full-width bars, the word commits it')
    assertEqual(lex(`${M}`).committed, true)
    assertEqual(lex(`<${FW_BAR}invoke`).committed, false, 'the name could still go on')
    assertEqual(lex(`<${FW_BAR}invoke `).committed, true)
    assertEqual(lex('<invoke name="x" ', OPENERS).committed, false)
  })

  test('the tag limit: a committed tag completes as broken, an uncommitted one is rejected', () => {
    const long = lex(`<${M}invoke name="${'x'.repeat(100)}">`, NONE, { maxTagChars: 32 })
    assertEqual([long.outcome, long.tag?.broken, long.read], ['before', true, 32])
    // The regression of issue 8: a wordless block opener with a 4,096-character tail used to be released as text.
    const wordless = lex(`<${FW_BAR}tool_calls  ${DOUBLE_BAR}${WORD}${DOUBLE_BAR}${'x'.repeat(100)}`, NONE, { maxTagChars: 64 })
    assertEqual([wordless.outcome, wordless.tag?.broken, wordless.tag?.name], ['before', true, 'tool_calls'])
    const markerless = lex(`<invoke name="${'x'.repeat(100)}">`, OPENERS, { maxTagChars: 32 })
    assertEqual(markerless.outcome, 'reject')
  })

  test('end of input: what each state means', () => {
    assertEqual(lex('<invoke name="x"', OPENERS, { finish: true }).outcome, 'reject', 'markerless: text')
    assertEqual(lex(`<${FW_BAR}DS`, NONE, { finish: true }).outcome, 'reject', 'an uncommitted marker: text')
    const wordless = lex(`<${FW_BAR}invoke`, NONE, { finish: true })
    assertEqual([wordless.outcome, wordless.tag?.name], ['end', 'invoke'], 'a wordless known name: a tag that lost its >')
    assertEqual(lex(`<${FW_BAR}inv`, NONE, { finish: true }).outcome, 'reject', 'a wordless partial name: text')
    const fragment = lex(`${M}tool_calls`, NONE, { finish: true })
    assertEqual([fragment.outcome, fragment.tag?.name], ['end', 'tool_calls'])
    const fragmentWord = lex(`${M}hello`, NONE, { finish: true })
    assertEqual(fragmentWord.tag?.length, M.length, 'a fragment and a word: the marker only')
    const fragmentAttributes = `${M}invoke name="x"`
    const withAttributes = lex(fragmentAttributes, NONE, { finish: true })
    assertEqual([withAttributes.tag?.name, withAttributes.tag?.length], ['invoke', fragmentAttributes.length], 'a fragment, a known name and attributes: all of it, as a line break would end it')
    assertEqual(lex(`${fragmentAttributes}\n`, NONE).tag?.length, fragmentAttributes.length, 'the line break ends it at the same place')
    const quote = lex(`<${M}invoke name="bas`, NONE, { finish: true })
    assertEqual([quote.outcome, quote.tag?.broken, quote.tag?.nameAttribute], ['end', true, 'bas'], 'an open quote: broken')
    const bare = lex(`<${M}invoke name=bash`, NONE, { finish: true })
    assertEqual([bare.tag?.broken, bare.tag?.nameAttribute], [false, 'bash'])
  })

  test('readName: a markerless name read as a run is read as stepping reads it, whatever follows it, up to the tag limit', () => {
    const same = (text: string, names: TagContext, maxTagChars: number): void => {
      for (const finish of [false, true]) {
        const stepped = lex(text, names, { finish, maxTagChars })
        const run = lex(text, names, { finish, maxTagChars, readNames: true })
        assertEqual({ ...run, tag: run.tag?.text }, { ...stepped, tag: stepped.tag?.text }, `${JSON.stringify(text)} (limit ${maxTagChars})`)
      }
    }
    const names = [...MARKERLESS_OPENER_NAMES, ...MARKERLESS_CLOSER_NAMES]
    const afters = ['', '>', 's>', ' name="x">', '/>', '<', '|', '\n', 'S', '_', '1']
    for (const context of [NONE, OPENERS, CLOSERS, ALL_NAMES]) {
      for (const name of names) {
        for (const start of ['<', '</', '< ', '<  ']) {
          for (let cut = 1; cut <= name.length; cut++) {
            for (const after of afters) for (const limit of [3, 8, 4096]) same(start + name.slice(0, cut) + after, context, limit)
          }
        }
      }
    }
    // Names in any shape: letters of the markerless words, and what may end or break them.
    const alphabet = [...new Set([...names.join(''), '<', '/', ' ', '>', '|', '=', '"', 'X', '\n'])]
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }), fc.constantFrom(NONE, OPENERS, CLOSERS, ALL_NAMES), fc.integer({ min: 2, max: 30 }), (characters, context, limit) => {
        same(`<${characters.join('')}`, context, limit)
      }),
      { numRuns: 2000 },
    )
    // `run` reads a name as a run too, and stops at the budget as stepping does (an eager stop inside the tag).
    for (let budget = 2; budget <= 12; budget++) {
      const lexer = new TagLexer(4096)
      lexer.begin(0x3c, OPENERS)
      const text = '<function_calls>'
      const stop = lexer.run(text, 1, text.length, budget)
      assertEqual([stop, lexer.lastStep, lexer.length], [budget, STEP_CONTINUE, budget], `budget ${budget}`)
    }
    const whole = new TagLexer(4096)
    whole.begin(0x3c, OPENERS)
    assertEqual([whole.run('<function_calls>', 1, 16, Infinity), whole.lastStep], [15, STEP_COMPLETE], 'no budget')
    // A context that no longer allows the name's direction: nothing more is read as a run; the next step rejects.
    const lexer = new TagLexer(4096)
    lexer.begin(0x3c, ALL_NAMES)
    for (const character of '/inv') lexer.step(character.charCodeAt(0))
    lexer.setContext(OPENERS)
    assertEqual(lexer.readName('</invoke>', 5, 9), 5, 'closers no longer allowed')
  })

  test('setContext: a released candidate changes the names allowed mid-tag', () => {
    const lexer = new TagLexer(4096)
    lexer.begin(0x3c, ALL_NAMES)
    for (const character of '/inv') assertEqual(lexer.step(character.charCodeAt(0)), STEP_CONTINUE, character)
    lexer.setContext(OPENERS)
    assertEqual(lexer.step('o'.charCodeAt(0)), STEP_REJECT, 'closers no longer allowed')
    assertThrows(() => new TagLexer(4096).tag(), Error)
  })
})
