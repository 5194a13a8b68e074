/**
 * The UTF-8 round trip of a read: whether a text the SSE decoder read from
 * bytes encodes back to those bytes. Bytes that were not UTF-8 are read as
 * U+FFFD, which encodes as its own three bytes; anything else comes back
 * the same. A U+FFFD that came as its own three bytes would come back too,
 * but a text cannot tell it from a replaced one: every U+FFFD counts, and
 * such a read merely takes the slower path. Every shortcut that sends a
 * read out as it came, or a part of one, asks `encodesBackAsRead`, or
 * `mayNotEncodeBack` of each character as it scans. A reader that looks for
 * a known text in bytes asks `bytesReadAs` for the bytes to look for.
 */

/** U+FFFD: what the decoder reads for bytes that were not UTF-8. */
const REPLACEMENT_CHARACTER = 0xfffd
const REPLACEMENT = String.fromCharCode(REPLACEMENT_CHARACTER)

/** May this character, read from bytes, not encode back to them (it is U+FFFD)? */
export function mayNotEncodeBack(code: number): boolean {
  return code === REPLACEMENT_CHARACTER
}

/** Does a text the decoder read encode back to the bytes it was read from (it holds no U+FFFD)? */
export function encodesBackAsRead(text: string): boolean {
  return text.indexOf(REPLACEMENT) === -1
}

/** Stateless, so every caller shares one. */
const UTF8 = new TextEncoder()

/**
 * The UTF-8 bytes the decoder reads as exactly `text`, or undefined when no
 * bytes are: a text with a U+FFFD (which a read cannot tell from a replaced
 * one) or a lone surrogate, which encodes as U+FFFD's bytes (in a text
 * without U+FFFD, those bytes are found only for one: looked for by their
 * first byte, which the engine finds as memory).
 */
export function bytesReadAs(text: string): Uint8Array | undefined {
  if (!encodesBackAsRead(text)) return undefined
  const bytes = UTF8.encode(text)
  for (let at = bytes.indexOf(0xef); at !== -1; at = bytes.indexOf(0xef, at + 1)) {
    if (bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) return undefined
  }
  return bytes
}
