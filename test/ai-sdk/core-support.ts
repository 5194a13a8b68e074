/**
 * The AI SDK stream stage's synchronous core, driven part by part. It is not
 * exported by the package, so the cases that use it run on the sources only
 * (test/package-tables.ts); test/ai-sdk/support.ts holds the public helpers.
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import type { DsmlMiddlewareDiagnostic, DsmlMiddlewareOptions } from '../../src/ai-sdk/index.ts'
import { resolveMiddlewareOptions } from '../../src/ai-sdk/options.ts'
import { createStreamRepair } from '../../src/ai-sdk/stream-transformer.ts'
import { callOptions, counterIds, type Part } from './support.ts'

/**
 * Drives the stream stage's synchronous core (what `wrapStream` pipes
 * through) one part at a time: `outputs[i]` is what pushing `parts[i]` gave,
 * `end` what the end of the stream gave.
 */
export function driveCore(
  parts: readonly Part[],
  options: DsmlMiddlewareOptions = {},
  params: LanguageModelV4CallOptions = callOptions(),
): { outputs: Part[][]; end: Part[]; all: Part[]; diagnostics: DsmlMiddlewareDiagnostic[] } {
  const diagnostics: DsmlMiddlewareDiagnostic[] = []
  const resolved = resolveMiddlewareOptions({ generateId: counterIds(), ...options, onDiagnostic: (diagnostic) => void diagnostics.push(diagnostic) })
  const core = createStreamRepair(resolved, params)
  const outputs = parts.map((part) => core.push(part))
  const end = core.end()
  return { outputs, end, all: [...outputs.flat(), ...end], diagnostics }
}
