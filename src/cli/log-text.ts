/**
 * Text from a request, made safe to log: every control character (C0, DEL,
 * C1), the line and paragraph separators, and every format character
 * (Unicode Cf: bidi overrides such as U+202E, zero-width spaces and joiners)
 * written as an escape, so that request data can neither start a line of its
 * own, move the terminal's cursor, nor show in another order than it has. A
 * loop, linear in the text.
 */
export function loggable(text: string): string {
  let out = ''
  let start = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f) && code !== 0x2028 && code !== 0x2029 && (code < SOFT_HYPHEN || !isFormat(text, index))) continue
    const point = text.codePointAt(index)!
    out += text.slice(start, index) + (point < 0x100 ? `\\x${point.toString(16).padStart(2, '0')}` : point < 0x10000 ? `\\u${point.toString(16)}` : `\\u{${point.toString(16)}}`)
    if (point >= 0x10000) index++
    start = index + 1
  }
  return start === 0 ? text : out + text.slice(start)
}

/** The first format character (Cf) there is; below it every character is plain or a control handled above. */
const SOFT_HYPHEN = 0xad
const FORMAT = /^\p{Cf}/u

/** Is the character (a code point, surrogate pairs included) at `index` a format character (Cf)? */
function isFormat(text: string, index: number): boolean {
  return FORMAT.test(String.fromCodePoint(text.codePointAt(index)!))
}
