/**
 * The UTF-8 round trip of a read: whether a text the SSE decoder read from
 * bytes encodes back to those bytes. Bytes that were not UTF-8 are read as
 * U+FFFD, which encodes as its own three bytes; anything else comes back
 * the same. A U+FFFD that came as its own three bytes would come back too,
 * but a text cannot tell it from a replaced one: every U+FFFD counts, and
 * such a read merely takes the slower path. Every shortcut that sends a
 * read out as it came, or a part of one, asks `encodesBackAsRead`, or
 * `mayNotEncodeBack` of each character as it scans.
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
