/** A JSON object (not null, not an array): what every reader of upstream JSON checks before reading a field. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
