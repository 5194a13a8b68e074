/**
 * How many cases a property runs: its base count, times the fuzz scale
 * (`DSML_FUZZ_SCALE`, set by `npm run fuzz`; 1 in `npm test`). Every run
 * counted, so the fuzz runner can say how many cases it ran.
 */
interface FuzzGlobals {
  process?: { env?: Record<string, string | undefined> }
  dsmlPropertyCases?: number
}

const scope = globalThis as unknown as FuzzGlobals

export function propertyRuns(base: number): number {
  const scale = Number(scope.process?.env?.DSML_FUZZ_SCALE ?? 1)
  const runs = Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)))
  scope.dsmlPropertyCases = (scope.dsmlPropertyCases ?? 0) + runs
  return runs
}
