/** Stream helpers for tests, with only `getReader()` loops (every runtime has them). */

/** A stream that yields `chunks`, then closes. */
export function streamOf<T>(chunks: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
}

/** Reads `stream` to its end. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader()
  const out: T[] = []
  while (true) {
    const { done, value } = await reader.read()
    if (done) return out
    out.push(value)
  }
}

/** Reads `stream` until it ends or errors; returns what was read and the error, if any. */
export async function collectUntilError<T>(stream: ReadableStream<T>): Promise<{ values: T[]; error: unknown }> {
  const reader = stream.getReader()
  const values: T[] = []
  while (true) {
    let result: ReadableStreamReadResult<T>
    try {
      result = await reader.read()
    } catch (error) {
      return { values, error }
    }
    if (result.done) return { values, error: undefined }
    values.push(result.value)
  }
}

/** Reads a byte stream to its end, as UTF-8 text. */
export async function collectText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder()
  return (await collect(stream)).map((bytes) => decoder.decode(bytes, { stream: true })).join('') + decoder.decode()
}
