export { containsDsmlSentinel } from './sentinel.ts'
export { DsmlSanitizerStream, type DsmlSanitizerStreamOptions } from './sanitizer-stream.ts'
export { createDsmlSanitizer } from './sanitizer.ts'
export { parseDsml, type ParseDsmlResult, sanitizeText, type SanitizeTextResult } from './sanitize-text.ts'
export {
  generateCallId,
  type DsmlPreset,
  type DsmlRescues,
  type DsmlSanitizerOptions,
  resolveDsmlSanitizerOptions,
  type ResolvedDsmlSanitizerOptions,
} from './options.ts'
export type { DsmlMeter, MetricAttributes } from './diagnostic-counters.ts'
export type { DeclaredTool, ToolSchema } from './tool-schema.ts'
export type { Diagnostic, DiagnosticKind, DsmlSanitizer, NativeToolCall, SanitizerEvent, ToolCall } from './types.ts'
