/** The one error that ends a stream: a resource limit (DESIGN.md §5.11). */

/** `sse-buffer-limit`: an SSE line or event past `maxBufferSize`; `json-body-limit`: a JSON body past it. */
export type StreamLimitType = 'sse-buffer-limit' | 'json-body-limit'

export class StreamLimitError extends Error {
  override name = 'StreamLimitError'
  readonly type: StreamLimitType
  readonly limit: number

  constructor(type: StreamLimitType, limit: number, message: string) {
    super(message)
    this.type = type
    this.limit = limit
  }
}
