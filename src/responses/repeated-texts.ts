/**
 * `RepeatedTexts`: the whole texts a Responses stream's `.done` events
 * carried, each with the JSON text it was written as, kept by the decoder
 * for the events after it that repeat it (`content_part.done`,
 * `output_item.done`, `response.completed`, and their reasoning kin). Such an
 * event is parsed knowing those texts (`parseBoundedJsonKnowing`): each found
 * as one string value is compared, not parsed again, so a long answer is
 * parsed in its deltas and its `.done`, and not three times more.
 */
import { stringSpanAfter } from '../dialect-kit/plain-json-string.ts'
import type { KnownJsonString } from '../json-known-strings.ts'
import type { SseEvent } from '../sse/types.ts'

/** Events that may repeat a part's whole text, by their SSE event name. */
const REPEATING_EVENTS: ReadonlySet<string> = new Set([
  'response.content_part.done',
  'response.reasoning_summary_part.done',
  'response.output_item.done',
  'response.completed',
  'response.incomplete',
  'response.failed',
])

/** Texts shorter than this are parsed with their events: a search for them would cost about as much. */
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

  /**
   * A `.done` event of the part `key` was parsed from `message` to `text`:
   * when it is long, it is kept with the JSON string it came in, where the
   * event's one `"text":"` opens a string that spells it (`stringSpanAfter`).
   */
  learn(key: string, message: SseEvent, text: unknown): void {
    if (typeof text !== 'string' || text.length < KNOWN_TEXT_FROM) return
    const span = stringSpanAfter(message.data, TEXT_KEY, text)
    if (span !== undefined) this.#texts.set(key, { value: text, written: message.data.substring(span[0] - 1, span[1] + 1) })
  }

  /** The texts `message` may repeat, when it is an event that repeats texts. */
  knownFor(message: SseEvent): readonly KnownJsonString[] {
    if (this.#texts.size === 0 || message.event === undefined || !REPEATING_EVENTS.has(message.event) || message.data.length < KNOWN_TEXT_FROM) return NONE
    return [...this.#texts.values()]
  }
}

const NONE: readonly KnownJsonString[] = []
