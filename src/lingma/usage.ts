/**
 * Lingma token usage across envelope revisions → OpenAI Chat Completions
 * usage. Every alias family is read (snake case, camel case, `*TokenCount`,
 * the Anthropic-style cache names, nested details); the first non-zero value
 * wins (a `prompt_tokens: 0` does not hide an `inputTokens: 12`); numeric
 * strings count; the total is recomputed when missing or 0. The Go
 * predecessor's `NormalizeUsage` read snake case only, chose by existence,
 * and turned camel-case usage into zeros.
 */
import { isRecord } from '../records.ts'
import { integerOf } from './error-status.ts'

/** Every counter, both spellings filled (the Go `Usage` after `Consolidate`). */
export interface ConsolidatedUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  input_tokens: number
  output_tokens: number
  cached_tokens: number
  reasoning_tokens: number
}

/** OpenAI Chat Completions usage; the details only when their counter is above 0. */
export interface ChatCompletionsUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  prompt_tokens_details?: { cached_tokens: number }
  completion_tokens_details?: { reasoning_tokens: number }
}

const PROMPT = ['prompt_tokens', 'promptTokens', 'input_tokens', 'inputTokens', 'inputTokenCount', 'promptTokenCount']
const COMPLETION = ['completion_tokens', 'completionTokens', 'output_tokens', 'outputTokens', 'outputTokenCount', 'completionTokenCount']
const TOTAL = ['total_tokens', 'totalTokens', 'totalTokenCount']
/** Paths, a dot between levels. Cache creation is not a cache hit, so it is not read. */
const CACHED = [
  'prompt_tokens_details.cached_tokens',
  'input_tokens_details.cached_tokens',
  'promptTokensDetails.cachedTokens',
  'inputTokensDetails.cachedTokens',
  'cached_tokens',
  'cachedTokens',
  'cache_read_input_tokens',
  'cacheReadInputTokens',
]
const REASONING = [
  'completion_tokens_details.reasoning_tokens',
  'output_tokens_details.reasoning_tokens',
  'completionTokensDetails.reasoningTokens',
  'outputTokensDetails.reasoningTokens',
  'reasoning_tokens',
  'reasoningTokens',
  'thinking_tokens',
  'thinkingTokens',
]

function valueAt(record: Record<string, unknown>, path: string): unknown {
  const dot = path.indexOf('.')
  if (dot === -1) return record[path]
  const nested = record[path.slice(0, dot)]
  return isRecord(nested) ? nested[path.slice(dot + 1)] : undefined
}

/** The first non-zero count among `paths` (numbers or digit strings, not below 0), else 0. */
function firstCount(record: Record<string, unknown>, paths: readonly string[]): number {
  for (const path of paths) {
    const count = integerOf(valueAt(record, path))
    if (count !== undefined && count > 0) return count
  }
  return 0
}

/** Reads every alias of a usage object; a non-object gives all zeros. */
export function consolidateUsage(usage: unknown): ConsolidatedUsage {
  const record = isRecord(usage) ? usage : {}
  const prompt = firstCount(record, PROMPT)
  const completion = firstCount(record, COMPLETION)
  const total = firstCount(record, TOTAL)
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: total === 0 ? prompt + completion : total,
    input_tokens: prompt,
    output_tokens: completion,
    cached_tokens: firstCount(record, CACHED),
    reasoning_tokens: firstCount(record, REASONING),
  }
}

/** OpenAI Chat Completions usage from any Lingma usage object; undefined when `usage` is not an object. */
export function normalizeUsage(usage: unknown): ChatCompletionsUsage | undefined {
  if (!isRecord(usage)) return undefined
  const all = consolidateUsage(usage)
  const normalized: ChatCompletionsUsage = {
    prompt_tokens: all.prompt_tokens,
    completion_tokens: all.completion_tokens,
    total_tokens: all.total_tokens,
  }
  if (all.cached_tokens > 0) normalized.prompt_tokens_details = { cached_tokens: all.cached_tokens }
  if (all.reasoning_tokens > 0) normalized.completion_tokens_details = { reasoning_tokens: all.reasoning_tokens }
  return normalized
}

/** All counters 0: the placeholder usage some intermediate frames carry. */
export function isEmptyUsage(usage: ChatCompletionsUsage): boolean {
  return usage.prompt_tokens === 0 && usage.completion_tokens === 0 && usage.total_tokens === 0
}
