/**
 * The UTF-8 round trip of a read: whether a text the SSE decoder read from
 * bytes encodes back to those bytes. Bytes that were not UTF-8 are read as
 * U+FFFD, which encodes as its own three bytes; anything else comes back
 * the same. Every shortcut that sends a read out as it came, or a part of
 * one, asks `encodesBackAsRead` (or refuses `REPLACEMENT_CHARACTER` as it
 * scans).
 */

/** U+FFFD: what the decoder reads for bytes that were not UTF-8. */
export const REPLACEMENT_CHARACTER = 0xfffd

/** Does a text the decoder read encode back to the bytes it was read from (it holds no U+FFFD)? */
export function encodesBackAsRead(text: string): boolean {
  return text.indexOf('\uFFFD') === -1
}
