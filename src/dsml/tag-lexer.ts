/**
 * The DSML tag lexer: reads one tag, a character at a time, and says as early
 * as it can whether the characters seen so far can still be markup.
 *
 * It knows spellings, not structure: which tags nest where is the sanitizer's
 * business (`sanitizer.ts`). Each character is examined once; a rejected tag
 * costs at most the few characters read before the rejection.
 *
 * Shapes read (bars are any of `|`, `｜`, `‖`, `│`):
 * - `<` `/`? spaces? bars(1–2) spaces? `DSML` spaces? bars(0–2) spaces? name attributes `/`? `>`
 * - `<` `/`? bars(1–4) name …           an inner tag with bars but no word
 * - `<` bars special-token bars `>`     `<｜end▁of▁sentence｜>` and its spellings
 * - `<` `/`? name …                     markerless, only for names the context allows
 * - bars(1–2) `DSML` bars(1–2) name? …  a fragment that lost its `<`
 *
 * A markered tag may lose its `>`: it then ends at a line break or at the next `<`.
 */
import {
  APOSTROPHE,
  EQUALS,
  GREATER_THAN,
  isAsciiLetter,
  isBar,
  isKnownNamePrefix,
  isLineBreak,
  isMarkerSpace,
  isSpecialToken,
  isSpecialTokenPrefix,
  isTagNameCharacter,
  LEFT_DOUBLE_QUOTATION_MARK,
  LESS_THAN,
  LOWER_ONE_EIGHTH_BLOCK,
  MARKER_WORD,
  MARKERLESS_CLOSER_NAMES,
  MARKERLESS_OPENER_NAMES,
  MAX_ATTRIBUTE_NAME_LENGTH,
  MAX_MARKER_BARS,
  MAX_MARKER_SPACES,
  MAX_TAG_NAME_LENGTH,
  MAX_WORDLESS_BARS,
  QUOTATION_MARK,
  RIGHT_DOUBLE_QUOTATION_MARK,
  SLASH,
  SPACE,
} from './grammar.ts'

/** The character was consumed; the tag goes on. */
export const STEP_CONTINUE = 0
/** The character was not consumed; what was read is not markup. */
export const STEP_REJECT = 1
/** The character was consumed and completed the tag. */
export const STEP_COMPLETE = 2
/** The character was not consumed; the tag ended before it (no `>`, or too long). */
export const STEP_COMPLETE_BEFORE = 3

export type StepResult = typeof STEP_CONTINUE | typeof STEP_REJECT | typeof STEP_COMPLETE | typeof STEP_COMPLETE_BEFORE

export type MarkerKind = 'none' | 'bars' | 'dsml'

/** What the lexer read. */
export interface LexedTag {
  closing: boolean
  marker: MarkerKind
  /** Began with a bar: a marker that lost its `<`. */
  fragment: boolean
  /** A DeepSeek special token such as end-of-sentence. */
  special: boolean
  name: string
  nameAttribute: string | undefined
  stringAttribute: string | undefined
  valueAttribute: string | undefined
  selfClosing: boolean
  /** Saw its `>`. */
  terminated: boolean
  /** An unterminated quote at end of input, or longer than the tag cap. */
  broken: boolean
  /**
   * How many of the characters read belong to the tag. Less than all of them
   * only for a fragment followed by a word that is not a tag name: the
   * sanitizer reads the rest again as text.
   */
  length: number
}

type State =
  | 'after-less-than'
  | 'after-slash'
  | 'space-before-bars'
  | 'opening-bars'
  | 'space-before-word'
  | 'word'
  | 'after-word'
  | 'closing-bars'
  | 'space-before-name'
  | 'name'
  | 'special-bars'
  | 'attributes'
  | 'attribute-name'
  | 'after-attribute-name'
  | 'before-attribute-value'
  | 'quoted-attribute-value'
  | 'bare-attribute-value'
  | 'self-closing'

export interface TagLexerContext {
  /** Markerless openers (`<invoke`, `<parameter`, `<tool_calls`) may be read. */
  markerlessOpeners: boolean
  /** Markerless closers (`</invoke>`, `</parameter>`, block closers) may be read. */
  markerlessClosers: boolean
}

export interface TagLexer {
  /** Starts a tag at `<` (`fragment` false) or at a bar (`fragment` true). */
  begin(fragment: boolean, context: TagLexerContext): void
  step(code: number): StepResult
  /** End of input inside the tag. */
  finish(): typeof STEP_REJECT | typeof STEP_COMPLETE_BEFORE
  /** Characters read so far. */
  readonly length: number
  /** The word `DSML` (or, for a fragment, its closing bar) was read: this is markup. */
  readonly markerSeen: boolean
  /** The result, after a completing step. */
  tag(): LexedTag
  /** Changes which markerless names are allowed (when the surrounding candidate is released). */
  setContext(context: TagLexerContext): void
}

export function createTagLexer(maxTagChars: number): TagLexer {
  let state: State = 'after-less-than'
  let length = 0
  let context: TagLexerContext = { markerlessOpeners: false, markerlessClosers: false }
  let closing = false
  let fragment = false
  let marker: MarkerKind = 'none'
  let markerSeen = false
  let bars = 0
  let spaces = 0
  let wordIndex = 0
  let name = ''
  /** Lower-cased name with special-token separators read as spaces. */
  let normalizedName = ''
  let special = false
  let attributeName = ''
  let attributeValue = ''
  let closingQuote = 0
  let nameAttribute: string | undefined
  let stringAttribute: string | undefined
  let valueAttribute: string | undefined
  let selfClosing = false
  let terminated = false
  let broken = false
  /** For fragments: the length after the marker's closing bars. */
  let markerEnd = 0
  let result: LexedTag | undefined

  function begin(isFragment: boolean, nextContext: TagLexerContext): void {
    context = nextContext
    fragment = isFragment
    closing = false
    marker = 'none'
    markerSeen = false
    spaces = 0
    wordIndex = 0
    name = ''
    normalizedName = ''
    special = false
    attributeName = ''
    attributeValue = ''
    closingQuote = 0
    nameAttribute = undefined
    stringAttribute = undefined
    valueAttribute = undefined
    selfClosing = false
    terminated = false
    broken = false
    markerEnd = 0
    result = undefined
    length = 1
    if (isFragment) {
      bars = 1
      state = 'opening-bars'
    } else {
      bars = 0
      state = 'after-less-than'
    }
  }

  function complete(consumed: boolean, tagLength?: number): StepResult {
    if (consumed) length++
    result = {
      closing,
      marker,
      fragment,
      special,
      name,
      nameAttribute,
      stringAttribute,
      valueAttribute,
      selfClosing,
      terminated,
      broken,
      length: tagLength ?? length,
    }
    return consumed ? STEP_COMPLETE : STEP_COMPLETE_BEFORE
  }

  function accept(): StepResult {
    length++
    return STEP_CONTINUE
  }

  function allowedMarkerlessNames(): readonly string[] | undefined {
    if (closing) return context.markerlessClosers ? MARKERLESS_CLOSER_NAMES : undefined
    return context.markerlessOpeners ? MARKERLESS_OPENER_NAMES : undefined
  }

  function finishAttribute(): void {
    const key = attributeName.toLowerCase()
    if (key === 'name' && nameAttribute === undefined) nameAttribute = attributeValue
    else if (key === 'string' && stringAttribute === undefined) stringAttribute = attributeValue
    else if (key === 'value' && valueAttribute === undefined) valueAttribute = attributeValue
    attributeName = ''
    attributeValue = ''
  }

  /** A markered tag may end without `>`; a markerless one may not. */
  function endWithoutGreaterThan(): StepResult {
    return marker === 'none' ? STEP_REJECT : complete(false)
  }

  function startName(code: number): StepResult {
    name = String.fromCharCode(code)
    normalizedName = name.toLowerCase()
    state = 'name'
    return accept()
  }

  function stepAttributes(code: number): StepResult {
    if (isMarkerSpace(code)) return accept()
    if (code === GREATER_THAN) {
      terminated = true
      return complete(true)
    }
    if (code === SLASH) {
      state = 'self-closing'
      return accept()
    }
    if (code === LESS_THAN || isLineBreak(code)) return endWithoutGreaterThan()
    if (marker === 'none') {
      // Markerless: only well-formed attributes on openers; closers take none.
      if (closing || !isAsciiLetter(code)) return STEP_REJECT
    }
    if (isAsciiLetter(code) || code === 0x5f) {
      attributeName = String.fromCharCode(code)
      state = 'attribute-name'
      return accept()
    }
    // Junk inside a markered tag (`<‹DSML›tool name="x"...>`): read past it.
    return accept()
  }

  function step(code: number): StepResult {
    if (length >= maxTagChars) {
      if (marker === 'none' && !fragment) return STEP_REJECT
      if (!markerSeen) return STEP_REJECT
      broken = true
      return complete(false)
    }
    switch (state) {
      case 'after-less-than':
        if (code === SLASH) {
          closing = true
          state = 'after-slash'
          return accept()
        }
      // falls through: `<` and `</` continue alike
      case 'after-slash':
        if (isMarkerSpace(code)) {
          spaces = 1
          state = 'space-before-bars'
          return accept()
        }
        if (isBar(code)) {
          bars = 1
          state = 'opening-bars'
          return accept()
        }
        if (isAsciiLetter(code)) {
          const allowed = allowedMarkerlessNames()
          if (allowed === undefined) return STEP_REJECT
          const lower = String.fromCharCode(code).toLowerCase()
          if (!allowed.some((candidate) => candidate.startsWith(lower))) return STEP_REJECT
          return startName(code)
        }
        return STEP_REJECT
      case 'space-before-bars':
        if (isMarkerSpace(code) && spaces < MAX_MARKER_SPACES) {
          spaces++
          return accept()
        }
        if (isBar(code)) {
          bars = 1
          state = 'opening-bars'
          return accept()
        }
        return STEP_REJECT
      case 'opening-bars':
        if (isBar(code)) {
          if (bars >= (fragment ? MAX_MARKER_BARS : MAX_WORDLESS_BARS)) return STEP_REJECT
          bars++
          return accept()
        }
        if (code === 0x44 /* D */ && bars <= MAX_MARKER_BARS) {
          wordIndex = 1
          state = 'word'
          return accept()
        }
        if (fragment) return STEP_REJECT
        if (isMarkerSpace(code) && bars <= MAX_MARKER_BARS) {
          spaces = 1
          state = 'space-before-word'
          return accept()
        }
        if (isAsciiLetter(code)) {
          // Bars without the word: an inner tag name or a special token.
          marker = 'bars'
          const lower = String.fromCharCode(code).toLowerCase()
          if (!isKnownNamePrefix(lower) && !isSpecialTokenPrefix(lower)) return STEP_REJECT
          return startName(code)
        }
        return STEP_REJECT
      case 'space-before-word':
        if (isMarkerSpace(code) && spaces < MAX_MARKER_SPACES) {
          spaces++
          return accept()
        }
        if (code === 0x44 /* D */) {
          wordIndex = 1
          state = 'word'
          return accept()
        }
        return STEP_REJECT
      case 'word':
        if (code !== MARKER_WORD.charCodeAt(wordIndex)) return STEP_REJECT
        wordIndex++
        if (wordIndex === MARKER_WORD.length) {
          marker = 'dsml'
          if (!fragment) markerSeen = true
          spaces = 0
          bars = 0
          state = 'after-word'
        }
        return accept()
      case 'after-word':
        if (isBar(code)) {
          bars = 1
          state = 'closing-bars'
          if (fragment) {
            markerSeen = true
            markerEnd = length + 1
          }
          return accept()
        }
        if (fragment) return STEP_REJECT
        if (isMarkerSpace(code) && spaces < MAX_MARKER_SPACES) {
          spaces++
          return accept()
        }
        return afterMarker(code)
      case 'closing-bars':
        if (isBar(code) && bars < MAX_MARKER_BARS) {
          bars++
          if (fragment) markerEnd = length + 1
          return accept()
        }
        spaces = 0
        state = 'space-before-name'
        return afterMarker(code)
      case 'space-before-name':
        return afterMarker(code)
      case 'name':
        return stepName(code)
      case 'special-bars':
        if (isBar(code) && bars < MAX_MARKER_BARS) {
          bars++
          return accept()
        }
        if (code === GREATER_THAN) {
          special = true
          terminated = true
          return complete(true)
        }
        return STEP_REJECT
      case 'attributes':
        return stepAttributes(code)
      case 'attribute-name':
        if (isTagNameCharacter(code) && attributeName.length < MAX_ATTRIBUTE_NAME_LENGTH) {
          attributeName += String.fromCharCode(code)
          return accept()
        }
        if (isMarkerSpace(code)) {
          state = 'after-attribute-name'
          return accept()
        }
        if (code === EQUALS) {
          state = 'before-attribute-value'
          return accept()
        }
        finishAttribute()
        state = 'attributes'
        return stepAttributes(code)
      case 'after-attribute-name':
        if (isMarkerSpace(code)) return accept()
        if (code === EQUALS) {
          state = 'before-attribute-value'
          return accept()
        }
        finishAttribute()
        state = 'attributes'
        return stepAttributes(code)
      case 'before-attribute-value':
        if (isMarkerSpace(code)) return accept()
        if (code === QUOTATION_MARK || code === APOSTROPHE || code === LEFT_DOUBLE_QUOTATION_MARK) {
          closingQuote = code === LEFT_DOUBLE_QUOTATION_MARK ? RIGHT_DOUBLE_QUOTATION_MARK : code
          state = 'quoted-attribute-value'
          return accept()
        }
        if (code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
          finishAttribute()
          state = 'attributes'
          return stepAttributes(code)
        }
        if (marker === 'none' && isBar(code)) return STEP_REJECT
        attributeValue = String.fromCharCode(code)
        state = 'bare-attribute-value'
        return accept()
      case 'quoted-attribute-value':
        if (code === closingQuote) {
          finishAttribute()
          state = 'attributes'
          return accept()
        }
        if (marker === 'none' && (code === LESS_THAN || isLineBreak(code) || isBar(code))) return STEP_REJECT
        attributeValue += String.fromCharCode(code)
        return accept()
      case 'bare-attribute-value':
        if (isMarkerSpace(code) || code === GREATER_THAN || code === LESS_THAN || isLineBreak(code)) {
          finishAttribute()
          state = 'attributes'
          return stepAttributes(code)
        }
        if (marker === 'none' && isBar(code)) return STEP_REJECT
        attributeValue += String.fromCharCode(code)
        return accept()
      case 'self-closing':
        if (code === GREATER_THAN) {
          selfClosing = true
          terminated = true
          return complete(true)
        }
        if (marker === 'none') return STEP_REJECT
        state = 'attributes'
        return stepAttributes(code)
    }
  }

  /** After the marker (and its closing bars): a name, `>`, `/`, or the end of a bare marker. */
  function afterMarker(code: number): StepResult {
    if (isMarkerSpace(code) && spaces < MAX_MARKER_SPACES) {
      spaces++
      state = 'space-before-name'
      return accept()
    }
    if (isAsciiLetter(code) || code === 0x5f) return startName(code)
    if (fragment) {
      if (code === GREATER_THAN && length === markerEnd) {
        terminated = true
        return complete(true)
      }
      return complete(false, markerEnd)
    }
    if (code === GREATER_THAN) {
      terminated = true
      return complete(true)
    }
    if (code === SLASH) {
      state = 'self-closing'
      return accept()
    }
    return complete(false)
  }

  function stepName(code: number): StepResult {
    if (marker === 'bars') return stepWordlessName(code)
    if (isTagNameCharacter(code)) {
      if (name.length >= MAX_TAG_NAME_LENGTH) return marker === 'none' ? STEP_REJECT : complete(false)
      name += String.fromCharCode(code)
      if (marker === 'none') {
        const lower = name.toLowerCase()
        const allowed = allowedMarkerlessNames() ?? []
        if (!allowed.some((candidate) => candidate.startsWith(lower))) return STEP_REJECT
      }
      return accept()
    }
    if (marker === 'none') {
      const allowed = allowedMarkerlessNames() ?? []
      if (!allowed.includes(name.toLowerCase())) return STEP_REJECT
    }
    if (fragment && !isKnownName(name)) return complete(false, markerEnd)
    return nameEnded(code)
  }

  /**
   * Bars without the word: a known tag name (`<‹‹›invoke name="x">`), or a
   * special token whose words are separated by `▁`, `_` or spaces.
   */
  function stepWordlessName(code: number): StepResult {
    const separator = code === LOWER_ONE_EIGHTH_BLOCK || code === SPACE || code === 0x5f
    if (isTagNameCharacter(code) || separator) {
      const character = String.fromCharCode(code)
      const nextNormalized = normalizedName + (separator ? ' ' : character.toLowerCase())
      const nextName = name + character
      const canBeSpecial = isSpecialTokenPrefix(nextNormalized)
      const canBeName = isTagNameCharacter(code) && isKnownNamePrefix(nextName.toLowerCase())
      if ((canBeSpecial || canBeName) && name.length < MAX_TAG_NAME_LENGTH) {
        name = nextName
        normalizedName = nextNormalized
        return accept()
      }
      if (code !== SPACE) return STEP_REJECT
    }
    if (isBar(code)) {
      if (!isSpecialToken(normalizedName)) return STEP_REJECT
      bars = 1
      state = 'special-bars'
      return accept()
    }
    if (!isKnownName(name)) return STEP_REJECT
    return nameEnded(code)
  }

  function nameEnded(code: number): StepResult {
    state = 'attributes'
    if (code === GREATER_THAN) {
      terminated = true
      return complete(true)
    }
    if (isMarkerSpace(code) || code === SLASH) return stepAttributes(code)
    if (code === LESS_THAN || isLineBreak(code)) return endWithoutGreaterThan()
    if (marker === 'none') return STEP_REJECT
    return complete(false)
  }

  function finish(): typeof STEP_REJECT | typeof STEP_COMPLETE_BEFORE {
    if (marker === 'none') return STEP_REJECT
    if (!markerSeen) {
      // Wordless bars: a complete known name is a tag that lost its `>`.
      if (marker === 'bars' && state === 'name' && isKnownName(name)) {
        complete(false)
        return STEP_COMPLETE_BEFORE
      }
      return STEP_REJECT
    }
    if (fragment) {
      complete(false, state === 'name' && isKnownName(name) ? length : markerEnd)
      return STEP_COMPLETE_BEFORE
    }
    if (state === 'quoted-attribute-value' || state === 'bare-attribute-value') {
      if (state === 'quoted-attribute-value') broken = true
      finishAttribute()
    } else if (state === 'attribute-name' || state === 'after-attribute-name' || state === 'before-attribute-value') {
      finishAttribute()
    }
    complete(false)
    return STEP_COMPLETE_BEFORE
  }

  return {
    begin,
    step,
    finish,
    get length() {
      return length
    },
    get markerSeen() {
      return markerSeen
    },
    tag() {
      if (result === undefined) throw new Error('Cannot read tag: the lexer has not completed one')
      return result
    },
    setContext(next) {
      context = next
    },
  }
}

function isKnownName(name: string): boolean {
  const lower = name.toLowerCase()
  return MARKERLESS_CLOSER_NAMES.includes(lower) || lower === 'tool'
}
