/**
 * One bundled script, the package resolved by name (the build), as a
 * platform's own tooling bundles it: an ES module for workerd (as `wrangler`
 * does), a classic script for the edge runtime's VM (which runs no modules),
 * exposing the entry's exports as `globalName`.
 */
import { join } from 'node:path'
import { build } from 'esbuild'
import { EDGE_CONDITIONS } from '../../scripts/runtimes/platforms.mjs'
import { root } from './processes.ts'

export async function bundle(options: ({ entry: string } | { contents: string }) & { format: 'esm' | 'iife'; globalName?: string }): Promise<string> {
  const result = await build({
    ...('entry' in options ? { entryPoints: [join(root, options.entry)] } : { stdin: { contents: options.contents, resolveDir: root, loader: 'ts' as const } }),
    bundle: true,
    format: options.format,
    ...(options.globalName === undefined ? {} : { globalName: options.globalName }),
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: EDGE_CONDITIONS,
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}
