/** The one error that ends a stream: a resource limit (bad input never throws; only a cap ends a stream). */

/** `sse-buffer-limit`: an SSE line or event past `maxBufferSize`; `json-body-limit`: a JSON body past it. */
export type StreamLimitType = 'sse-buffer-limit' | 'json-body-limit'

/**
 * The error a stream fails with when its input passes a resource cap (an SSE line or event, held
 * markup); `type` says which.
 */
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
