/**
 * The HTTP status of a Lingma error: from the envelope's `statusCodeValue` /
 * `statusCode` (the body's before the outer one's), from a numeric code, or
 * from keywords in the error's code and type; 502 when nothing says.
 */
import { isRecord } from '../records.ts'

/** Spring `HttpStatus` names seen in `statusCode`. */
const STATUS_BY_NAME: Readonly<Record<string, number>> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
}

export const DEFAULT_ERROR_STATUS = 502

export function isErrorStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 400 && status <= 599
}

/** A whole number from a JSON number or a string of digits (`"429"`), else undefined. */
export function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (text === '') return undefined
  for (let index = text.charCodeAt(0) === 0x2d ? 1 : 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x30 || code > 0x39) return undefined
  }
  return Number(text)
}

/** The status a value of `statusCode` / `statusCodeValue` names: a number, digits, or a Spring keyword. */
export function statusOf(value: unknown): number | undefined {
  const number = integerOf(value)
  if (number !== undefined) return number
  if (typeof value === 'string') return STATUS_BY_NAME[value.trim().toUpperCase()]
  return undefined
}

/** The first error status (400–599) an envelope names: each record's `statusCodeValue`, then its `statusCode`, records in order. */
export function envelopeStatus(...records: unknown[]): number | undefined {
  for (const record of records) {
    if (!isRecord(record)) continue
    for (const key of ['statusCodeValue', 'statusCode']) {
      const status = statusOf(record[key])
      if (status !== undefined && isErrorStatus(status)) return status
    }
  }
  return undefined
}

/**
 * First match wins: a given status in 400–599; the resolved code as a number
 * in 400–599; the envelope's own code as such a number; then keywords
 * (`invalid_request_error` / `bad_request` 400, `rate_limit` 429,
 * `unauthorized` / `authentication` 401, `forbidden` / `permission` 403,
 * `not_found` 404, `timeout` 504, `server` / `internal` / `overload` 502,
 * `rate` 429, `unavailable` 502); otherwise 502.
 */
export function resolveErrorStatus(given: number | undefined, resolvedCode: string, resolvedType: string, outerCode: string): number {
  if (given !== undefined && isErrorStatus(given)) return given
  for (const code of [resolvedCode, outerCode]) {
    const number = integerOf(code)
    if (number !== undefined && isErrorStatus(number)) return number
  }
  const code = resolvedCode.trim().toLowerCase()
  const type = resolvedType.trim().toLowerCase()
  const either = (word: string): boolean => code.includes(word) || type.includes(word)
  if (code === 'invalid_request_error' || type === 'invalid_request_error' || either('bad_request')) return 400
  if (either('rate_limit')) return 429
  if (either('unauthorized') || either('authentication')) return 401
  if (type.includes('forbidden') || code.includes('permission')) return 403
  if (type.includes('not_found')) return 404
  if (type.includes('timeout')) return 504
  if (type.includes('server') || type.includes('internal') || type.includes('overload')) return 502
  if (type.includes('rate')) return 429
  if (type.includes('unavailable')) return 502
  return DEFAULT_ERROR_STATUS
}
