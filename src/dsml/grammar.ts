/**
 * DSML grammar facts, as data. Every literal the lexer and the structure layer
 * know lives here.
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
export const BACKTICK = 0x60 // "`"
export const LOWER_ONE_EIGHTH_BLOCK = 0x2581 // "▁", the separator in DeepSeek's special tokens

/** Bars seen in markers: ASCII `|`, full-width `｜` (canonical), `‖`, and box-drawing `│`. */
export const ASCII_BAR = 0x7c
export const FULLWIDTH_BAR = 0xff5c
export const DOUBLE_VERTICAL_LINE = 0x2016
export const BOX_DRAWINGS_LIGHT_VERTICAL = 0x2502

export function isBar(code: number): boolean {
  return code === FULLWIDTH_BAR || code === ASCII_BAR || code === DOUBLE_VERTICAL_LINE || code === BOX_DRAWINGS_LIGHT_VERTICAL
}

/** Spaces allowed inside a marker (`< | DSML | tool_calls>`): space and tab, never a line break. */
export function isMarkerSpace(code: number): boolean {
  return code === SPACE || code === TAB
}

export function isLineBreak(code: number): boolean {
  return code === LINE_FEED || code === CARRIAGE_RETURN
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)
}

/** Characters of a tag name: letters, digits, `_`, `-`, `.`, `:`. */
export function isTagNameCharacter(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d || code === 0x2e || code === 0x3a
}

export const MARKER_WORD = 'DSML'
/** Bars on each side of the word `DSML`. */
export const MAX_MARKER_BARS = 2
/** Bars before an inner tag name written without the word (`<‹‹›invoke`). */
export const MAX_WORDLESS_BARS = 4
/** Spaces allowed in each gap of a marker. */
export const MAX_MARKER_SPACES = 4
export const MAX_TAG_NAME_LENGTH = 64
export const MAX_ATTRIBUTE_NAME_LENGTH = 32

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
]
/** `tool name="x"` is seen as an invoke spelling. */
export const INVOKE_NAMES: readonly string[] = ['invoke', 'tool']
export const PARAMETER_NAMES: readonly string[] = ['parameter']

/** Tags accepted with no marker at all, where the context allows them. */
export const MARKERLESS_OPENER_NAMES: readonly string[] = ['invoke', 'parameter', 'tool_calls', 'function_calls']
export const MARKERLESS_CLOSER_NAMES: readonly string[] = ['invoke', 'parameter', ...BLOCK_NAMES]

/** DeepSeek special tokens that leak into text, normalised (separators → space, lower case). */
export const SPECIAL_TOKENS: readonly string[] = ['end of sentence', 'begin of sentence', 'end of thinking']

export type TagKind = 'block' | 'invoke' | 'parameter' | 'empty' | 'unknown' | 'special'

/** Meaning of an opener's name (exact, case-insensitive). */
export function classifyOpenerName(name: string): TagKind {
  const lower = name.toLowerCase()
  if (lower === '') return 'empty'
  if (INVOKE_NAMES.includes(lower)) return 'invoke'
  if (PARAMETER_NAMES.includes(lower)) return 'parameter'
  if (BLOCK_NAMES.includes(lower)) return 'block'
  return 'unknown'
}

/**
 * Meaning of a closer's name. Quantised models truncate closers
 * (`</‹DSML›inv>`), so a prefix of a known name counts: at least 2 characters
 * for invoke, 3 for parameter and 4 for a block name.
 */
export function classifyCloserName(name: string): TagKind {
  const lower = name.toLowerCase()
  const exact = classifyOpenerName(lower)
  if (exact !== 'unknown') return exact
  if (lower.length >= 2 && 'invoke'.startsWith(lower)) return 'invoke'
  if (lower.length >= 3 && 'parameter'.startsWith(lower)) return 'parameter'
  if (lower.length >= 4 && BLOCK_NAMES.some((block) => block.startsWith(lower))) return 'block'
  return 'unknown'
}

export function isKnownNamePrefix(lowerName: string): boolean {
  return (
    INVOKE_NAMES.some((name) => name.startsWith(lowerName)) ||
    PARAMETER_NAMES.some((name) => name.startsWith(lowerName)) ||
    BLOCK_NAMES.some((name) => name.startsWith(lowerName))
  )
}

export function isSpecialTokenPrefix(normalized: string): boolean {
  return SPECIAL_TOKENS.some((token) => token.startsWith(normalized))
}

export function isSpecialToken(normalized: string): boolean {
  return SPECIAL_TOKENS.includes(normalized)
}

/** A usable tool name: 1–128 of letters, digits, `_ - . :` (identifier-like, DESIGN.md §5.1). */
export function isToolName(name: string): boolean {
  if (name.length === 0 || name.length > 128) return false
  for (let index = 0; index < name.length; index++) {
    if (!isTagNameCharacter(name.charCodeAt(index))) return false
  }
  return true
}
