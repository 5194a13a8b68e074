/**
 * `CleanJson`: the JSON strings of a Responses stream's long clean texts,
 * each written once. The closing events (a part's `.done`,
 * `content_part.done`, `output_item.done`, `response.completed`) each repeat
 * the part's whole text; when the repair changed it, each is written again
 * with the clean text, and `JSON.stringify` would escape the same long text
 * into each. Given to `jsonDataEvent`, each is spliced in where its text
 * stands (`stringifyKnowing`).
 */
import { type KnownJsonString, knownJsonString } from '../json-known-strings.ts'
import type { TextBuilder } from '../text-builder.ts'
import { KNOWN_TEXT_FROM } from './repeated-texts.ts'

export class CleanJson {
  /** By part's clean text: its JSON string, as the text was when it was written. */
  #written = new Map<TextBuilder, KnownJsonString>()

  /**
   * The JSON strings of the texts in `texts` long enough to matter
   * (`KNOWN_TEXT_FROM`, as for the texts a `.done` carried), each written
   * when first asked, and again only if its text has changed since.
   */
  of(texts: Iterable<TextBuilder>): KnownJsonString[] {
    const known: KnownJsonString[] = []
    for (const builder of texts) {
      if (builder.length < KNOWN_TEXT_FROM) continue
      // The builder keeps its text once read (`TextBuilder.toString`): the same string while it is unchanged.
      const value = builder.toString()
      let written = this.#written.get(builder)
      if (written?.value !== value) this.#written.set(builder, (written = knownJsonString(value)))
      known.push(written)
    }
    return known
  }
}
