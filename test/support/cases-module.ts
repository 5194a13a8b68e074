/** A `*.cases.ts` module exports `suite` (one Suite) and/or `suites` (Suite[]); these read it. */
import type { Suite } from './harness.ts'

export interface CasesModule {
  suite?: Suite
  suites?: readonly Suite[]
}

/** The suites a cases file exports, in order; throws when it exports neither. */
export function suitesOf(path: string, module: CasesModule): Suite[] {
  const found = [...(module.suite ? [module.suite] : []), ...(module.suites ?? [])]
  if (found.length === 0) throw new Error(`${path} exports neither \`suite\` nor \`suites\``)
  return found
}
