/**
 * `readBodyText`: a response body as text, read as it arrives and never past
 * a cap: once the text holds more than `limit` characters (or bytes, as the
 * caller counts), the rest is not read and the body is cancelled. Every body
 * the package reads whole goes through it, so none is unbounded.
 */
export interface BodyText {
  text: string
  /** The body ended within the cap (`text` is all of it). */
  complete: boolean
}

export async function readBodyText(body: ReadableStream<Uint8Array>, limit: number, count: 'characters' | 'bytes' = 'characters'): Promise<BodyText> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { text: text + decoder.decode(), complete: true }
    const room = limit - bytes
    const piece = count === 'bytes' && value.length > room ? value.subarray(0, Math.max(0, room)) : value
    bytes += value.length
    text += decoder.decode(piece, { stream: true })
    if ((count === 'bytes' ? bytes : text.length) > limit) {
      await reader.cancel().catch(() => undefined)
      return { text: text + decoder.decode(), complete: false }
    }
  }
}
