/**
 * Every portable suite, for vitest (`test/all.test.ts`) and for Deno and Bun
 * (`test/portable.ts`). The imports are explicit, one per `*.cases.ts` file
 * under test/, sorted by path; `test/suites-registry.test.ts` fails if a cases
 * file is missing here, or if the list is out of order.
 *
 * A cases file exports `suite` (one Suite) and/or `suites` (Suite[]).
 */
import type { Suite } from './support/harness.ts'
import { type CasesModule, suitesOf } from './support/cases-module.ts'
import * as adapters from './adapters.cases.ts'
import * as aiSdkFixtures from './ai-sdk/fixtures.cases.ts'
import * as aiSdkHistory from './ai-sdk/history.cases.ts'
import * as aiSdkPolicy from './ai-sdk/policy.cases.ts'
import * as aiSdkStream from './ai-sdk/stream.cases.ts'
import * as aiSdkWrapper from './ai-sdk/wrapper.cases.ts'
import * as anthropicDialect from './anthropic/dialect.cases.ts'
import * as anthropicShortcuts from './anthropic/shortcuts.cases.ts'
import * as chatCompletionsBehaviour from './chat-completions/behaviour.cases.ts'
import * as chatCompletionsCodec from './chat-completions/codec.cases.ts'
import * as chatCompletionsCollect from './chat-completions/collect.cases.ts'
import * as chatCompletionsFastPaths from './chat-completions/fast-paths.cases.ts'
import * as chatCompletionsFixtures from './chat-completions/fixtures.cases.ts'
import * as chatCompletionsRequestTools from './chat-completions/request-tools.cases.ts'
import * as chatCompletionsRequest from './chat-completions/request.cases.ts'
import * as chatCompletionsResponse from './chat-completions/response.cases.ts'
import * as cliLeaksReport from './cli/leaks-report.cases.ts'
import * as cliLogText from './cli/log-text.cases.ts'
import * as composition from './composition.cases.ts'
import * as dialectKitPlainJsonString from './dialect-kit/plain-json-string.cases.ts'
import * as dialectKitRepairBody from './dialect-kit/repair-body.cases.ts'
import * as dialectKitRepeatedBytes from './dialect-kit/repeated-bytes.cases.ts'
import * as dialectKitRunawayStop from './dialect-kit/runaway-stop.cases.ts'
import * as dsmlArguments from './dsml/arguments.cases.ts'
import * as dsmlCallStreaming from './dsml/call-streaming.cases.ts'
import * as dsmlCodeSpanGate from './dsml/code-span-gate.cases.ts'
import * as dsmlCodeSpanReading from './dsml/code-span-reading.cases.ts'
import * as dsmlConfig from './dsml/config.cases.ts'
import * as dsmlDiagnosticCounters from './dsml/diagnostic-counters.cases.ts'
import * as dsmlDrift from './dsml/drift.cases.ts'
import * as dsmlEngine from './dsml/engine.cases.ts'
import * as dsmlFamilies from './dsml/families.cases.ts'
import * as dsmlFenceBacklog from './dsml/fence-backlog.cases.ts'
import * as dsmlFenceTracker from './dsml/fence-tracker.cases.ts'
import * as dsmlFixtures from './dsml/fixtures.cases.ts'
import * as dsmlGrammar from './dsml/grammar.cases.ts'
import * as dsmlHold from './dsml/hold.cases.ts'
import * as dsmlMarkerReader from './dsml/marker-reader.cases.ts'
import * as dsmlNameReader from './dsml/name-reader.cases.ts'
import * as dsmlParse from './dsml/parse.cases.ts'
import * as dsmlPartialTags from './dsml/partial-tags.cases.ts'
import * as dsmlPeerParsers from './dsml/peer-parsers.cases.ts'
import * as dsmlPendingTags from './dsml/pending-tags.cases.ts'
import * as dsmlPositions from './dsml/positions.cases.ts'
import * as dsmlProperties from './dsml/properties.cases.ts'
import * as dsmlReadQueue from './dsml/read-queue.cases.ts'
import * as dsmlRepair from './dsml/repair.cases.ts'
import * as dsmlRunawayGuard from './dsml/runaway-guard.cases.ts'
import * as dsmlSanitizerStream from './dsml/sanitizer-stream.cases.ts'
import * as dsmlSanitizer from './dsml/sanitizer.cases.ts'
import * as dsmlScanner from './dsml/scanner.cases.ts'
import * as dsmlSentinel from './dsml/sentinel.cases.ts'
import * as dsmlStream from './dsml/stream.cases.ts'
import * as dsmlTagLexer from './dsml/tag-lexer.cases.ts'
import * as dsmlTagStartSearch from './dsml/tag-start-search.cases.ts'
import * as dsmlToolNameBody from './dsml/tool-name-body.cases.ts'
import * as dsmlToolSchema from './dsml/tool-schema.cases.ts'
import * as dsmlUnrecoveredNotes from './dsml/unrecovered-notes.cases.ts'
import * as dsmlWildCaptures from './dsml/wild-captures.cases.ts'
import * as gatewayHandler from './gateway/handler.cases.ts'
import * as gatewayReplayUpstream from './gateway/replay-upstream.cases.ts'
import * as jsonKnownStrings from './json-known-strings.cases.ts'
import * as jsonPieces from './json-pieces.cases.ts'
import * as jsonReader from './json-reader.cases.ts'
import * as jsonText from './json-text.cases.ts'
import * as lingmaEnvelopes from './lingma/envelopes.cases.ts'
import * as lingmaFixtures from './lingma/fixtures.cases.ts'
import * as lingmaHelpers from './lingma/helpers.cases.ts'
import * as lingmaRequest from './lingma/request.cases.ts'
import * as lingmaResponse from './lingma/response.cases.ts'
import * as lingmaStreams from './lingma/streams.cases.ts'
import * as longTexts from './long-texts.cases.ts'
import * as partsDiagnosticHook from './parts/diagnostic-hook.cases.ts'
import * as partsDialectFuzz from './parts/dialect-fuzz.cases.ts'
import * as partsHistoryRepair from './parts/history-repair.cases.ts'
import * as partsHistorySlices from './parts/history-slices.cases.ts'
import * as partsPartRepair from './parts/part-repair.cases.ts'
import * as partsPartSanitizerStream from './parts/part-sanitizer-stream.cases.ts'
import * as partsPartSanitizer from './parts/part-sanitizer.cases.ts'
import * as partsPrevention from './parts/prevention.cases.ts'
import * as partsRequestOptions from './parts/request-options.cases.ts'
import * as partsStreamedCalls from './parts/streamed-calls.cases.ts'
import * as partsSynthesizer from './parts/synthesizer.cases.ts'
import * as repairFetch from './repair-fetch/repair-fetch.cases.ts'
import * as requestPaths from './request-paths.cases.ts'
import * as responsesCleanJson from './responses/clean-json.cases.ts'
import * as responsesDialect from './responses/dialect.cases.ts'
import * as responsesShortcuts from './responses/shortcuts.cases.ts'
import * as sseSseDecoder from './sse/sse-decoder.cases.ts'
import * as sseSseEncoder from './sse/sse-encoder.cases.ts'
import * as sseSseStreams from './sse/sse-streams.cases.ts'
import * as sseUtf8RoundTrip from './sse/utf8-round-trip.cases.ts'
import * as supportSelf from './support/self.cases.ts'
import * as textBuilder from './text-builder.cases.ts'
import * as workSlices from './work-slices.cases.ts'

const modules: Record<string, CasesModule> = {
  './adapters.cases.ts': adapters,
  './ai-sdk/fixtures.cases.ts': aiSdkFixtures,
  './ai-sdk/history.cases.ts': aiSdkHistory,
  './ai-sdk/policy.cases.ts': aiSdkPolicy,
  './ai-sdk/stream.cases.ts': aiSdkStream,
  './ai-sdk/wrapper.cases.ts': aiSdkWrapper,
  './anthropic/dialect.cases.ts': anthropicDialect,
  './anthropic/shortcuts.cases.ts': anthropicShortcuts,
  './chat-completions/behaviour.cases.ts': chatCompletionsBehaviour,
  './chat-completions/codec.cases.ts': chatCompletionsCodec,
  './chat-completions/collect.cases.ts': chatCompletionsCollect,
  './chat-completions/fast-paths.cases.ts': chatCompletionsFastPaths,
  './chat-completions/fixtures.cases.ts': chatCompletionsFixtures,
  './chat-completions/request-tools.cases.ts': chatCompletionsRequestTools,
  './chat-completions/request.cases.ts': chatCompletionsRequest,
  './chat-completions/response.cases.ts': chatCompletionsResponse,
  './cli/leaks-report.cases.ts': cliLeaksReport,
  './cli/log-text.cases.ts': cliLogText,
  './composition.cases.ts': composition,
  './dialect-kit/plain-json-string.cases.ts': dialectKitPlainJsonString,
  './dialect-kit/repair-body.cases.ts': dialectKitRepairBody,
  './dialect-kit/repeated-bytes.cases.ts': dialectKitRepeatedBytes,
  './dialect-kit/runaway-stop.cases.ts': dialectKitRunawayStop,
  './dsml/arguments.cases.ts': dsmlArguments,
  './dsml/call-streaming.cases.ts': dsmlCallStreaming,
  './dsml/code-span-gate.cases.ts': dsmlCodeSpanGate,
  './dsml/code-span-reading.cases.ts': dsmlCodeSpanReading,
  './dsml/config.cases.ts': dsmlConfig,
  './dsml/diagnostic-counters.cases.ts': dsmlDiagnosticCounters,
  './dsml/drift.cases.ts': dsmlDrift,
  './dsml/engine.cases.ts': dsmlEngine,
  './dsml/families.cases.ts': dsmlFamilies,
  './dsml/fence-backlog.cases.ts': dsmlFenceBacklog,
  './dsml/fence-tracker.cases.ts': dsmlFenceTracker,
  './dsml/fixtures.cases.ts': dsmlFixtures,
  './dsml/grammar.cases.ts': dsmlGrammar,
  './dsml/hold.cases.ts': dsmlHold,
  './dsml/marker-reader.cases.ts': dsmlMarkerReader,
  './dsml/name-reader.cases.ts': dsmlNameReader,
  './dsml/parse.cases.ts': dsmlParse,
  './dsml/partial-tags.cases.ts': dsmlPartialTags,
  './dsml/peer-parsers.cases.ts': dsmlPeerParsers,
  './dsml/pending-tags.cases.ts': dsmlPendingTags,
  './dsml/positions.cases.ts': dsmlPositions,
  './dsml/properties.cases.ts': dsmlProperties,
  './dsml/read-queue.cases.ts': dsmlReadQueue,
  './dsml/repair.cases.ts': dsmlRepair,
  './dsml/runaway-guard.cases.ts': dsmlRunawayGuard,
  './dsml/sanitizer-stream.cases.ts': dsmlSanitizerStream,
  './dsml/sanitizer.cases.ts': dsmlSanitizer,
  './dsml/scanner.cases.ts': dsmlScanner,
  './dsml/sentinel.cases.ts': dsmlSentinel,
  './dsml/stream.cases.ts': dsmlStream,
  './dsml/tag-lexer.cases.ts': dsmlTagLexer,
  './dsml/tag-start-search.cases.ts': dsmlTagStartSearch,
  './dsml/tool-name-body.cases.ts': dsmlToolNameBody,
  './dsml/tool-schema.cases.ts': dsmlToolSchema,
  './dsml/unrecovered-notes.cases.ts': dsmlUnrecoveredNotes,
  './dsml/wild-captures.cases.ts': dsmlWildCaptures,
  './gateway/handler.cases.ts': gatewayHandler,
  './gateway/replay-upstream.cases.ts': gatewayReplayUpstream,
  './json-known-strings.cases.ts': jsonKnownStrings,
  './json-pieces.cases.ts': jsonPieces,
  './json-reader.cases.ts': jsonReader,
  './json-text.cases.ts': jsonText,
  './lingma/envelopes.cases.ts': lingmaEnvelopes,
  './lingma/fixtures.cases.ts': lingmaFixtures,
  './lingma/helpers.cases.ts': lingmaHelpers,
  './lingma/request.cases.ts': lingmaRequest,
  './lingma/response.cases.ts': lingmaResponse,
  './lingma/streams.cases.ts': lingmaStreams,
  './long-texts.cases.ts': longTexts,
  './parts/diagnostic-hook.cases.ts': partsDiagnosticHook,
  './parts/dialect-fuzz.cases.ts': partsDialectFuzz,
  './parts/history-repair.cases.ts': partsHistoryRepair,
  './parts/history-slices.cases.ts': partsHistorySlices,
  './parts/part-repair.cases.ts': partsPartRepair,
  './parts/part-sanitizer-stream.cases.ts': partsPartSanitizerStream,
  './parts/part-sanitizer.cases.ts': partsPartSanitizer,
  './parts/prevention.cases.ts': partsPrevention,
  './parts/request-options.cases.ts': partsRequestOptions,
  './parts/streamed-calls.cases.ts': partsStreamedCalls,
  './parts/synthesizer.cases.ts': partsSynthesizer,
  './repair-fetch/repair-fetch.cases.ts': repairFetch,
  './request-paths.cases.ts': requestPaths,
  './responses/clean-json.cases.ts': responsesCleanJson,
  './responses/dialect.cases.ts': responsesDialect,
  './responses/shortcuts.cases.ts': responsesShortcuts,
  './sse/sse-decoder.cases.ts': sseSseDecoder,
  './sse/sse-encoder.cases.ts': sseSseEncoder,
  './sse/sse-streams.cases.ts': sseSseStreams,
  './sse/utf8-round-trip.cases.ts': sseUtf8RoundTrip,
  './support/self.cases.ts': supportSelf,
  './text-builder.cases.ts': textBuilder,
  './work-slices.cases.ts': workSlices,
}

/** Cases-file path (relative to test/) to the suites it exports, in import order. */
export const suitesByFile: ReadonlyMap<string, readonly Suite[]> = new Map(
  Object.entries(modules).map(([path, module]) => [path, suitesOf(path, module)]),
)

export const allSuites: Suite[] = [...suitesByFile.values()].flat()

const seen = new Set<string>()
for (const suite of allSuites) {
  if (seen.has(suite.name)) throw new Error(`Duplicate suite name: "${suite.name}"`)
  seen.add(suite.name)
}
