/**
 * The Lingma request body encoding (`Encode=1` in the endpoint's query): the
 * JSON body's UTF-8 bytes in base64, written in Lingma's own 64-character
 * alphabet with `$` for padding, then cut in thirds and reordered (the last
 * third, the middle, the first; thirds of `floor(length / 3)` characters).
 * The reordering is its own inverse, so decoding reorders the same way.
 */

/** Lingma's alphabet: the character for each 6-bit value, in the standard base64 order. */
const ALPHABET = '_doRTgHZBKcGVjlvpC,@aFSx#DPuNJme&i*MzLOEn)sUrthbf%Y^w.(kIQyXqWA!'
const PAD = '$'

/** Each alphabet character's 6-bit value (-1 for a character outside it). */
const VALUES = new Int8Array(128).fill(-1)
for (let index = 0; index < ALPHABET.length; index++) VALUES[ALPHABET.charCodeAt(index)] = index

const UTF8_ENCODER = new TextEncoder()
const UTF8_DECODER = new TextDecoder('utf-8', { fatal: true })

/** The last third first, the middle, then the first third (its own inverse). */
function reorderThirds(text: string): string {
  const third = Math.floor(text.length / 3)
  return text.slice(text.length - third) + text.slice(third, text.length - third) + text.slice(0, third)
}

/** A JSON body as Lingma's `Encode=1` endpoint reads it. */
export function encodeLingmaBody(json: string): string {
  const bytes = UTF8_ENCODER.encode(json)
  const out: string[] = []
  let index = 0
  for (; index + 2 < bytes.length; index += 3) {
    const group = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!
    out.push(ALPHABET[group >> 18]! + ALPHABET[(group >> 12) & 63]! + ALPHABET[(group >> 6) & 63]! + ALPHABET[group & 63]!)
  }
  const left = bytes.length - index
  if (left === 1) {
    const group = bytes[index]! << 16
    out.push(`${ALPHABET[group >> 18]!}${ALPHABET[(group >> 12) & 63]!}${PAD}${PAD}`)
  } else if (left === 2) {
    const group = (bytes[index]! << 16) | (bytes[index + 1]! << 8)
    out.push(`${ALPHABET[group >> 18]!}${ALPHABET[(group >> 12) & 63]!}${ALPHABET[(group >> 6) & 63]!}${PAD}`)
  }
  return reorderThirds(out.join(''))
}

/** The JSON text of an `Encode=1` body. Throws a `TypeError` when it is not one (a foreign character, a bad length, bytes that are not UTF-8). */
export function decodeLingmaBody(encoded: string): string {
  const text = reorderThirds(encoded)
  if (text.length % 4 !== 0) throw new TypeError(`Cannot decode Lingma body: its length ${text.length} is not a multiple of 4`)
  let padding = 0
  if (text.endsWith(PAD + PAD)) padding = 2
  else if (text.endsWith(PAD)) padding = 1
  const bytes = new Uint8Array((text.length / 4) * 3 - padding)
  let written = 0
  for (let index = 0; index < text.length; index += 4) {
    let group = 0
    for (let offset = 0; offset < 4; offset++) {
      const at = index + offset
      const code = text.charCodeAt(at)
      const isPad = code === 0x24 && at >= text.length - padding
      const value = isPad ? 0 : code < 128 ? VALUES[code]! : -1
      if (value < 0) throw new TypeError(`Cannot decode Lingma body: ${JSON.stringify(text[at])} is not in its alphabet`)
      group = (group << 6) | value
    }
    for (let shift = 16; shift >= 0 && written < bytes.length; shift -= 8) bytes[written++] = (group >> shift) & 0xff
  }
  try {
    return UTF8_DECODER.decode(bytes)
  } catch {
    throw new TypeError('Cannot decode Lingma body: its bytes are not UTF-8')
  }
}
