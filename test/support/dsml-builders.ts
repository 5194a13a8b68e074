/**
 * Builders for DSML test inputs. Every marker byte is produced here at run
 * time from escapes, so no test source (and no doc) ever holds a live marker
 * that a greedy extractor could turn into a phantom call.
 *
 *   block([invoke('bash', [param('command', 'ls -la')])])
 *
 * builds the canonical V4 block with single full-width bars and real newlines
 * between tags, exactly as DeepSeek writes it. `dialect(style)` returns the
 * same builders bound to another spelling (doubled bars, ASCII pipes, V4.1
 * spaced tags, barred inner tags without the word DSML, no marker at all).
 */

/** U+FF5C FULLWIDTH VERTICAL LINE: the canonical bar. */
export const FW_BAR = '\uFF5C'
/** U+2016 DOUBLE VERTICAL LINE. */
export const DOUBLE_BAR = '\u2016'
/** U+2502 BOX DRAWINGS LIGHT VERTICAL. */
export const BOX_BAR = '\u2502'
/** ASCII pipe. */
export const ASCII_BAR = '|'
/** U+2581 LOWER ONE EIGHTH BLOCK, the word separator of the end-of-sentence token. */
export const LOWER_BLOCK = '\u2581'
/** The word of the marker, kept apart so it never sits next to a bar in source. */
export const WORD = 'DSML'

export interface MarkerStyle {
  /** One bar character, or the exact bar run for one side (e.g. `'\u2016\uFF5C'` for mixed). Default U+FF5C. */
  bar?: string
  /** How many times `bar` is repeated per side. Default 1. */
  bars?: 1 | 2
  /** Bar run on the right side, when it differs from the left (mixed markers). */
  rightBar?: string
  /** Spaces inside the marker, around each bar run and the word (cherry-14714 shape). */
  spaced?: boolean
  /** The word between the bars; `''` gives barred tags without the word (`<\uFF5C\uFF5Cinvoke>`). Default `DSML`. */
  word?: string
  /** A space between the bars of a doubled run (`| |`). */
  barSpaces?: boolean
}

export interface Style extends MarkerStyle {
  /** `false`: plain XML tags with no marker at all. Default true. */
  marker?: boolean
  /** V4.1: one space between the marker and the tag name (`<‹DSML› invoke ...>`). */
  tagSpace?: boolean
  /** Closers written with a space between `<` and `/` (`< / | DSML | parameter>`). */
  closerSpace?: boolean
}

/** The part between `<` (or `</`) and the tag name, e.g. U+FF5C + 'DSML' + U+FF5C. */
export function marker(style: MarkerStyle = {}): string {
  const count = style.bars ?? 1
  const left = Array.from({ length: count }, () => style.bar ?? FW_BAR).join(style.barSpaces ? ' ' : '')
  const right = style.rightBar ?? left
  const word = style.word ?? WORD
  const pad = style.spaced ? ' ' : ''
  if (word === '') return `${pad}${left}${right}${pad}`
  return `${pad}${left}${pad}${word}${pad}${right}${pad}`
}

/** Attributes: an object (rendered ` k="v"` in order, `null`/`undefined` skipped) or a raw string (used verbatim, include the leading space). */
export type Attrs = Record<string, string | null | undefined> | string

function renderAttrs(attrs: Attrs | undefined): string {
  if (attrs === undefined) return ''
  if (typeof attrs === 'string') return attrs
  let out = ''
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue
    out += ` ${key}="${value}"`
  }
  return out
}

function prefix(style: Style): string {
  if (style.marker === false) return ''
  return marker(style) + (style.tagSpace ? ' ' : '')
}

export interface ParamOptions {
  /** The `string` attribute: `'true'` (default), `'false'`, or `null` for none. */
  string?: 'true' | 'false' | null
  /** `false`: this parameter's tags carry no marker. A string: this exact marker text for both tags. */
  marker?: boolean | string
  /** Omit the closer entirely (a loose parameter). */
  noCloser?: boolean
  /** Use this exact closer instead of the style's `</‹DSML›parameter>`. */
  closer?: string
}

export interface BlockOptions {
  /** Block tag name. Default `tool_calls`. */
  name?: string
  /** Closer tag name, when it should differ from the opener's (mismatched block). */
  closeName?: string
  /** Omit the block closer (V15). */
  noCloser?: boolean
}

export interface InvokeOptions {
  /** Tag name. Default `invoke` (`tool` is an alias). */
  tag?: string
  /** Raw attribute text instead of ` name="NAME"` (include the leading space). */
  rawAttrs?: string
  /** Omit the invoke closer (V16). */
  noCloser?: boolean
  /** Use this exact closer instead of `</‹DSML›invoke>`. */
  closer?: string
  /** Raw body instead of the parameters (V25 raw JSON body). */
  body?: string
}

export interface Dialect {
  style: Style
  marker(): string
  open(tag: string, attrs?: Attrs): string
  close(tag: string): string
  param(name: string, value: string, options?: ParamOptions): string
  invoke(name: string, params: readonly string[], options?: InvokeOptions): string
  block(invokes: readonly string[], options?: BlockOptions): string
}

/** Builders bound to one spelling of the markup. */
export function dialect(style: Style = {}): Dialect {
  const open = (tag: string, attrs?: Attrs): string => `<${prefix(style)}${tag}${renderAttrs(attrs)}>`
  const close = (tag: string): string => `<${style.closerSpace ? ' ' : ''}/${prefix(style)}${tag}>`
  const param = (name: string, value: string, options: ParamOptions = {}): string => {
    const string = options.string === undefined ? 'true' : options.string
    const attrs = renderAttrs({ name, string })
    let opener: string
    let closer: string
    if (options.marker === false) {
      opener = `<parameter${attrs}>`
      closer = '</parameter>'
    } else if (typeof options.marker === 'string') {
      opener = `<${options.marker}parameter${attrs}>`
      closer = `<${style.closerSpace ? ' ' : ''}/${options.marker}parameter>`
    } else {
      opener = open('parameter', attrs)
      closer = close('parameter')
    }
    if (options.closer !== undefined) closer = options.closer
    if (options.noCloser) closer = ''
    return opener + value + closer
  }
  const invoke = (name: string, params: readonly string[], options: InvokeOptions = {}): string => {
    const tag = options.tag ?? 'invoke'
    const opener = open(tag, options.rawAttrs ?? renderAttrs({ name }))
    const body = options.body ?? params.map((p) => `${p}\n`).join('')
    const closer = options.noCloser ? '' : (options.closer ?? close(tag))
    return `${opener}\n${body}${closer}`
  }
  const block = (invokes: readonly string[], options: BlockOptions = {}): string => {
    const name = options.name ?? 'tool_calls'
    const body = invokes.map((i) => `${i}\n`).join('')
    const closer = options.noCloser ? '' : close(options.closeName ?? name)
    return `${open(name)}\n${body}${closer}`
  }
  return { style, marker: () => marker(style), open, close, param, invoke, block }
}

/** The canonical V4 spelling: single U+FF5C bars, no spaces. */
export const canonical: Dialect = dialect()
export const { open, close, param, invoke, block } = canonical

/** End-of-sentence token spellings seen in leaks. */
export type EosVariant = 'canonical' | 'spaces' | 'underscores' | 'doubled' | 'ascii'

/** The end-of-sentence token (bars, then end/of/sentence joined by U+2581) and its corrupted spellings. */
export function eos(variant: EosVariant = 'canonical'): string {
  switch (variant) {
    case 'canonical':
      return `<${FW_BAR}end${LOWER_BLOCK}of${LOWER_BLOCK}sentence${FW_BAR}>`
    case 'spaces':
      return `<${FW_BAR}end of sentence${FW_BAR}>`
    case 'underscores':
      return `<${FW_BAR}end_of_sentence${FW_BAR}>`
    case 'doubled':
      return `<${FW_BAR}${FW_BAR}end${LOWER_BLOCK}of${LOWER_BLOCK}sentence${FW_BAR}${FW_BAR}>`
    case 'ascii':
      return `<|end${LOWER_BLOCK}of${LOWER_BLOCK}sentence|>`
  }
}

export const EOS_VARIANTS: readonly EosVariant[] = ['canonical', 'spaces', 'underscores', 'doubled', 'ascii']

const LEAK_PATTERN = new RegExp(
  `[${FW_BAR}${DOUBLE_BAR}${BOX_BAR}|]\\s*${WORD}|${WORD}\\s*[${FW_BAR}${DOUBLE_BAR}${BOX_BAR}|]|end[${LOWER_BLOCK}_ ]of[${LOWER_BLOCK}_ ]sentence`,
)

/**
 * Independent oracle (does not trust the engine's `containsDsmlSentinel`):
 * whether `text` still holds a DSML marker or an end-of-sentence token.
 */
export function leaksMarkup(text: string): boolean {
  return LEAK_PATTERN.test(text)
}

/** Whether `text` holds any bar character the grammar treats as a marker bar. */
export function hasBarChar(text: string): boolean {
  return /[\uFF5C\u2016\u2502|]/.test(text)
}

/**
 * Token-like chunks, as a model streams them: runs of up to four letters or
 * digits, single spaces/newlines, and every other character alone (so a marker
 * arrives as `<`, bar, `DSML`, bar, `tool`, `_`, `call`, `s`, `>`). Never
 * splits a surrogate pair.
 */
export function tokenChunks(text: string): string[] {
  const chunks: string[] = []
  for (const match of text.matchAll(/[\p{L}\p{N}]{1,4}|\s|[\s\S]/gu)) chunks.push(match[0])
  return chunks
}

/** Deterministic pseudo-random chunks of 1 to `max` code points (seeded). */
export function randomChunks(text: string, seed = 1, max = 7): string[] {
  const points = Array.from(text)
  const chunks: string[] = []
  let state = seed >>> 0 || 1
  let index = 0
  while (index < points.length) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    const size = 1 + ((state >>> 16) % max)
    chunks.push(points.slice(index, index + size).join(''))
    index += size
  }
  return chunks
}
