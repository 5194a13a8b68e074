/**
 * What each key of a chat chunk makes when `decodeChatCompletionsMessage`
 * decodes it: the decoder reads exactly these keys, and the plain-chunk
 * scanner (`json-scan.ts`) classifies a chunk by them without decoding it.
 */

/** What a key of a chat chunk makes when decoded (see `CHUNK_KEY_MEANINGS`). */
export type ChunkKeyMeaning = 'text' | 'part' | 'error' | 'choices'

/**
 * The keys `decodeChatCompletionsMessage` reads, and what each makes — for
 * readers that classify a chunk without decoding it (the decoder's
 * `plainSpan`, through `PlainJsonScanner`):
 * - `text`: `content`, the answer text part;
 * - `part`: unless `null`, a part other than the answer text;
 * - `error`: the chunk is an error part;
 * - `choices`: the array the message's choice is read from.
 * Any other key makes nothing.
 */
export const CHUNK_KEY_MEANINGS: Readonly<Record<string, ChunkKeyMeaning>> = {
  content: 'text',
  reasoning_content: 'part',
  tool_calls: 'part',
  finish_reason: 'part',
  usage: 'part',
  error: 'error',
  choices: 'choices',
}
