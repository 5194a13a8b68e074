/**
 * `SanitizeSummary`: the one line `dsml-streams sanitize` writes on stderr —
 * the calls recovered (with their tools) and the other markup regions
 * removed — tallied from the diagnostics as they come, so none is kept.
 */
import type { Diagnostic } from '../dsml/types.ts'
import type { InputFormat } from './input-format.ts'

export class SanitizeSummary {
  /** The tool of each recovered call, in order. */
  #recovered: string[] = []
  /** Diagnostics other than a recovered call that removed some text. */
  #removed = 0

  note(diagnostic: Diagnostic): void {
    if (diagnostic.kind === 'recovered-call') this.#recovered.push(diagnostic.tool ?? '?')
    else if (diagnostic.text !== '') this.#removed++
  }

  /** E.g. `dsml-streams: text: 1 call recovered (read_file); 1 other markup region removed`. */
  line(format: InputFormat): string {
    const recovered = this.#recovered
    const removed = this.#removed
    const calls = recovered.length === 0 ? 'no call recovered' : `${recovered.length} call${recovered.length === 1 ? '' : 's'} recovered (${recovered.join(', ')})`
    const markup = removed === 0 ? 'no other markup removed' : `${removed} other markup region${removed === 1 ? '' : 's'} removed`
    return `dsml-streams: ${format}: ${calls}; ${markup}`
  }
}
