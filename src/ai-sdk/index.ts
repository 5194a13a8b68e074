/**
 * `dsml-streams/ai-sdk`: an AI SDK 7 language model middleware (spec `v4`)
 * that repairs leaked DSML tool calls in any wrapped model.
 *
 * @example
 * ```ts
 * import { wrapLanguageModel } from 'ai'
 * import { dsmlMiddleware } from 'dsml-streams/ai-sdk'
 *
 * const repaired = wrapLanguageModel({ model, middleware: dsmlMiddleware() })
 * ```
 *
 * `ai` and `@ai-sdk/provider` are optional peer dependencies: this subpath
 * only imports types from `@ai-sdk/provider`, nothing at run time.
 */
import type { LanguageModelV4Middleware } from '@ai-sdk/provider'
import { repairGenerateResult } from './generate.ts'
import { transformPrompt } from './history.ts'
import { resolveMiddlewareOptions, type DsmlMiddlewareOptions } from './options.ts'
import { createDsmlStreamTransform } from './stream-transformer.ts'

export { historyNote } from '../parts/history-repair.ts'
export type { DsmlMiddlewareDiagnostic, DsmlMiddlewareDiagnosticKind, DsmlMiddlewareOptions } from './options.ts'

/**
 * Creates the middleware. Misuse (an unknown or ill-typed option) throws a
 * `TypeError`; model output never throws.
 *
 * - `transformParams`: assistant history loses leaked markup (a short note names the removed tools);
 *   with `preventiveDirective` / `recoveryNudge`, the prevention every dialect offers.
 * - `wrapGenerate`: text and reasoning content cleaned, recovered calls appended, finish rewritten.
 * - `wrapStream`: the same on the stream, as the deltas arrive.
 */
export function dsmlMiddleware(options: DsmlMiddlewareOptions = {}): LanguageModelV4Middleware {
  const resolved = resolveMiddlewareOptions(options)
  if (resolved.mode === 'off') return { specificationVersion: 'v4' }
  const middleware: LanguageModelV4Middleware = {
    specificationVersion: 'v4',

    async wrapGenerate({ doGenerate, params }) {
      // Model output never throws here (malformed parts are reported and passed on); an internal error is a bug, and surfaces.
      return repairGenerateResult(await doGenerate(), resolved, params)
    },

    async wrapStream({ doStream, params }) {
      const result = await doStream()
      return { ...result, stream: result.stream.pipeThrough(createDsmlStreamTransform(resolved, params)) }
    },
  }
  if (resolved.repairHistory || resolved.preventiveDirective) {
    middleware.transformParams = async ({ params }) => {
      const prompt = transformPrompt(params.prompt, resolved, params)
      return prompt === params.prompt ? params : { ...params, prompt }
    }
  }
  return middleware
}

