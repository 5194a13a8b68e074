/**
 * `createThoughtTagSplitter`: Lingma carries reasoning inline as
 * `<thought>…</thought>` in `delta.content`. A char-code state machine routes
 * the text between the tags to reasoning and the rest to the answer; the
 * open/closed state carries across chunks, and so does a tag split between
 * chunks: only a suffix that could still become the next tag is held (at
 * most the tag's length minus one), and it is released as soon as it
 * cannot. Tags are exact-case.
 */
import type { Channel } from '../parts/part.ts'

const OPEN_TAG = '<thought>'
const CLOSE_TAG = '</thought>'
const LESS_THAN = 0x3c

export interface ChannelText {
  channel: Channel
  text: string
}

export interface ThoughtTagSplitter {
  /** The next content delta; the pieces it completes, in order (adjacent pieces of one channel merged). */
  feed(content: string): ChannelText[]
  /** Releases a held partial tag as text of the current channel, and leaves the thought (the message ended). */
  end(): ChannelText[]
  /** Inside `<thought>` now. */
  readonly inThought: boolean
  /** Characters held as a possible partial tag. */
  readonly held: string
}

/**
 * Splits Lingma's inline `<thought>…</thought>` reasoning out of content deltas, across chunk ends.
 */
export function createThoughtTagSplitter(): ThoughtTagSplitter {
  return new Splitter()
}

function push(out: ChannelText[], channel: Channel, text: string): void {
  if (text === '') return
  const last = out[out.length - 1]
  if (last !== undefined && last.channel === channel) last.text += text
  else out.push({ channel, text })
}

/** Length of the longest suffix of `text` (from `from`) that is a proper prefix of `tag`. */
function partialTagLength(text: string, from: number, tag: string): number {
  const longest = Math.min(tag.length - 1, text.length - from)
  for (let length = longest; length > 0; length--) {
    const start = text.length - length
    if (text.charCodeAt(start) !== LESS_THAN) continue
    let matches = true
    for (let index = 1; index < length; index++) {
      if (text.charCodeAt(start + index) !== tag.charCodeAt(index)) {
        matches = false
        break
      }
    }
    if (matches) return length
  }
  return 0
}

/** A class, so that one per open stream pays for its fields only. */
class Splitter implements ThoughtTagSplitter {
  #inThought = false
  #held = ''

  get inThought(): boolean {
    return this.#inThought
  }

  get held(): string {
    return this.#held
  }

  feed(content: string): ChannelText[] {
    const out: ChannelText[] = []
    const text = this.#held + content
    this.#held = ''
    let start = 0
    for (;;) {
      const tag = this.#inThought ? CLOSE_TAG : OPEN_TAG
      const channel: Channel = this.#inThought ? 'reasoning' : 'text'
      const at = text.indexOf(tag, start)
      if (at === -1) {
        const keep = partialTagLength(text, start, tag)
        push(out, channel, text.slice(start, text.length - keep))
        this.#held = text.slice(text.length - keep)
        return out
      }
      push(out, channel, text.slice(start, at))
      start = at + tag.length
      this.#inThought = !this.#inThought
    }
  }

  end(): ChannelText[] {
    const out: ChannelText[] = []
    push(out, this.#inThought ? 'reasoning' : 'text', this.#held)
    this.#held = ''
    this.#inThought = false
    return out
  }
}
