/**
 * A meter that remembers what was recorded through it (a `DsmlMeter`, as
 * OpenTelemetry's `Meter` is): each instrument's values with their
 * attributes, and how many times each instrument was made.
 */
import type { DsmlMeter, MetricAttributes } from '../../src/dsml/index.ts'

export interface Recorded {
  value: number
  attributes: MetricAttributes
}

export interface FakeMeter extends DsmlMeter {
  /** Values recorded, by instrument name. */
  readonly recorded: Map<string, Recorded[]>
  /** Instruments made, by name (a name made twice is counted twice). */
  readonly made: Map<string, number>
  /** The sum of an instrument's values, over the records whose attributes include `where`. */
  sum(name: string, where?: MetricAttributes): number
}

export function fakeMeter(): FakeMeter {
  const recorded = new Map<string, Recorded[]>()
  const made = new Map<string, number>()
  const instrument = (name: string) => {
    made.set(name, (made.get(name) ?? 0) + 1)
    const records = recorded.get(name) ?? []
    recorded.set(name, records)
    const record = (value: number, attributes: MetricAttributes = {}): void => void records.push({ value, attributes })
    return { add: record, record }
  }
  return {
    recorded,
    made,
    createCounter: instrument,
    createHistogram: instrument,
    sum(name, where = {}) {
      return (recorded.get(name) ?? []).filter((entry) => Object.entries(where).every(([key, value]) => entry.attributes[key] === value)).reduce((total, entry) => total + entry.value, 0)
    },
  }
}
