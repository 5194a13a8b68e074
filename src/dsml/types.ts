/**
 * Public types of the DSML engine.
 *
 * Conservation (the policy, docs/accepts-and-policy.md): for every input, the concatenation, in event
 * order, of each `text` event's `text`, each `tool-call` event's `source` and
 * each `diagnostic` event's `diagnostic.text` is exactly the input.
 */

/** A tool call recovered from leaked DSML markup. */
export interface ToolCall {
  /** Unique id (`call_` + random, or the result of `options.generateId`). */
  id: string
  /** The tool name, as written in the markup. */
  name: string
  /** Arguments, built without prototype pollution. */
  arguments: Record<string, unknown>
}

/**
 * What a diagnostic reports.
 *
 * - `recovered-call`: a call was recovered (informational; `text` is empty).
 * - `dropped-markup`: markup was removed without producing a call (fragments,
 *   stray closers, end-of-sentence tokens, rejected or incomplete invokes,
 *   `strip` mode). `text` is the exact removed text.
 * - `unknown-tool`: a complete call named a tool outside `knownTools`; removed.
 * - `duplicate-call`: a complete call repeated a native call noted with
 *   `noteNativeToolCall`; removed.
 * - `hold-limit`: held markup grew past `maxHoldChars`; it was removed and
 *   reported instead of growing.
 * - `invalid-json`: a `string="false"` value was not JSON (or held a number a
 *   double cannot hold); the raw string was used (informational; `text` is empty).
 * - `drifted-markup`: inside an open block, a tag whose marker word drifted
 *   from `DSML` (`</|EPSE|parameter>`) was read as the block's marker
 *   (informational, once per block; `text` is empty).
 * - `suppressed-call` (the settlement of recovered calls): a recovered call
 *   was not emitted because the message had native tool calls, or finished
 *   for another reason than `stop` (`length`, `content_filter`), or never
 *   finished. `text` is the call's markup. (`duplicate-call` from the
 *   settlement: the same call as a native one, or as one emitted from the
 *   other channel; `text` is the call's markup too.)
 * - `malformed-chunk` (streams): a provider chunk could not be read; it was
 *   forwarded unchanged. `text` is empty.
 * - `stream-mismatch` (`streamToolCalls`): a streamed call's arguments,
 *   read whole, are not what was streamed (a duplicate parameter, a value
 *   the schema changed); the call ends as streamed. `text` is empty.
 * - `streamed-call-kept` (the settlement, `streamToolCalls`): a message
 *   had native calls besides calls streamed as they formed; both are kept
 *   (a streamed call cannot be taken back). `text` is empty.
 * - `runaway-markup` (`runawayRepeat`): inside markup, one tag or one
 *   character repeated past the limit. Once with empty `text` when the
 *   engine stops (a stream ends the message there, finish `length`); then
 *   everything after it is removed, reported with this kind and its `text`.
 */
export type DiagnosticKind =
  | 'recovered-call'
  | 'dropped-markup'
  | 'unknown-tool'
  | 'duplicate-call'
  | 'hold-limit'
  | 'invalid-json'
  | 'drifted-markup'
  | 'schema-mismatch'
  | 'suppressed-call'
  | 'malformed-chunk'
  | 'runaway-markup'
  | 'stream-mismatch'
  | 'streamed-call-kept'

export interface Diagnostic {
  kind: DiagnosticKind
  /** The exact input text this diagnostic removed (empty when it removed nothing). */
  text: string
  /** The tool the markup named, when it named one. */
  tool?: string
  /** A short human-readable explanation. */
  message: string
  /** The id of the call a `recovered-call`, `suppressed-call` or `duplicate-call` of the settlement is about. */
  toolCallId?: string
}

export type SanitizerEvent =
  | { type: 'text'; text: string }
  /** A call recovered from markup; `streamed`: its start and arguments went out before (`streamToolCalls`), this ends it. */
  | { type: 'tool-call'; call: ToolCall; source: string; streamed?: true }
  | { type: 'diagnostic'; diagnostic: Diagnostic }
  /** `streamToolCalls`: a call begins (its invoke's name was read). */
  | { type: 'tool-call-start'; id: string; name: string }
  /** `streamToolCalls`: the next piece of a started call's arguments, as JSON text. */
  | { type: 'tool-call-delta'; id: string; delta: string }

/** A native tool call the upstream sent for the same message. */
export interface NativeToolCall {
  name: string
  /** An object, or its JSON text (as OpenAI's `function.arguments`). */
  arguments: unknown
}

/** The incremental engine: feed text, get events; `end()` resolves everything held. */
export interface DsmlSanitizer {
  /** Feed the next chunk of text. Returns the events it completed. */
  feed(chunk: string): SanitizerEvent[]
  /** End of input: resolve everything held. The sanitizer can't be fed afterwards. */
  end(): SanitizerEvent[]
  /**
   * The current text ends (a message's finish): everything held is resolved
   * as by `end()`, and the sanitizer goes on as if new for the next text —
   * fences closed, nothing held — keeping only the native calls it was told
   * about.
   */
  endText(): SanitizerEvent[]
  /**
   * Resolve what is held as if the text ended here, and go on: fence state
   * and noted native calls are kept. For a text interrupted by something else
   * (a reasoning delta, a native tool call) that may continue after it. One
   * thing stays held: a tag start whose marker is still undecided (`<`, `</`,
   * `<‹DS` (‹ a bar) at the end of the text, and any partial tags just before it).
   * Released, the text that follows could complete it into a marker; the
   * next text or `end()` decides it. `heldChars` counts it.
   */
  flush(): SanitizerEvent[]
  /**
   * Report a native call of the same message, so an identical recovered call
   * is removed (`duplicate-call`). The engine does not settle a message: a
   * different recovered call is still emitted. The rule every other entry
   * point applies — a message with any native call emits no recovered call —
   * is the settlement's (`settleRecoveredCalls`), run by the part pipeline
   * (`createToolCallSynthesizer`, and every dialect and the AI SDK through it).
   */
  noteNativeToolCall(call: NativeToolCall): void
  /** Number of input characters currently held back (never above `maxHoldChars`). */
  readonly heldChars: number
  /**
   * A chunk with none of the characters `disturbsIdleSanitizer` names (`<`,
   * bars, line breaks, backticks, backslashes) would come out unchanged and leave the sanitizer
   * exactly as it is: nothing held, nothing just removed, mid-line. A caller
   * may skip feeding such a chunk.
   */
  readonly idle: boolean
}
