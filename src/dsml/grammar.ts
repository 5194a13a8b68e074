/**
 * The DSML grammar: every character class, literal and name the engine knows,
 * and the questions other layers ask about them. Nothing else in `src/` lists
 * a bar, a tag name or a special token; it asks this file.
 *
 * Canonical shape (DeepSeek V3.2 / V4 encoders; V4.1 writes a space before
 * each tag name):
 *
 * ```
 * <‹DSML›tool_calls>
 * <‹DSML›invoke name="TOOL">
 * <‹DSML›parameter name="KEY" string="true">RAW</‹DSML›parameter>
 * <‹DSML›parameter name="KEY" string="false">JSON</‹DSML›parameter>
 * </‹DSML›invoke>
 * </‹DSML›tool_calls>
 * ```
 *
 * `‹DSML›` is a bar, the word `DSML`, a bar. Docs never write the live bytes.
 * @see https://huggingface.co/deepseek-ai/DeepSeek-V3.2 (encoding/encoding_dsv32.py)
 */

import { WordSet } from './word-set.ts'

// ── characters ────────────────────────────────────────────────────────────

export const LESS_THAN = 0x3c // "<"
export const GREATER_THAN = 0x3e // ">"
export const SLASH = 0x2f // "/"
export const EQUALS = 0x3d // "="
export const SPACE = 0x20 // " "
export const TAB = 0x09 // "\t"
export const LINE_FEED = 0x0a // "\n"
export const CARRIAGE_RETURN = 0x0d // "\r"
export const QUOTATION_MARK = 0x22 // '"'
export const APOSTROPHE = 0x27 // "'"
export const LEFT_DOUBLE_QUOTATION_MARK = 0x201c // "“"
export const RIGHT_DOUBLE_QUOTATION_MARK = 0x201d // "”"
export const UNDERSCORE = 0x5f // "_"
export const LATIN_CAPITAL_D = 0x44 // "D", the first letter of the marker word
/** "▁", the word separator of DeepSeek's special tokens. */
export const LOWER_ONE_EIGHTH_BLOCK = 0x2581

/** Bars seen in markers: ASCII `|`, full-width U+FF5C (canonical), `‖`, and box-drawing `│`. */
export const BARS = '|\uFF5C\u2016\u2502'
/** The characters a tag may start with: `<`, or a bar (a fragment that lost its `<`). */
export const TAG_START_CHARACTERS: readonly string[] = ['<', ...BARS]
/** The bar DeepSeek's encoders write (docs show it as `‹` and `›`). */
export const CANONICAL_BAR = '\uFF5C'
const ASCII_BAR = 0x7c
const FULLWIDTH_BAR = 0xff5c
const DOUBLE_VERTICAL_LINE = 0x2016
const BOX_DRAWINGS_LIGHT_VERTICAL = 0x2502

export function isBar(code: number): boolean {
  return code === ASCII_BAR || code === FULLWIDTH_BAR || code === DOUBLE_VERTICAL_LINE || code === BOX_DRAWINGS_LIGHT_VERTICAL
}

/**
 * Bars that never sit next to the word `DSML` in prose: full-width and `‖`.
 * A fragment in these bars that lost its `<` is markup wherever it stands,
 * with a bar lost or drifted spacing (`‹DSML ›invoke`, `‹DSMLtool_use>`; up
 * to `MAX_MARKER_SPACES` in each gap, as every marker). ASCII `|` and `│`
 * also draw tables and trees (`| DSML |` is a Markdown table cell), so such
 * drifted fragments in them are read only inside an open block.
 */
export function isMarkupOnlyBar(code: number): boolean {
  return code === FULLWIDTH_BAR || code === DOUBLE_VERTICAL_LINE
}

/** Spaces allowed inside a marker (`< | DSML | tool_calls>`): space and tab, never a line break. */
export function isMarkerSpace(code: number): boolean {
  return code === SPACE || code === TAB
}

export function isLineBreak(code: number): boolean {
  return code === LINE_FEED || code === CARRIAGE_RETURN
}

/** Space, tab or a line break. */
export function isWhitespace(code: number): boolean {
  return code === SPACE || code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN
}

/** Is `text` from `start` to `end` whitespace only (`isWhitespace`)? */
export function isBlank(text: string, start = 0, end = text.length): boolean {
  for (let index = start; index < end; index++) if (!isWhitespace(text.charCodeAt(index))) return false
  return true
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)
}

/** Characters of a tag name: letters, digits, `_`, `-`, `.`, `:`. */
export function isTagNameCharacter(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === UNDERSCORE || code === 0x2d || code === 0x2e || code === 0x3a
}

/** A character a tag name or an attribute name may start with. */
export function isNameStart(code: number): boolean {
  return isAsciiLetter(code) || code === UNDERSCORE
}

/** Characters of a plain XML element name (`<url>`, `<budgetTokens>`): letters, digits, `_`, `-`, `.`. */
export function isElementNameCharacter(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === UNDERSCORE || code === 0x2d || code === 0x2e
}

/** A character that may open a quoted attribute value, and the one that closes it. */
export function closingQuoteOf(code: number): number {
  if (code === QUOTATION_MARK || code === APOSTROPHE) return code
  if (code === LEFT_DOUBLE_QUOTATION_MARK) return RIGHT_DOUBLE_QUOTATION_MARK
  return -1
}

// ── the marker ────────────────────────────────────────────────────────────

export const MARKER_WORD = 'DSML'
/** Bars on each side of the word `DSML`. */
export const MAX_MARKER_BARS = 2
/** Bars before an inner tag name written without the word (`<‹‹›invoke`). */
export const MAX_WORDLESS_BARS = 4
/** Spaces allowed in each gap of a marker. */
export const MAX_MARKER_SPACES = 4
export const MAX_TAG_NAME_LENGTH = 64
/** Slashes a closer may carry, spaces between them (`</ / | DSML | parameter>`). */
export const MAX_CLOSER_SLASHES = 2
/**
 * Longest marker word read in the word's place inside an open block: a block
 * that opened as `<‹‹DSML›› calls>` and goes on with `</|EPSE|parameter>` has
 * drifted its marker, and the word between the bars (before a known tag name)
 * is read as the block's marker.
 */
export const MAX_DRIFTED_WORD_LENGTH = 8
export const MAX_ATTRIBUTE_NAME_LENGTH = 32
/** The shortest tag the lexer reads whole: room for the longest special token spelling. */
export const MIN_TAG_CHARS = 32

// ── names ─────────────────────────────────────────────────────────────────

/** Block names: V3.2, V4, V4.1 (written with a leading space) and seen variants. */
export const BLOCK_NAMES: readonly string[] = [
  'function_calls',
  'tool_calls',
  'calls',
  'tool_call',
  'toolcalls',
  'toolcall',
  'tool_use',
  'function_call',
  'function',
]
/** Letters a drifted block name keeps of DeepSeek's own: its first four. */
const DRIFTED_BLOCK_NAME_PREFIX = 4
const BLOCK_NAME_PREFIXES = new Set(BLOCK_NAMES.map((name) => name.slice(0, DRIFTED_BLOCK_NAME_PREFIX)))

/**
 * A name under a marker that is no known name but begins as a block name
 * does (`tool_cals`, `tool_cimport`, `function_cals`): a block name that
 * drifted (quantised V4 Flash drops and swaps letters of `tool_calls`).
 */
export function isDriftedBlockName(name: string): boolean {
  return name.length > DRIFTED_BLOCK_NAME_PREFIX && BLOCK_NAME_PREFIXES.has(name.slice(0, DRIFTED_BLOCK_NAME_PREFIX).toLowerCase())
}

/** `tool name="x"` is seen as an invoke spelling. */
export const INVOKE_NAMES: readonly string[] = ['invoke', 'tool']
export const PARAMETER_NAMES: readonly string[] = ['parameter']
/** Every name an inner or outer DSML tag may carry (matched ignoring case). */
export const KNOWN_NAMES: readonly string[] = [...INVOKE_NAMES, ...PARAMETER_NAMES, ...BLOCK_NAMES]

/**
 * Tags read with no marker at all, where the context allows them. DeepSeek
 * writes them in lower case, and only that spelling is read: so a text can be
 * cleared of them by a few substring searches (`couldOpenMarkup`). The words
 * hold tag-name characters only (no `<`, bar, space or `>`), so a name is read
 * as a run of them (`NameReader.run`); what stops the run, the lexer decides.
 */
export const MARKERLESS_OPENER_NAMES: readonly string[] = ['invoke', 'parameter', 'tool_calls', 'function_calls', 'tool_call', 'function_call', 'function', 'calls']
export const MARKERLESS_CLOSER_NAMES: readonly string[] = ['invoke', 'parameter', ...BLOCK_NAMES]
/**
 * Markerless openers read only bare, `>` right after the name: `<function>`
 * (JSON-in-tag and element-style calls), `<calls>`. The words are everywhere
 * in talk about code, so a text is searched for `ction>`, not for every
 * "function"; `<calls>` is looked for back from a marked tag
 * (`lostMarkerOpenerBefore`, in `markup-starts.ts`).
 */
export const BARE_MARKERLESS_OPENERS: readonly string[] = ['function', 'calls']
/**
 * Markerless openers that may have spaces after their `<`: V4.1's block
 * opener `<‹DSML› calls>` that lost its marker reads `< calls>` (or
 * `<calls>`). The structure layer reads it only as such: at the start of a
 * line, directly before a marked tag (`isMarkerLostOpener`).
 */
export const SPACED_MARKERLESS_OPENERS: readonly string[] = ['calls']

/** A markerless block opener that is V4.1's opener with its marker lost (`SPACED_MARKERLESS_OPENERS`). */
export function isMarkerLostOpener(name: string): boolean {
  return SPACED_MARKERLESS_OPENERS.includes(name)
}

/** May a markerless opener with this name (a whole word of `MARKERLESS_OPENER_SET`) be followed by `code`? */
export function canEndMarkerlessOpenerName(mask: number, length: number, code: number): boolean {
  const index = MARKERLESS_OPENER_SET.matched(mask, length)
  return index === -1 || !BARE_MARKERLESS_OPENERS.includes(MARKERLESS_OPENER_NAMES[index]!) || code === GREATER_THAN
}

/**
 * The compact form (seen from V4 Flash in an agent's evaluation logs):
 * `<‹‹DSML››r=NAME>` (or `func=NAME`) opens an invoke of NAME,
 * `<‹‹DSML››m>VALUE</‹‹DSML››m>` holds its one argument, unnamed, and
 * `</‹‹DSML››r>` closes it. Read only after the word `DSML`, and only where
 * the name means nothing else: `</‹‹DSML››func>` is a cut-short block closer
 * (`nameKind`), which ends the invoke before it all the same.
 */
export const COMPACT_NAMES: readonly string[] = ['r', 'func', 'm']
const COMPACT_KINDS: readonly TagKind[] = ['invoke', 'invoke', 'parameter']

/** The attributes a tag's meaning depends on (matched ignoring case); any other is read past. */
export const ATTRIBUTE_NAMES: readonly string[] = ['name', 'string', 'value']
export const NAME_ATTRIBUTE = 0
export const STRING_ATTRIBUTE = 1
export const VALUE_ATTRIBUTE = 2

/**
 * What a DeepSeek special token means. `call-begin` … `separator` frame a
 * tool call in the pre-DSML format (V3, R1, V3.1); the others mark a turn or
 * a tool's output and are only removed.
 */
export type SpecialToken = 'other' | 'calls-begin' | 'calls-end' | 'call-begin' | 'call-end' | 'separator'

/** DeepSeek special tokens that leak into text, normalised (separators → space, lower case), and what each means. */
const SPECIAL_TOKEN_MEANINGS: ReadonlyArray<readonly [string, SpecialToken]> = [
  ['end of sentence', 'other'],
  ['begin of sentence', 'other'],
  ['end of thinking', 'other'],
  ['tool calls begin', 'calls-begin'],
  ['tool calls end', 'calls-end'],
  ['tool call begin', 'call-begin'],
  ['tool call end', 'call-end'],
  ['tool sep', 'separator'],
  ['tool outputs begin', 'other'],
  ['tool outputs end', 'other'],
  ['tool output begin', 'other'],
  ['tool output end', 'other'],
]
export const SPECIAL_TOKENS: readonly string[] = SPECIAL_TOKEN_MEANINGS.map(([token]) => token)

/** A special token's word separator: `▁`, `_` or a space. */
export function isSpecialTokenSeparator(code: number): boolean {
  return code === LOWER_ONE_EIGHTH_BLOCK || code === UNDERSCORE || code === SPACE
}

function lowerCase(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code
}

function specialTokenFold(code: number): number {
  return isSpecialTokenSeparator(code) ? SPACE : lowerCase(code)
}

/** Known tag names, ignoring case. */
export const KNOWN_NAME_SET = new WordSet(KNOWN_NAMES, lowerCase)
export const MARKERLESS_OPENER_SET = new WordSet(MARKERLESS_OPENER_NAMES)
/** The words of `MARKERLESS_OPENER_SET` that may follow `<` and spaces. */
export const SPACED_OPENER_MASK = SPACED_MARKERLESS_OPENERS.reduce((mask, name) => mask | (1 << MARKERLESS_OPENER_NAMES.indexOf(name)), 0)
export const MARKERLESS_CLOSER_SET = new WordSet(MARKERLESS_CLOSER_NAMES)
export const SPECIAL_TOKEN_SET = new WordSet(SPECIAL_TOKENS, specialTokenFold)

/** The meaning of the special token a lexer's mask ended on. */
export function specialTokenOf(mask: number, length: number): SpecialToken {
  const index = SPECIAL_TOKEN_SET.matched(mask, length)
  return index === -1 ? 'other' : SPECIAL_TOKEN_MEANINGS[index]![1]
}
export const ATTRIBUTE_NAME_SET = new WordSet(ATTRIBUTE_NAMES, lowerCase)
export const COMPACT_NAME_SET = new WordSet(COMPACT_NAMES, lowerCase)

/** What a compact name means (`COMPACT_NAMES`), from the set's mask of a whole name; undefined for any other name. */
export function compactKind(mask: number, length: number): TagKind | undefined {
  const index = COMPACT_NAME_SET.matched(mask, length)
  return index === -1 ? undefined : COMPACT_KINDS[index]
}

// ── values ────────────────────────────────────────────────────────────────

/** Entities decoded in parameter values (V22); anything else stays as written. */
export const ENTITIES: Readonly<Record<string, string>> = Object.freeze({
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
})

/**
 * A whole parameter value may be wrapped in a CDATA section (some adapters
 * teach it in their prompts): the wrapper goes, its content is the value, verbatim.
 */
export const CDATA_OPEN = '<![CDATA['
export const CDATA_CLOSE = ']]>'

/** A fenced-JSON call (`Read` then a ```` ```json ```` fence) in a lone block: the fence and its info string. */
export const FENCE = '```'
export const FENCED_JSON_INFO = 'json'

/**
 * Where a tool name rides when no invoke opener carries it: a parameter of
 * this name (`<parameter name="name">bash</‹DSML›parameter>`), or an element
 * of this name before the arguments (`<function><name>bash</name>…`).
 */
export const TOOL_NAME_CARRIER = 'name'

/** Element names (under a marker, any case) whose text names the tool of the arguments after them: `<‹DSML›ToolName>bash</‹DSML›ToolName>`. */
const TOOL_NAME_ELEMENTS: readonly string[] = [TOOL_NAME_CARRIER, 'toolname', 'tool_name']

export function isToolNameElement(name: string): boolean {
  return TOOL_NAME_ELEMENTS.includes(name.toLowerCase())
}

/** Keys a model wraps a call's arguments in (an object, or a JSON string of one): JSON-in-tag calls, and a lone wrapping argument. */
export const ARGUMENT_WRAPPER_KEYS: readonly string[] = ['arguments', 'parameters', 'input']

/** DeepSeek's pre-DSML call type, written before `‹tool▁sep›` in V3 and R1 (`function‹tool▁sep›NAME`). */
export const SPECIAL_CALL_TYPE = 'function'

// ── meanings ──────────────────────────────────────────────────────────────

export type TagKind = 'block' | 'invoke' | 'parameter' | 'empty' | 'unknown'

/** The kind of each of `KNOWN_NAMES`, in order. */
const KNOWN_NAME_KINDS: readonly TagKind[] = KNOWN_NAMES.map((name) =>
  INVOKE_NAMES.includes(name) ? 'invoke' : PARAMETER_NAMES.includes(name) ? 'parameter' : 'block',
)
const INVOKE_BIT = 1 << KNOWN_NAMES.indexOf('invoke')
const PARAMETER_BIT = 1 << KNOWN_NAMES.indexOf('parameter')
let blockBits = 0
for (const name of BLOCK_NAMES) blockBits |= 1 << KNOWN_NAMES.indexOf(name)
const BLOCK_BITS = blockBits

/**
 * Meaning of a tag name read `length` characters long, given the known names
 * it still matches (`KNOWN_NAME_SET`). Openers must match a name exactly.
 * Quantised models truncate closers (`</‹DSML›inv>`), so for a closer a
 * prefix of a known name counts: at least 2 characters for invoke, 3 for
 * parameter and 4 for a block name.
 */
export function nameKind(mask: number, length: number, closing: boolean): TagKind {
  if (length === 0) return 'empty'
  const exact = KNOWN_NAME_SET.matched(mask, length)
  if (exact !== -1) return KNOWN_NAME_KINDS[exact]!
  if (!closing) return 'unknown'
  if (length >= 2 && (mask & INVOKE_BIT) !== 0) return 'invoke'
  if (length >= 3 && (mask & PARAMETER_BIT) !== 0) return 'parameter'
  if (length >= 4 && (mask & BLOCK_BITS) !== 0) return 'block'
  return 'unknown'
}

/** The known names a whole name still matches (ignoring case). */
function knownMaskOf(name: string): number {
  let mask = KNOWN_NAME_SET.all
  for (let index = 0; index < name.length && mask !== 0; index++) mask = KNOWN_NAME_SET.step(mask, index, name.charCodeAt(index))
  return mask
}

const MARKERLESS_KNOWN_MASKS = new Map([MARKERLESS_OPENER_SET, MARKERLESS_CLOSER_SET].map((set) => [set, set.words.map(knownMaskOf)]))

/** The known names the markerless word `index` of `set` matches: what stepping its characters gives (those sets fold nothing). */
export function knownMaskOfMarkerless(set: WordSet, index: number): number {
  return MARKERLESS_KNOWN_MASKS.get(set)![index]!
}

/** Meaning of an opener's name (exact, case-insensitive). */
export function classifyOpenerName(name: string): TagKind {
  return nameKind(knownMaskOf(name), name.length, false)
}

/** Meaning of a closer's name: exact, or a long enough prefix of a known name (see `nameKind`). */
export function classifyCloserName(name: string): TagKind {
  return nameKind(knownMaskOf(name), name.length, true)
}

/** A usable tool name: 1–128 of letters, digits, `_ - . :` (identifier-like). */
export function isToolName(name: string): boolean {
  if (name.length === 0 || name.length > 128) return false
  for (let index = 0; index < name.length; index++) {
    if (!isTagNameCharacter(name.charCodeAt(index))) return false
  }
  return true
}

/** `string="false"` asks for a JSON value; anything else (or nothing) for the raw text. */
export function asksForJson(stringAttribute: string | undefined): boolean {
  return stringAttribute?.trim().toLowerCase() === 'false'
}

/** `string="true"` or `string="false"`: a flag, not a value (self-closing parameters). */
export function isStringFlag(stringAttribute: string | undefined): boolean {
  const flag = stringAttribute?.trim().toLowerCase()
  return flag === 'true' || flag === 'false'
}
