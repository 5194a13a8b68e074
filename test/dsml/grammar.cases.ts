/**
 * grammar.ts on its own: the character classes, the name sets, the meanings
 * of tag names (DESIGN.md §4, PATTERNS.md V1–V8, V16) and the "could this
 * text open markup" predicate every fast path asks. The predicate's
 * soundness is checked against the engine: a text it clears must come out of
 * a fresh sanitizer unchanged, with nothing held.
 */
import fc from 'fast-check'
import { createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import {
  BARS,
  classifyCloserName,
  classifyOpenerName,
  isBar,
  isStringFlag,
  asksForJson,
  isTagNameCharacter,
  isToolName,
  KNOWN_NAME_SET,
  isMarkerLostOpener,
  MARKERLESS_CLOSER_NAMES,
  MARKERLESS_OPENER_NAMES,
  MARKERLESS_OPENER_SET,
  SPECIAL_TOKEN_SET,
} from '../../src/dsml/grammar.ts'
import {
  BarFinder,
  canFollowClosingSlash,
  canFollowLessThan,
  CLOSERS,
  couldOpenMarkup,
  drifting,
  NO_NAMES,
  OPENERS,
  indexOfBar,
  indexOfMarkerlessOpener,
  BAR_NEEDLES,
  LESS_THAN_NEEDLE_COUNT,
  LONGEST_BARLESS_TAG_START,
  lostMarkerOpenerBefore,
  TAG_START_NEEDLES,
  SHORT_TEXT,
} from '../../src/dsml/markup-starts.ts'
import { firstOf } from '../../src/dsml/positions.ts'
import { WordSet } from '../../src/dsml/word-set.ts'
import { assert, assertEqual, assertThrows } from '../support/assert.ts'
import { textOf } from '../support/chunking.ts'
import { BOX_BAR, DOUBLE_BAR, dialect, FW_BAR, LOWER_BLOCK } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const code = (character: string): number => character.charCodeAt(0)

/** `text` fed to a fresh sanitizer comes out unchanged with nothing held, no diagnostic. */
function passesUntouched(text: string): boolean {
  const sanitizer = createDsmlSanitizer()
  const events = sanitizer.feed(text)
  return sanitizer.heldChars === 0 && events.every((event) => event.type === 'text') && textOf(events) === text
}

export const suite = defineSuite('dsml/grammar', (test) => {
  test('v2-doubled-bars / v3-ascii-pipes (DESIGN §4): the four bars, and nothing else', () => {
    for (const bar of [FW_BAR, '|', DOUBLE_BAR, BOX_BAR]) assert(isBar(code(bar)), `bar ${JSON.stringify(bar)}`)
    assertEqual([...BARS].sort(), [FW_BAR, '|', DOUBLE_BAR, BOX_BAR].sort(), 'BARS')
    for (const other of ['l', 'I', '!', '¦', '\u2223', '\uFFE8', '/', ' ']) assert(!isBar(code(other)), `not a bar ${JSON.stringify(other)}`)
  })

  test('WordSet: steps a mask through a word a character at a time', () => {
    const set = new WordSet(['name', 'string', 'nametag'])
    let mask = set.all
    for (const [index, character] of [...'name'].entries()) mask = set.step(mask, index, code(character))
    assert(set.ends(mask, 4), 'name is a word')
    assertEqual(set.matched(mask, 4), 0, 'name is word 0')
    assert(!set.ends(mask, 3), 'nam is not')
    assertEqual(set.step(mask, 4, code('t')) !== 0, true, 'nametag goes on')
    assertEqual(set.step(set.all, 0, code('x')), 0, 'no word starts with x')
    assert(set.canStart(code('s')) && !set.canStart(code('t')), 'canStart')
    assert(set.matchesWhole('string') && !set.matchesWhole('strin') && !set.matchesWhole('strings'), 'matchesWhole')
    assertThrows(() => new WordSet(Array.from({ length: 33 }, (_, index) => `w${index}`)), RangeError)
  })

  test('v9-orphan-invoke: markerless words hold tag-name characters only, so a name read as a run stops where the lexer decides', () => {
    for (const name of [...MARKERLESS_OPENER_NAMES, ...MARKERLESS_CLOSER_NAMES]) {
      for (const character of name) assert(isTagNameCharacter(code(character)) && !isBar(code(character)) && !'< >/'.includes(character), `${name}: ${JSON.stringify(character)}`)
    }
  })

  test('v2-doubled-bars / v3-ascii-pipes: the tag-start needles are `<` first (alone, the first LESS_THAN_NEEDLE_COUNT), then the bars’ needles', () => {
    assertEqual(TAG_START_NEEDLES.slice(0, LESS_THAN_NEEDLE_COUNT), ['<'])
    assertEqual(TAG_START_NEEDLES.slice(LESS_THAN_NEEDLE_COUNT).map(String), BAR_NEEDLES.map(String))
    for (const bar of BARS) assertEqual(firstOf(`ab${bar}c<`, BAR_NEEDLES, 0), 2, `bar ${JSON.stringify(bar)} found by its needle`)
    assertEqual(firstOf('ab|c<', TAG_START_NEEDLES, 0, LESS_THAN_NEEDLE_COUNT), 4, '`<` alone: the bar is not looked for')
  })

  test('v1-canonical (DESIGN §4): known names ignore case, markerless names are lower case only', () => {
    for (const name of ['invoke', 'INVOKE', 'Parameter', 'tool_calls', 'FUNCTION_CALLS', 'tool']) assert(KNOWN_NAME_SET.matchesWhole(name), name)
    assert(MARKERLESS_OPENER_SET.matchesWhole('invoke') && !MARKERLESS_OPENER_SET.matchesWhole('Invoke'), 'markerless openers')
    assert(!MARKERLESS_OPENER_SET.matchesWhole('tool'), '"tool" is an invoke spelling only under a marker')
  })

  test('v21-eos (DESIGN §4): special tokens with ▁, _ or spaces between their words, any case', () => {
    for (const token of [`end${LOWER_BLOCK}of${LOWER_BLOCK}sentence`, 'end of sentence', 'end_of_sentence', 'Begin_Of_Sentence', `end${LOWER_BLOCK}of${LOWER_BLOCK}thinking`]) {
      assert(SPECIAL_TOKEN_SET.matchesWhole(token), token)
    }
    assert(!SPECIAL_TOKEN_SET.matchesWhole('end-of-sentence'), 'hyphens are not separators')
  })

  test('v5/v7/v8 and v16 (DESIGN §4): opener names exactly, closer names also truncated', () => {
    assertEqual(['invoke', 'tool', 'parameter', 'tool_calls', 'calls', 'function_calls', 'tool_use', 'toolcall', '', 'analysis'].map(classifyOpenerName), [
      'invoke', 'invoke', 'parameter', 'block', 'block', 'block', 'block', 'block', 'empty', 'unknown',
    ])
    assertEqual(['inv', 'in', 'i', 'param', 'pa', 'tool_c', 'func', 'fun', 'INV'].map(classifyCloserName), [
      'invoke', 'invoke', 'unknown', 'parameter', 'unknown', 'block', 'block', 'unknown', 'invoke',
    ])
  })

  test('v12-runaway-name (DESIGN §5.1): tool names are identifier-like, 1 to 128 characters', () => {
    for (const name of ['bash', 'mcp__github.create-issue:v2', 'x'.repeat(128)]) assert(isToolName(name), name)
    for (const name of ['', 'x'.repeat(129), 'rm -rf', 'a{b', 'a/b', 'é']) assert(!isToolName(name), JSON.stringify(name))
  })

  test('v24-json-param: string="false" asks for JSON; true/false are flags', () => {
    assert(asksForJson('false') && asksForJson(' FALSE ') && !asksForJson('true') && !asksForJson(undefined), 'asksForJson')
    assert(isStringFlag('true') && isStringFlag('False') && !isStringFlag('x') && !isStringFlag(undefined), 'isStringFlag')
  })

  test('reject-not-dsml: what may follow "<" and "</" in a tag', () => {
    const outside = OPENERS
    for (const follower of ['/', ' ', '\t', ...BARS, 'i', 'p', 't', 'f']) assert(canFollowLessThan(code(follower), outside), JSON.stringify(follower))
    for (const other of ['b', 'd', 's', 'a', 'I', 'P', '<', '1', '\n', '-', '!']) assert(!canFollowLessThan(code(other), outside), JSON.stringify(other))
    assert(!canFollowLessThan(code('i'), CLOSERS), 'no opener names allowed')
    assert(canFollowClosingSlash(code('c'), CLOSERS) && !canFollowClosingSlash(code('c'), outside), 'closer names only where allowed')
    assert(canFollowClosingSlash(code(FW_BAR), NO_NAMES), 'a bar after "</" always')
    // Issue 21: inside markup a real marker opened (drift), the word may stand right after "<" or "</" (`<DSMLinvoke`).
    assert(!canFollowLessThan(code('D'), OPENERS) && canFollowLessThan(code('D'), drifting(OPENERS)), '"<D" only in drift')
    assert(!canFollowClosingSlash(code('D'), CLOSERS) && canFollowClosingSlash(code('D'), drifting(CLOSERS)), '"</D" only in drift')
  })

  test('reject-not-dsml: markup starts at a bar or at "<" + a markerless opener name', () => {
    assertEqual(indexOfBar(`ab|c${FW_BAR}`, 0), 2)
    assertEqual(indexOfBar(`ab|c${FW_BAR}`, 3), 4)
    assertEqual(indexOfBar('none', 0), -1)
    for (const name of MARKERLESS_OPENER_NAMES.filter((opener) => !isMarkerLostOpener(opener))) assertEqual(indexOfMarkerlessOpener(`a<b <i <p <${name}> x`, 0), 10, name)
    assertEqual(indexOfMarkerlessOpener('a <function x> and <function name="f">', 0), -1, '"function" opens only bare: <function>')
    assertEqual(indexOfMarkerlessOpener('a function or <functional> <function>', 0), 27)
    assertEqual(indexOfMarkerlessOpener('<Invoke <invoke', 1), 8)
    assertEqual(indexOfMarkerlessOpener('a < invoke', 0), -1, 'no space after "<" in a markerless tag')
    // Issue 21: V4.1's block opener that lost its marker is never searched for in prose (`calls` is
    // everywhere); it is looked for back from where a marked tag may begin: only whitespace between.
    assertEqual(indexOfMarkerlessOpener('x < calls>\n', 0), -1)
    assertEqual(lostMarkerOpenerBefore('x < calls>\n\n', 0, 12), 2)
    assertEqual(lostMarkerOpenerBefore('x <calls>', 0, 9), 2)
    assertEqual(lostMarkerOpenerBefore('x <    calls> ', 0, 14), 2)
    for (const text of ['x <     calls>', 'x <calls x>', 'x < calls> y', '<tool_calls>', 'x calls>', 'x < calls']) assertEqual(lostMarkerOpenerBefore(text, 0, text.length), -1, JSON.stringify(text))
    assertEqual(lostMarkerOpenerBefore('x <calls>', 3, 9), -1, 'not before from')
    // `<` four spaces `/` four spaces `/` four spaces, before a bar: a closer whose slash drifted (`</ / | DSML |`).
    assertEqual(LONGEST_BARLESS_TAG_START, '<    /    /    '.length, 'the longest barless start: a closer with two slashes before its bar')
    assert(LONGEST_BARLESS_TAG_START >= '<function_call'.length, 'at least one letter short of an opener name')
  })

  test('indexOfBar and BarFinder: the first bar at or after each place, every bar, in one-byte and two-byte text', () => {
    for (const text of ['a | b', `a ${FW_BAR} b`, `x${DOUBLE_BAR}y${BOX_BAR}z|`, `two-byte — ${'|'.repeat(3)} then ${FW_BAR}${FW_BAR}`, 'none at all', '']) {
      const finder = new BarFinder()
      for (let from = 0; from <= text.length; from++) {
        let expected = -1
        for (let index = from; index < text.length && expected === -1; index++) if (isBar(text.charCodeAt(index))) expected = index
        assertEqual(indexOfBar(text, from), expected, `${JSON.stringify(text)} from ${from}`)
        assertEqual(finder.next(text, from), expected, `${JSON.stringify(text)} from ${from}, found again from later places`)
      }
      assertEqual(new BarFinder().next(text, 0), indexOfBar(text, 0), 'a fresh finder')
    }
  })

  test('reject-not-dsml: couldOpenMarkup clears prose, HTML and code without DSML, not markup', () => {
    const cleared = [
      'plain prose with no tag at all',
      'a<b c a<b c a<b c a<b c a<b c a<b c and more words after it',
      '<div class="row"><span id="n">value</span></div> then a sentence closing the line',
      'const m: Map<string, Array<Set<number>>> = new Map(); if (a<b && c>d) {} // done',
      '<param name="x">1</param><value>two</value> and then a long tail of prose',
      '<parameters> holds the anchor of an opener name, and is none: its name goes on',
    ]
    // Searched alike whatever their length: once, and repeated past a short piece of a stream.
    for (const text of cleared) {
      assertEqual(couldOpenMarkup(text), false, JSON.stringify(text))
      assertEqual(couldOpenMarkup(`${text} `.repeat(Math.ceil(SHORT_TEXT / text.length) + 1)), false, `${JSON.stringify(text)} repeated`)
    }
    const flagged = [
      `a table ${FW_BAR} with a bar`,
      'a | pipe',
      'an <invoke name="x"> tag',
      'a <parameter name="y"> tag',
      `${'long enough to be searched, '.repeat(10)}and it ends with a <`,
      `${'long enough to be searched, '.repeat(10)}and it ends with <function_cal`,
      `${DOUBLE_BAR}`,
    ]
    for (const text of flagged) assertEqual(couldOpenMarkup(text), true, JSON.stringify(text))
  })

  test('reject-not-dsml (property): a text couldOpenMarkup clears passes a fresh sanitizer untouched', () => {
    const pieces = ['<', '</', '< ', 'a', ' ', '\n', 'b', 'i', 'in', 'invok', 'invoke', 'param', 'parameter', 'tool_', 'function_call', '>', '/', '"', '=', 'name', '`', '~']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('')
        if (!couldOpenMarkup(text)) assert(passesUntouched(text), `cleared but changed or held: ${JSON.stringify(text)}`)
      }),
      { numRuns: 3000 },
    )
  })

  test('reject-not-dsml, whole: a text read to its end opens nothing at a tag it ends inside that has no bar and no whole opener name', () => {
    const prose = 'long enough to be searched, '.repeat(10)
    for (const tail of ['<', '< ', '</', '< /', '<function_cal', '<inv', '<param', '< cal', '<tool_', '<<<']) {
      assertEqual(couldOpenMarkup(`${prose}${tail}`), true, `${JSON.stringify(tail)}: a stream's piece may go on`)
      assertEqual(couldOpenMarkup(`${prose}${tail}`, true), false, `${JSON.stringify(tail)}: a whole text ends there`)
    }
    for (const tail of ['<function_calls', '<invoke name="x"', `<${FW_BAR}`, 'a | b <', '<parameter name="y">']) {
      assertEqual(couldOpenMarkup(`${prose}${tail}`, true), true, `${JSON.stringify(tail)}: a whole opener name or a bar opens markup, whole or not`)
    }
    assertEqual(couldOpenMarkup('a short text with a < in it', true), false, 'a short whole text ends there too')
    assertEqual(couldOpenMarkup('a short text with a < in it'), true, 'a `<` too near a piece’s end to be decided: the piece may go on')
    assertEqual(couldOpenMarkup('a < b, then a short stretch of plain words'), false, 'a `<` decided well before a short piece’s end: plain')
  })

  test('reject-not-dsml, whole (property): a whole text couldOpenMarkup clears comes out of the engine, fed and ended, as it is', () => {
    const pieces = ['<', '</', '< ', 'a', ' ', '\n', 'b', 'i', 'in', 'invok', 'invoke', 'param', 'parameter', 'tool_', 'function_call', 'calls', '>', '/', '"', '=', 'name', '`', '~']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.boolean(), (parts, declared) => {
        const text = parts.join('')
        if (couldOpenMarkup(text, true)) return
        const sanitizer = createDsmlSanitizer(declared ? { knownTools: ['invoke', 'name', 'a'] } : {})
        const events = [...sanitizer.feed(text), ...sanitizer.end()]
        assert(events.every((event) => event.type === 'text') && textOf(events) === text, `cleared whole, but the engine changed it: ${JSON.stringify(text)}`)
      }),
      { numRuns: 3000 },
    )
  })

  test('anchor at every offset: a leak cut at each of its characters, at the end of a whole text, gives what the stream gives', () => {
    const marked = dialect()
    const call = marked.block([marked.invoke('bash', [marked.param('command', 'ls')])])
    const leaks = [call, '<invoke name="bash"><parameter name="command">ls</parameter></invoke>', '<function_calls>\n<invoke name="bash">', `< calls>${marked.invoke('bash', [marked.param('command', 'ls')])}`]
    for (const leak of leaks) {
      for (let cut = 0; cut <= leak.length; cut++) {
        const text = `${'Some prose first, long enough to be searched. '.repeat(6)}${leak.slice(0, cut)}`
        for (const options of [{}, { knownTools: ['bash'] }]) {
          const sanitizer = createDsmlSanitizer(options)
          const streamed = [...sanitizer.feed(text), ...sanitizer.end()]
          const whole = sanitizeText(text, options)
          assertEqual(whole.text, textOf(streamed), `${JSON.stringify(leak.slice(0, cut))}: the text`)
          assertEqual(whole.diagnostics.length, streamed.filter((event) => event.type === 'diagnostic').length, `${JSON.stringify(leak.slice(0, cut))}: the diagnostics`)
        }
      }
    }
  })
})

