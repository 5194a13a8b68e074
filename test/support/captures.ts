/** The real captured leaks (`test/fixtures/leaks-real.json`, copied from the shared fixtures), typed. */
import leaks from '../fixtures/leaks-real.json' with { type: 'json' }

export interface Capture {
  id: string
  input: string
  /** The text as the real deltas it arrived in, when the capture kept them. */
  chunks?: string[]
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>
  expected_text: string
}

export const captures = leaks as unknown as Capture[]
