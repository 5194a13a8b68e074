/** The real captured leaks (`src/cli/leaks-real.json`, copied from the shared fixtures), typed. */
import type { DeclaredTool } from '../../src/dsml/tool-schema.ts'
import leaks from '../../src/cli/leaks-real.json' with { type: 'json' }

export interface Capture {
  id: string
  input: string
  /** The text as the real deltas it arrived in, when the capture kept them. */
  chunks?: string[]
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>
  expected_text: string
  /** The tools the capture's request declared, where the capture says (markup with no marker needs them). */
  tools?: DeclaredTool[]
}

export const captures = leaks as unknown as Capture[]

/** The options a capture's request implies: the tools it declared. */
export function declaredOptions(capture: Capture): { tools?: DeclaredTool[] } {
  return capture.tools === undefined ? {} : { tools: capture.tools }
}
