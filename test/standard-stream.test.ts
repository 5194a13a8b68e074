// Old Cloudflare Workers (compatibility date before 2022-11-30) ignore a TransformStream's
// transformer: every stream would pass its input through untouched. Here the global is replaced
// by one that does the same, the package is loaded afresh on it, and every stream class must
// throw a TypeError that names the fix. (Node only: it swaps a global.)
import { expect, test, vi } from 'vitest'
import { StandardTransformStream } from '../src/standard-stream.ts'

test('a transformer whose methods live on its prototype still runs (the transformer is wrapped, not spread)', async () => {
  class Doubler {
    transform(chunk: string, controller: TransformStreamDefaultController<string>): void {
      controller.enqueue(chunk + chunk)
    }
  }
  const stream = new StandardTransformStream<string, string>(new Doubler())
  const writer = stream.writable.getWriter()
  void writer.write('ab')
  void writer.close()
  const reader = stream.readable.getReader()
  expect((await reader.read()).value).toBe('abab')
})

test('where TransformStream ignores its transformer (old Workers), constructing any stream of the package throws a TypeError naming the compatibility date and flag', async () => {
  const Original = globalThis.TransformStream
  class IgnoresTransformer<I, O> extends Original<I, O> {
    constructor(_transformer?: Transformer<I, O>, writable?: QueuingStrategy<I>, readable?: QueuingStrategy<O>) {
      super(undefined, writable, readable)
    }
  }
  vi.resetModules()
  globalThis.TransformStream = IgnoresTransformer as typeof TransformStream
  try {
    const base = (await import('../src/standard-stream.ts')) as typeof import('../src/standard-stream.ts')
    // Every entry point's streams (the root holds what users compose with; the subpaths the lower-level ones), and the AI SDK's.
    const modules = [
      await import('../src/index.ts'),
      await import('../src/dsml/index.ts'),
      await import('../src/sse/index.ts'),
      await import('../src/parts/index.ts'),
      await import('../src/chat-completions/index.ts'),
      await import('../src/anthropic/index.ts'),
      await import('../src/responses/index.ts'),
      await import('../src/lingma/index.ts'),
      await import('../src/ai-sdk/stream-transformer.ts'),
    ] as Array<Record<string, unknown>>
    const classes = new Map(modules.flatMap((module) => Object.entries(module)))
    const streams = [...classes].filter(([, value]) => typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof base.StandardTransformStream)
    expect(streams.length).toBeGreaterThanOrEqual(15)
    for (const [name, value] of streams) {
      expect(() => new (value as new () => unknown)(), name).toThrow(TypeError)
      expect(() => new (value as new () => unknown)(), name).toThrow(/compatibility_date to "2022-11-30" or later.*transformstream_enable_standard_constructor/)
    }
  } finally {
    globalThis.TransformStream = Original
    vi.resetModules()
  }
})
