// Bundle sizes of the built package, as an app bundler would ship them: each entry (and the two
// most used exports alone) bundled from dist/ by package name, minified (esbuild), then gzipped
// (level 9). `node scripts/bundle-sizes.mjs` prints them; test/bundle-sizes.test.ts keeps each
// within its budget in bench/bundle-sizes.json. Run after `npm run build`.
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export const BUNDLES = [
  ['dsml-streams', "export * from 'dsml-streams'"],
  ['sanitizeText alone', "export { sanitizeText } from 'dsml-streams'"],
  ['ChatCompletionsRepairStream alone', "export { ChatCompletionsRepairStream } from 'dsml-streams'"],
  ['dsml-streams/dsml', "export * from 'dsml-streams/dsml'"],
  ['dsml-streams/sse', "export * from 'dsml-streams/sse'"],
  ['dsml-streams/chat-completions', "export * from 'dsml-streams/chat-completions'"],
  ['dsml-streams/anthropic', "export * from 'dsml-streams/anthropic'"],
  ['dsml-streams/responses', "export * from 'dsml-streams/responses'"],
  ['dsml-streams/lingma', "export * from 'dsml-streams/lingma'"],
  ['dsml-streams/parts', "export * from 'dsml-streams/parts'"],
  ['dsml-streams/ai-sdk', "export * from 'dsml-streams/ai-sdk'"],
  ['dsml-streams/gateway', "export * from 'dsml-streams/gateway'"],
  ['dsml-streams/node', "export * from 'dsml-streams/node'"],
]

/** `{ name: { minified, gzip } }` in bytes. */
export async function bundleSizes() {
  const sizes = {}
  for (const [name, contents] of BUNDLES) {
    const result = await build({
      stdin: { contents, resolveDir: root, loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      // Node's own modules (dsml-streams/node is Node glue) are the platform's, not the bundle's.
      external: ['ai', '@ai-sdk/provider', 'node:*'],
      write: false,
      logLevel: 'silent',
    })
    const code = result.outputFiles[0].contents
    sizes[name] = { minified: code.length, gzip: gzipSync(code, { level: 9 }).length }
  }
  return sizes
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await bundleSizes()
  console.log('| bundle | minified | gzip |\n|---|---:|---:|')
  for (const [name, size] of Object.entries(sizes)) console.log(`| ${name} | ${(size.minified / 1024).toFixed(1)} KB | ${(size.gzip / 1024).toFixed(1)} KB |`)
}
