/**
 * `StandardTransformStream`: the base of every stream in the package. Where
 * the platform's `TransformStream` ignores its transformer — Cloudflare
 * Workers with a compatibility date before 2022-11-30, where the standard
 * constructor is off and `new TransformStream(transformer)` is an identity
 * stream — every stage would pass its input through untouched: the markup
 * kept, no tool calls, no error. The standard constructor calls the
 * transformer's `start` before it returns; when it did not, construction
 * throws a `TypeError` that names the fix.
 */

/**
 * What the stages give `new TransformStream(…)`, spelled here: DOM's
 * `Transformer` and `QueuingStrategy` are not declared in a Node-only
 * TypeScript project, and these declarations must check there too.
 */
export interface StageTransformer<I, O> {
  start?(controller: TransformStreamDefaultController<O>): void | PromiseLike<void>
  transform?(chunk: I, controller: TransformStreamDefaultController<O>): void | PromiseLike<void>
  flush?(controller: TransformStreamDefaultController<O>): void | PromiseLike<void>
}

export interface StageQueuingStrategy<T> {
  highWaterMark?: number
  size?(chunk: T): number
}

const FIX =
  'On Cloudflare Workers, set compatibility_date to "2022-11-30" or later, or add the compatibility flag "transformstream_enable_standard_constructor".'

/**
 * A standard `TransformStream` that refuses to be built where the platform's
 * ignores its transformer (old Cloudflare Workers): the base of every stream
 * in the package.
 */
export class StandardTransformStream<I, O> extends TransformStream<I, O> {
  constructor(transformer: StageTransformer<I, O>, writableStrategy?: StageQueuingStrategy<I>, readableStrategy?: StageQueuingStrategy<O>) {
    let started = false
    // A wrapper, not a spread: a transformer's methods may live on its prototype.
    const wrapped: StageTransformer<I, O> = {
      start(controller) {
        started = true
        return transformer.start?.(controller)
      },
    }
    if (transformer.transform !== undefined) wrapped.transform = (chunk, controller) => transformer.transform!(chunk, controller)
    if (transformer.flush !== undefined) wrapped.flush = (controller) => transformer.flush!(controller)
    super(wrapped, writableStrategy, readableStrategy)
    if (!started) {
      throw new TypeError(`Cannot create ${new.target.name}: this platform's TransformStream ignores its transformer, so the stream would pass everything through unrepaired. ${FIX}`)
    }
  }
}
