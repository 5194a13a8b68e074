/**
 * The function-call items a Responses stream gets for recovered calls:
 * written whole at the finish (`whole`), or streamed as they form (`start`,
 * `arguments`, `end`, by the call's index in the message). Each event goes
 * through `write`; each item takes the output index `nextOutputIndex` gives.
 * `made` holds them done, for the response's final `output`.
 */
import { TextBuilder } from '../text-builder.ts'
import type { ResponsesEvent, ResponsesItem } from './types.ts'

interface OpenItem {
  item: ResponsesItem
  outputIndex: number
  arguments: TextBuilder
}

export class FunctionCallItems {
  /** Every item done, in order. */
  readonly made: ResponsesItem[] = []
  #open = new Map<number, OpenItem>()
  #write: (event: ResponsesEvent) => void
  #nextOutputIndex: () => number

  constructor(write: (event: ResponsesEvent) => void, nextOutputIndex: () => number) {
    this.#write = write
    this.#nextOutputIndex = nextOutputIndex
  }

  /** A call written whole: its item added, its arguments in one piece, done. */
  whole(callId: string, name: string, args: string): void {
    const open = this.#add(callId, name)
    this.#append(open, args)
    this.#done(open)
  }

  /** A call streamed as it forms: its item is added now, its arguments follow as they come. */
  start(index: number, callId: string, name: string): void {
    this.#open.set(index, this.#add(callId, name))
  }

  arguments(index: number, delta: string): void {
    const open = this.#open.get(index)
    if (open !== undefined) this.#append(open, delta)
  }

  end(index: number): void {
    const open = this.#open.get(index)
    if (open === undefined) return
    this.#open.delete(index)
    this.#done(open)
  }

  #add(callId: string, name: string): OpenItem {
    const open: OpenItem = {
      item: { type: 'function_call', id: `fc_${callId.slice(callId.indexOf('_') + 1)}`, call_id: callId, name, arguments: '', status: 'in_progress' },
      outputIndex: this.#nextOutputIndex(),
      arguments: new TextBuilder(),
    }
    this.#write({ type: 'response.output_item.added', output_index: open.outputIndex, item: open.item })
    return open
  }

  #append(open: OpenItem, delta: string): void {
    open.arguments.append(delta)
    this.#write({ type: 'response.function_call_arguments.delta', item_id: open.item.id, output_index: open.outputIndex, delta })
  }

  #done(open: OpenItem): void {
    const args = open.arguments.toString()
    const done: ResponsesItem = { ...open.item, arguments: args, status: 'completed' }
    this.made.push(done)
    this.#write({ type: 'response.function_call_arguments.done', item_id: done.id, output_index: open.outputIndex, arguments: args })
    this.#write({ type: 'response.output_item.done', output_index: open.outputIndex, item: done })
  }
}
