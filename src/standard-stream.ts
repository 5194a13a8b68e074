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

const FIX =
  'On Cloudflare Workers, set compatibility_date to "2022-11-30" or later, or add the compatibility flag "transformstream_enable_standard_constructor".'

export class StandardTransformStream<I, O> extends TransformStream<I, O> {
  constructor(transformer: Transformer<I, O>, writableStrategy?: QueuingStrategy<I>, readableStrategy?: QueuingStrategy<O>) {
    let started = false
    // A wrapper, not a spread: a transformer's methods may live on its prototype.
    const wrapped: Transformer<I, O> = {
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
