/** Framework-free assertions, so test tables run under vitest, Deno and Bun alike. */

export class AssertionError extends Error {
  override name = 'AssertionError'
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner) => (typeof inner === 'bigint' ? `${inner}n` : inner), 2) ?? String(value)
  } catch {
    return String(value)
  }
}

function deepEqualAt(actual: unknown, expected: unknown, path: string): string | undefined {
  if (Object.is(actual, expected)) return undefined
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) {
    return `${path || 'value'}: expected ${show(expected)}, got ${show(actual)}`
  }
  if (Array.isArray(actual) !== Array.isArray(expected)) {
    return `${path || 'value'}: expected ${Array.isArray(expected) ? 'an array' : 'an object'}`
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) {
      return `${path || 'value'}: expected length ${expected.length}, got ${actual.length}\nexpected ${show(expected)}\ngot ${show(actual)}`
    }
    for (let index = 0; index < actual.length; index++) {
      const difference = deepEqualAt(actual[index], expected[index], `${path}[${index}]`)
      if (difference) return difference
    }
    return undefined
  }
  const actualKeys = Object.keys(actual as object).sort()
  const expectedKeys = Object.keys(expected as object).sort()
  if (actualKeys.join('\u0000') !== expectedKeys.join('\u0000')) {
    return `${path || 'value'}: expected keys ${show(expectedKeys)}, got ${show(actualKeys)}`
  }
  for (const key of actualKeys) {
    const difference = deepEqualAt(
      (actual as Record<string, unknown>)[key],
      (expected as Record<string, unknown>)[key],
      `${path}.${key}`,
    )
    if (difference) return difference
  }
  return undefined
}

/** Structural equality (own enumerable keys, any prototype). */
export function assertEqual(actual: unknown, expected: unknown, message?: string): void {
  const difference = deepEqualAt(actual, expected, '')
  if (difference) throw new AssertionError(message ? `${message}\n${difference}` : difference)
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message)
}

export function assertThrows(run: () => unknown, errorType: abstract new (...args: never[]) => Error, pattern?: RegExp): void {
  try {
    run()
  } catch (error) {
    if (!(error instanceof errorType)) throw new AssertionError(`expected ${errorType.name}, got ${String(error)}`)
    if (pattern && !pattern.test(error.message)) throw new AssertionError(`error message ${show(error.message)} does not match ${pattern}`)
    return
  }
  throw new AssertionError(`expected ${errorType.name} to be thrown`)
}

/** Awaits `promise`, which must reject; returns the reason. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new AssertionError('expected a rejection, the promise resolved')
}

/** Runs `run`, which must throw; returns what it threw. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new AssertionError('expected an error to be thrown, none was')
}
