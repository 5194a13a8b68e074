/**
 * scanner.ts through the engine: the fast paths (what the grammar clears is
 * emitted whole), re-reads across chunks, and the regressions of issue 8 (a
 * marker reaching the output at the tag limit, and through a capped pending
 * chain). The pending chain itself: pending-tags.cases.ts. Markers are built
 * at run time.
 */
import { containsDsmlSentinel, createDsmlSanitizer, sanitizeText } from '../../src/dsml/index.ts'
import { assert, assertEqual } from '../support/assert.ts'
import { assertChunkInvariant, callsOf, normalizeEvents, reassemble, runChunks, textOf } from '../support/chunking.ts'
import { block, BOX_BAR, DOUBLE_BAR, FW_BAR, invoke, marker, open, param, WORD } from '../support/dsml-builders.ts'
import { defineSuite } from '../support/harness.ts'

const BASH = { name: 'bash', arguments: { command: 'ls' } }
const bashBlock = (): string => block([invoke('bash', [param('command', 'ls')])])

export const suite = defineSuite('dsml/scanner', (test) => {
  test('regression (issue 8): a wordless opener whose tag reaches the 4,096-character limit is removed, not released', () => {
    for (const pad of [4059, 4060, 4061, 4062, 4063, 4064]) {
      const input = `<${FW_BAR}tool_calls  ${DOUBLE_BAR}${WORD}${DOUBLE_BAR}${'x'.repeat(pad)}'${FW_BAR}${WORD}${FW_BAR.repeat(3)}${WORD}${FW_BAR.repeat(3)}<`
      const result = sanitizeText(input)
      assert(!containsDsmlSentinel(result.text), `pad ${pad}: a marker reached the output`)
      assert(result.diagnostics.length > 0, `pad ${pad}: the removal is reported`)
      assertEqual(reassemble(runChunks([input])), input, `pad ${pad}: conservation`)
    }
  })

  test('regression (issue 8): the same with maxHoldChars 300, a 38-character input', () => {
    const input = `<${FW_BAR}tool_calls  ${DOUBLE_BAR}${WORD}${DOUBLE_BAR}${'x'.repeat(14)}'${FW_BAR}${WORD}${FW_BAR}${FW_BAR}<`
    const result = sanitizeText(input, { maxHoldChars: 300 })
    assert(!containsDsmlSentinel(result.text), `a marker reached the output: ${JSON.stringify(result.text)}`)
    assertChunkInvariant(input, { maxHoldChars: 300 }, assertEqual)
  })

  test('stream-text-passthrough: a long run of "<" in prose comes out unchanged', () => {
    const input = `arrows ${'<'.repeat(100)} and ${'<<'.repeat(20)}- more`
    assertEqual(sanitizeText(input).text, input)
    assertChunkInvariant(input, {}, assertEqual)
  })

  test('stream-eager-stop (chunk invariance): the eager stop falling on a "<" the next character makes text', () => {
    // A markerless candidate's budget runs out exactly at a `<`: split right after it or not, the
    // `<` is decided by its next character under the candidate's names, as the look-ahead does.
    const candidate = '<parameter name="p">'
    for (const [pad, head, tail] of [
      [1003, '<', `tool_calls><${FW_BAR}parameter name="y">`],
      [1002, '<<<<', `function_calls><${FW_BAR}parameter name="y">`],
      [1001, '<', `/x <${FW_BAR}parameter name="y">`],
    ] as const) {
      const input = `${candidate}${'x'.repeat(pad)}${head}${tail}`
      const whole = normalizeEvents(runChunks([input]))
      const cut = candidate.length + pad + head.length
      assertEqual(normalizeEvents(runChunks([input.slice(0, cut), input.slice(cut)])), whole, `pad ${pad}: split after ${JSON.stringify(head)}`)
      assertEqual(reassemble(runChunks([input])), input, `pad ${pad}: conservation`)
    }
  })

  test('stream-fence-after-release: a marker tag after a fence opener that a released candidate held is documentation', () => {
    // The candidate `<invoke name="a">` is released as text when the marked opener arrives; the
    // fence opener it held is then text too, so the opener sits inside a fence and is kept.
    const opener = open('tool_calls')
    for (const input of [
      `<invoke name="a">\n\`\`\`\n${opener}\n\`\`\`\n`,
      `<invoke name="a">\n\`\`\`\n${'x'.repeat(10)}${opener}\n\`\`\`\nafter`,
    ]) {
      for (const options of [{}, { eagerStopChars: 24 }]) {
        const whole = runChunks([input], options)
        assertEqual(textOf(whole), input, `${JSON.stringify(options)}: kept byte for byte`)
        assert(whole.every((event) => event.type === 'text'), 'nothing reported')
        for (let cut = 1; cut < input.length; cut++) {
          assertEqual(normalizeEvents(runChunks([input.slice(0, cut), input.slice(cut)], options)), normalizeEvents(whole), `split at ${cut}`)
        }
      }
    }
  })

  test('stream-v17-chunk-split: a rejected tag read again across chunks is read once', () => {
    // Bars that also draw tables and trees (ASCII, box drawing): a fragment in them with a space after the word is text outside a block.
    const text = `${BOX_BAR}|${WORD}  `.repeat(3)
    for (let cut = 1; cut < text.length; cut++) {
      const events = runChunks([text.slice(0, cut), text.slice(cut)], { maxHoldChars: 256 })
      assertEqual(reassemble(events), text, `conservation, split at ${cut}`)
      assertEqual(textOf(events), text, `prose, split at ${cut}`)
    }
  })

  test('reject-not-dsml: text the grammar clears is emitted whole; the same text split gives the same events', () => {
    const prose = 'a<b c <div class="x">html</div> Map<string, Set<number>> x</y '.repeat(40)
    const input = `${prose}${bashBlock()}${prose}<`
    const whole = runChunks([input])
    assertEqual(callsOf(whole), [BASH], 'the call among the prose')
    assertEqual(textOf(whole), `${prose}${prose}<`, 'the prose, and the trailing < released at the end')
    for (const size of [1, 5, 64, 1000]) {
      const chunks: string[] = []
      for (let index = 0; index < input.length; index += size) chunks.push(input.slice(index, index + size))
      assertEqual(normalizeEvents(runChunks(chunks)), normalizeEvents(whole), `fed ${size} at a time`)
    }
  })

  test('stream-v17-chunk-split: the same string fed twice is read twice', () => {
    const sanitizer = createDsmlSanitizer()
    const first = sanitizer.feed(bashBlock())
    const second = sanitizer.feed(bashBlock())
    assertEqual(callsOf([...first, ...second, ...sanitizer.end()]), [BASH, BASH])
  })

  test('stream-transition: flush resolves what is held and goes on, keeping fences and native calls', () => {
    const sanitizer = createDsmlSanitizer()
    sanitizer.noteNativeToolCall({ name: 'bash', arguments: { command: 'ls' } })
    const held = sanitizer.feed(`Start.\n<${marker()}tool_calls>\n<${marker()}invoke name="read">`)
    assertEqual(textOf(held), 'Start.\n', 'the block is held')
    const flushed = sanitizer.flush()
    assertEqual(sanitizer.heldChars, 0, 'nothing held after flush')
    assert(flushed.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'dropped-markup'), 'the cut-off invoke is removed')
    const after = [...sanitizer.feed(`\`\`\`\n${bashBlock()}\n\`\`\`\n${bashBlock()}`), ...sanitizer.end()]
    assertEqual(callsOf(after), [], 'the fenced block is kept, the other is a duplicate of the native call')
    assert(textOf(after).includes(bashBlock()), 'the fenced block stays as text')
    assert(after.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'duplicate-call'), 'duplicate-call')
  })

  test('endText: the text ends as with end() (an open fence, a cut block and a trailing "<" resolved), then the next text starts as a new sanitizer would, native calls kept', () => {
    const sanitizer = createDsmlSanitizer()
    sanitizer.noteNativeToolCall({ name: 'bash', arguments: { command: 'ls' } })
    const first = [...sanitizer.feed(`\`\`\`
code
<${marker()}tool_calls>
<${marker()}invoke name="read">`), ...sanitizer.endText()]
    const fresh = createDsmlSanitizer()
    const expected = [...fresh.feed(`\`\`\`
code
<${marker()}tool_calls>
<${marker()}invoke name="read">`), ...fresh.end()]
    assertEqual(normalizeEvents(first), normalizeEvents(expected), 'resolved as end() resolves it')
    assertEqual([sanitizer.heldChars, sanitizer.idle], [0, createDsmlSanitizer().idle], 'nothing held; at a line start, as a new one')
    const second = [...sanitizer.feed(`a <`), ...sanitizer.endText()]
    assertEqual(textOf(second), 'a <', 'a trailing "<" is released at the end of the text')
    // The fence of the first text is closed: this block is read as markup, and it repeats the native call.
    const third = [...sanitizer.feed(bashBlock()), ...sanitizer.end()]
    assertEqual([callsOf(third), textOf(third)], [[], ''], 'not fenced; the native call is still known')
    assert(third.some((event) => event.type === 'diagnostic' && event.diagnostic.kind === 'duplicate-call'), 'duplicate-call')
    let threw = false
    try {
      sanitizer.endText()
    } catch (error) {
      threw = error instanceof TypeError
    }
    assert(threw, 'endText after end() is a TypeError')
  })
})
