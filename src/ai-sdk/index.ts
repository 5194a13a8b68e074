/**
 * `dsml-streams/ai-sdk`: a language model middleware for the AI SDK — ai 5,
 * 6 and 7 (specs `v2`, `v3` and `v4`) — that repairs leaked DSML tool calls
 * in any wrapped model.
 *
 * @example
 * ```ts
 * import { wrapLanguageModel } from 'ai'
 * import { dsmlMiddleware } from 'dsml-streams/ai-sdk'
 *
 * const repaired = wrapLanguageModel({ model, middleware: dsmlMiddleware() })
 * ```
 *
 * One middleware serves each major: the parts it reads and writes (text,
 * reasoning, tool input and tool calls) are the same in the three specs, and
 * the finish reason is written in the shape the wrapped model wrote it
 * (`finish-reason.ts`). It imports nothing from the AI SDK at run time, and
 * its types name none of the SDK's (so they check against whichever major a
 * project has installed).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamResult } from '@ai-sdk/provider'
import { repairGenerateResult } from './generate.ts'
import { transformPrompt } from './history.ts'
import { resolveMiddlewareOptions, type DsmlMiddlewareOptions } from './options.ts'
import { createDsmlStreamTransform } from './stream-transformer.ts'

export { historyNote } from '../parts/history-repair.ts'
export type { DsmlMiddlewareDiagnostic, DsmlMiddlewareDiagnosticKind, DsmlMiddlewareOptions } from './options.ts'

/* eslint-disable @typescript-eslint/no-explicit-any -- the one type every major's middleware type accepts */
/**
 * The middleware `dsmlMiddleware` returns, typed to fit each major's
 * `wrapLanguageModel`: ai 5's `LanguageModelV2Middleware`, ai 6's
 * `LanguageModelV3Middleware` and ai 7's `LanguageModelMiddleware`. Its
 * hooks take and give the wrapped model's own parts, whichever spec that is.
 */
export interface DsmlLanguageModelMiddleware {
  /** `v3`: what ai 6 requires; ai 7 takes any, ai 5 reads `middlewareVersion` and ignores it. */
  readonly specificationVersion: 'v3'
  transformParams?: (options: { type: 'generate' | 'stream'; params: any; model: any }) => PromiseLike<any>
  wrapGenerate?: (options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }) => Promise<any>
  wrapStream?: (options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }) => Promise<any>
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** What a wrap hook reads of its options (the spec's, as written for v4). */
interface WrapOptions {
  doGenerate: () => PromiseLike<LanguageModelV4GenerateResult>
  doStream: () => PromiseLike<LanguageModelV4StreamResult>
  params: LanguageModelV4CallOptions
  /** The wrapped model: its `specificationVersion` is the shape of a finish the middleware makes. */
  model?: { specificationVersion?: unknown }
}

/**
 * Creates the middleware. Misuse (an unknown or ill-typed option) throws a
 * `TypeError`; model output never throws.
 *
 * - `transformParams`: assistant history loses leaked markup (a short note names the removed tools);
 *   with `preventiveDirective` / `recoveryNudge`, the prevention every dialect offers.
 * - `wrapGenerate`: text and reasoning content cleaned, recovered calls appended, finish rewritten.
 * - `wrapStream`: the same on the stream, as the deltas arrive.
 */
export function dsmlMiddleware(options: DsmlMiddlewareOptions = {}): DsmlLanguageModelMiddleware {
  const resolved = resolveMiddlewareOptions(options)
  if (resolved.mode === 'off') return { specificationVersion: 'v3' }
  // Written against the latest spec (v4); the others differ only in the finish reason's shape.
  const middleware: DsmlLanguageModelMiddleware = {
    specificationVersion: 'v3',

    async wrapGenerate({ doGenerate, params }: WrapOptions): Promise<LanguageModelV4GenerateResult> {
      // Model output never throws here (malformed parts are reported and passed on); an internal error is a bug, and surfaces.
      return repairGenerateResult(await doGenerate(), resolved, params)
    },

    async wrapStream({ doStream, params, model }: WrapOptions): Promise<LanguageModelV4StreamResult> {
      const result = await doStream()
      return { ...result, stream: result.stream.pipeThrough(createDsmlStreamTransform(resolved, params, model?.specificationVersion)) }
    },
  }
  if (resolved.repairHistory || resolved.preventiveDirective) {
    middleware.transformParams = async ({ params }: { params: LanguageModelV4CallOptions }): Promise<LanguageModelV4CallOptions> => {
      const prompt = transformPrompt(params.prompt, resolved, params)
      return prompt === params.prompt ? params : { ...params, prompt }
    }
  }
  return middleware
}

