/**
 * `RepeatedTexts`: the whole texts a Responses stream's `.done` events
 * carried, each with the JSON text it was written as, kept by the decoder
 * for the events after it that repeat it (`content_part.done`,
 * `output_item.done`, `response.completed`, and their reasoning kin). Such an
 * event is parsed knowing those texts (`parseBoundedJsonKnowing`): each found
 * as one string value is compared, not parsed again, so a long answer is
 * parsed in its deltas and its `.done`, and not three times more. Read as
 * bytes, such an event is not even decoded whole: the machine finds the
 * texts' bytes in it (`foundIn`) and decodes around them.
 */
import { stringSpanAfter } from '../dialect-kit/plain-json-string.ts'
import type { KnownJsonString } from '../json-known-strings.ts'
import type { SseEvent } from '../sse/types.ts'
import { findRepeated, type RepeatedAt, type RepeatedText } from '../dialect-kit/repeated-bytes.ts'
import { bytesReadAs } from '../sse/utf8-round-trip.ts'

/** Events that may repeat a part's whole text, by their SSE event name. */
const REPEATING_EVENTS: ReadonlySet<string> = new Set([
  'response.content_part.done',
  'response.reasoning_summary_part.done',
  'response.output_item.done',
  'response.completed',
  'response.incomplete',
  'response.failed',
])

/**
 * Texts shorter than this are parsed with their events: a search for them
 * would cost about as much. The encoder escapes a clean text once for the
 * events that repeat it from the same length (`CleanJson`): below it,
 * escaping it again costs about what splicing it in does.
 */
export const KNOWN_TEXT_FROM = 4096

/** The key a `.done` event writes its whole text under, with the quote that opens the text. */
const TEXT_KEY = '"text":"'

export class RepeatedTexts {
  /**
   * By part (its item, kind and index): the text of its `.done`, and the JSON
   * string it came in, quotes included. Kept for the stream's life (a
   * response's few parts; each later event that repeats texts is given all
   * of them).
   */
  #texts = new Map<string, KnownJsonString>()
  /** Each text with the bytes read as its JSON string, once made (null: no bytes are read as it). */
  #bytes = new Map<KnownJsonString, RepeatedText | null>()

  /**
   * A `.done` event of the part `key` was parsed from `message` to `text`:
   * when it is long, it is kept with the JSON string it came in, where the
   * event's one `"text":"` opens a string that spells it (`stringSpanAfter`).
   */
  learn(key: string, message: SseEvent, text: unknown): void {
    if (typeof text !== 'string' || text.length < KNOWN_TEXT_FROM) return
    const span = stringSpanAfter(message.data, TEXT_KEY, text)
    if (span === undefined) return
    const replaced = this.#texts.get(key)
    if (replaced !== undefined) this.#bytes.delete(replaced)
    this.#texts.set(key, { value: text, written: message.data.substring(span[0] - 1, span[1] + 1) })
  }

  /** The texts `message` may repeat, when it is an event that repeats texts. */
  knownFor(message: SseEvent): readonly KnownJsonString[] {
    if (this.#texts.size === 0 || message.event === undefined || !REPEATING_EVENTS.has(message.event) || message.data.length < KNOWN_TEXT_FROM) return NONE
    return [...this.#texts.values()]
  }

  /**
   * Where the texts kept occur in a read of bytes (`findRepeated`; the
   * machine asks before decoding it: `DialectDecoder.repeatedIn`). None
   * before a text is kept, and none in a read shorter than the shortest.
   */
  foundIn(read: Uint8Array): readonly RepeatedAt[] {
    if (this.#texts.size === 0 || read.length < KNOWN_TEXT_FROM) return NOWHERE
    return findRepeated(read, this.#withBytes())
  }

  /**
   * Every text kept, with the bytes read as its JSON string (made once, when
   * first asked: only a stream read as bytes asks). A text no bytes are read
   * as is left out.
   */
  #withBytes(): readonly RepeatedText[] {
    const texts: RepeatedText[] = []
    for (const known of this.#texts.values()) {
      let text = this.#bytes.get(known)
      if (text === undefined) {
        const bytes = bytesReadAs(known.written)
        this.#bytes.set(known, (text = bytes === undefined ? null : { known, bytes }))
      }
      if (text !== null) texts.push(text)
    }
    return texts
  }
}

const NONE: readonly KnownJsonString[] = []
const NOWHERE: readonly RepeatedAt[] = []
