/**
 * Lingma error envelopes → one OpenAI-style error with a status:
 * `provider_error` with `details` as a JSON string or an object, an
 * OpenAI-style `{error}` (object or text), and the short `{code, message}`
 * frame (`{"code":"418","message":"Unknown sse issue"}`). Unlike the Go
 * predecessor, the status inside `body` is read before the outer one, and a
 * numeric 4xx/5xx code with a message is an error.
 */
import { openEnvelope, stripSsePrefix } from './envelope.ts'
import { isRecord } from '../records.ts'
import { envelopeStatus, integerOf, resolveErrorStatus } from './error-status.ts'
import { parseBoundedJson } from '../json-text.ts'

export interface LingmaErrorFields {
  message: string
  type: string
  /** `''` when there is none. */
  code: string
}

export interface LingmaErrorInfo extends LingmaErrorFields {
  /** The HTTP status the error maps to (400–599). */
  status: number
}

export const UNKNOWN_ERROR_MESSAGE = 'unknown error from lingma'

/** A field as text: strings as they are, numbers and booleans written out, anything else `''`. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return ''
}

/** An error code as text (`400` → `"400"`; objects as JSON). */
function codeOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function orOuter(inner: string, outer: string): string {
  return inner.trim() !== '' ? inner : outer
}

function present(record: Record<string, unknown>, key: string): boolean {
  return record[key] !== undefined && record[key] !== null
}

function messageOf(record: Record<string, unknown>): string {
  const message = textOf(record.message)
  return message !== '' ? message : textOf(record.msg)
}

/** The inner payload of `details`: an `error` object or text, else its own message / type / code; each wins only when not blank. */
function fromInnerPayload(payload: unknown, outer: LingmaErrorFields): LingmaErrorFields {
  if (!isRecord(payload)) return outer
  const error = payload.error
  if (isRecord(error)) {
    return { message: orOuter(messageOf(error), outer.message), type: orOuter(textOf(error.type), outer.type), code: orOuter(codeOf(error.code), outer.code) }
  }
  if (typeof error === 'string' && error.trim() !== '') return { ...outer, message: error.trim() }
  return { message: orOuter(messageOf(payload), outer.message), type: orOuter(textOf(payload.type), outer.type), code: orOuter(codeOf(payload.code), outer.code) }
}

/**
 * Resolves the `details` of a provider error (a parsed JSON value): missing,
 * `null` or blank keeps the outer fields; a string holding JSON is parsed as
 * the inner payload; a string that starts like JSON but is not keeps the
 * outer fields; other text becomes the message; an object is the inner
 * payload. Inner values win when not blank.
 */
export function resolveErrorDetails(outer: LingmaErrorFields, details: unknown): LingmaErrorFields {
  if (details === undefined || details === null) return { ...outer }
  if (typeof details === 'string') {
    const text = details.trim()
    if (text === '') return { ...outer }
    const parsed = parseBoundedJson(text)
    if (parsed === undefined) {
      if (text.startsWith('{') || text.startsWith('[')) return { ...outer }
      return { ...outer, message: text }
    }
    return fromInnerPayload(parsed.value, outer)
  }
  return fromInnerPayload(details, outer)
}

function withDefaults(fields: LingmaErrorFields, type: string, status: number): LingmaErrorInfo {
  return {
    status,
    message: fields.message === '' ? UNKNOWN_ERROR_MESSAGE : fields.message,
    type: fields.type === '' ? type : fields.type,
    code: fields.code,
  }
}

/** An OpenAI-style `{error}`: an object (its details resolved) or text. */
function fromErrorNode(carrier: Record<string, unknown>, error: unknown, given: number | undefined): LingmaErrorInfo {
  if (!isRecord(error)) {
    const message = textOf(error)
    return { status: given ?? 500, message: message === '' ? UNKNOWN_ERROR_MESSAGE : message, type: 'api_error', code: '' }
  }
  const outer = { message: messageOf(error), type: textOf(error.type), code: codeOf(error.code) }
  const details = present(error, 'details') ? error.details : carrier.details
  const fields = resolveErrorDetails(outer, details)
  const status = given ?? integerOf(error.status) ?? integerOf(error.code)
  return withDefaults(fields, 'api_error', resolveErrorStatus(status, fields.code, fields.type || 'api_error', outer.code))
}

/** Does a root-level `{code, message, type, details}` say "error"? */
function isRootError(carrier: Record<string, unknown>, given: number | undefined): boolean {
  const hasCode = present(carrier, 'code')
  const hasMessage = present(carrier, 'message') || present(carrier, 'msg')
  const hasDetails = present(carrier, 'details')
  const code = codeOf(carrier.code).toLowerCase()
  const type = textOf(carrier.type).toLowerCase()
  const numericCode = integerOf(carrier.code)
  if (hasCode && hasMessage) {
    if (code === 'provider_error' || code.includes('error') || type.includes('error') || hasDetails || given !== undefined) return true
    // The short frame the Go predecessor missed: `{"code":"418","message":"Unknown sse issue"}`.
    if (numericCode !== undefined && numericCode >= 400 && numericCode <= 599) return true
    return false
  }
  if (given !== undefined && hasMessage) return true
  return hasDetails && (hasCode || present(carrier, 'type'))
}

/**
 * The error a frame carries, or undefined. `outer` is the frame's JSON,
 * `inner` what its `body` holds (the same object when there is no body);
 * `forced`: the frame came as `event: error`, so it is an error whatever it says.
 */
export function errorOfFrame(outer: unknown, inner: unknown, forced = false): LingmaErrorInfo | undefined {
  const carrier = isRecord(inner) ? inner : isRecord(outer) ? outer : undefined
  const given = envelopeStatus(inner, outer)
  if (carrier === undefined) {
    if (!forced) return undefined
    return { status: given ?? 502, message: textOf(inner) || UNKNOWN_ERROR_MESSAGE, type: 'api_error', code: '' }
  }
  if (present(carrier, 'error')) return fromErrorNode(carrier, carrier.error, given)
  if (!forced && !isRootError(carrier, given)) return undefined
  const outerFields = { message: messageOf(carrier), type: textOf(carrier.type), code: codeOf(carrier.code) }
  const fields = resolveErrorDetails(outerFields, carrier.details)
  return withDefaults(fields, 'provider_error', resolveErrorStatus(given, fields.code, fields.type || 'provider_error', outerFields.code))
}

/** The error in one Lingma SSE line or JSON body, or undefined (`[DONE]`, normal chunks, non-JSON). */
export function parseError(line: string): LingmaErrorInfo | undefined {
  const data = stripSsePrefix(line)
  if (data === undefined || data === '') return undefined
  const frame = openEnvelope(data)
  if (frame.kind !== 'json') return undefined
  return errorOfFrame(frame.outer, frame.inner)
}

/** The error object a Chat Completions client reads (`data: {"error": …}`), with the status beside OpenAI's fields. */
export interface ChatCompletionsStreamError {
  message: string
  type: string
  param: null
  code: string | null
  status: number
}

/**
 * A Lingma error as the error object a Chat Completions client reads (`data: {"error": …}`), with
 * its HTTP status.
 */
export function toChatCompletionsError(info: LingmaErrorInfo): ChatCompletionsStreamError {
  return { message: info.message, type: info.type, param: null, code: info.code === '' ? null : info.code, status: info.status }
}

/** The stream ended without `[DONE]`: never a made-up finish. */
export const UNEXPECTED_EOF: Readonly<LingmaErrorInfo> = Object.freeze({
  status: 502,
  message: 'The Lingma stream ended before [DONE] (unexpected EOF)',
  type: 'api_error',
  code: 'unexpected_eof',
})
