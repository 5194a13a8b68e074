// Bundle sizes are kept from growing: each bundle of scripts/bundle-sizes.mjs (an entry, or an
// export alone, bundled from the build by package name, minified, gzipped) within its budget in
// bench/bundle-sizes.json. Runs after `npm run build`.
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
// @ts-expect-error: a plain .mjs script without declarations.
import { BUNDLES, bundleSizes } from '../scripts/bundle-sizes.mjs'

const budgets = (JSON.parse(readFileSync(new URL('../bench/bundle-sizes.json', import.meta.url), 'utf8')) as { gzip: Record<string, number> }).gzip

test('every bundle has a budget, and stays within it (gzip)', async () => {
  const sizes = (await bundleSizes()) as Record<string, { minified: number; gzip: number }>
  expect(Object.keys(budgets).sort()).toEqual((BUNDLES as Array<[string, string]>).map(([name]) => name).sort())
  for (const [name, size] of Object.entries(sizes)) expect(size.gzip, `${name}: ${size.gzip} B gzip, budget ${budgets[name]} B`).toBeLessThanOrEqual(budgets[name]!)
}, 60_000)
