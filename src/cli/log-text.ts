/**
 * Text from a request, made safe to log: every control character (C0, DEL,
 * C1), and the line and paragraph separators, written as an escape, so that
 * request data can neither start a line of its own nor move the terminal's
 * cursor. A loop, linear in the text.
 */
export function loggable(text: string): string {
  let out = ''
  let start = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f) && code !== 0x2028 && code !== 0x2029) continue
    out += text.slice(start, index) + (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`)
    start = index + 1
  }
  return start === 0 ? text : out + text.slice(start)
}
