/**
 * `npm run fuzz [N]`: the property cases at scale, at least N cases in all
 * (default 1,000,000): the engine's (no throw, chunk invariance,
 * conservation, no marker outside fences, caps: `dsml/properties`), the
 * fused Chat Completions core's (the same bytes in every reading,
 * `chat-completions/fast-paths`), the dialects' (never a throw, the
 * shortcuts exact: `parts/dialect-fuzz`; Responses' repeated texts exact:
 * `responses/shortcuts`), and the part pipeline's (interleaved channels:
 * `parts/part-repair`, `parts/part-sanitizer`).
 * Each property runs its base count times a scale (`propertyRuns`), chosen
 * so the total reaches N. Prints the cases run, the time, and cases per
 * second; a counterexample fails the run with fast-check's report (make it a
 * regression test). CI runs `npm run fuzz -- 10000`.
 */
const SUITES = ['dsml/properties', 'chat-completions/fast-paths', 'parts/dialect-fuzz', 'responses/shortcuts', 'parts/part-repair', 'parts/part-sanitizer']
/** The cases of those properties at scale 1 (the sum of their base counts). */
const BASE_CASES = 8_440

const requested = Number(process.argv[2] ?? 1_000_000)
if (!Number.isInteger(requested) || requested < 1) {
  console.error(`usage: npm run fuzz [N]  (N: a whole number of cases, got ${process.argv[2]})`)
  process.exit(2)
}
process.env.DSML_FUZZ_SCALE = String(requested / BASE_CASES)
const { allSuites } = await import('../test/suites.ts')
const scope = globalThis as unknown as { dsmlPropertyCases?: number }
scope.dsmlPropertyCases = 0

const started = performance.now()
let failed = 0
for (const suite of allSuites.filter((candidate) => SUITES.includes(candidate.name))) {
  for (const testCase of suite.cases.filter((candidate) => /propert|random|generated/.test(candidate.name))) {
    const before = scope.dsmlPropertyCases
    const caseStarted = performance.now()
    try {
      await testCase.run()
      console.log(`ok   ${suite.name} > ${testCase.name} (${(scope.dsmlPropertyCases - before).toLocaleString('en')} cases, ${((performance.now() - caseStarted) / 1000).toFixed(1)} s)`)
    } catch (error) {
      failed++
      console.log(`FAIL ${suite.name} > ${testCase.name}\n${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
const seconds = (performance.now() - started) / 1000
const cases = scope.dsmlPropertyCases
console.log(`fuzz: ${cases.toLocaleString('en')} cases in ${seconds.toFixed(1)} s (${Math.round(cases / seconds).toLocaleString('en')} cases/s), ${failed} failing`)
process.exit(failed === 0 && cases >= requested ? 0 : 1)
