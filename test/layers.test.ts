/**
 * The layout shows the layers bottom up, and imports only go down:
 * the engine (`dsml/`) and, beside it, the SSE codec (`sse/`), neither
 * importing the other → parts (`parts/`: part model, part sanitizer,
 * synthesizer, settlement, history repair, the part pipeline) → the kit
 * every dialect is built from (`dialect-kit/`: the fused repair machine, its
 * stream classes, chunk origins, plain JSON strings, the `Response` rule) →
 * the dialects — codecs, fused streams and helpers (`chat-completions/`,
 * `anthropic/`, `responses/`) — and the AI SDK adapter (`ai-sdk/`), siblings that never
 * import each other → `lingma/` (a Lingma upstream translated into Chat
 * Completions, so above that dialect) and, beside it, `repair-fetch/` (a
 * `fetch` that repairs every dialect's route) →
 * `gateway/` → `cli/` (the Node glue: the command, and the node:http bridge)
 * → `node/` (the `dsml-streams/node` entry, which only names the bridge). The files at the top of `src/` are shared utilities
 * (stream queuing, seeded randomness, JSON text read and written in pieces)
 * that import only each other, and the package's root `index.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src')

/** Rank of each layer folder; equal ranks are siblings. */
const RANK: Record<string, number> = { dsml: 1, sse: 1, parts: 2, 'dialect-kit': 3, 'chat-completions': 4, anthropic: 4, responses: 4, 'ai-sdk': 4, lingma: 5, 'repair-fetch': 5, gateway: 6, cli: 7, node: 8 }

function layerOf(path: string): string {
  const parts = relative(src, path).split(sep)
  return parts.length === 1 ? '' : parts[0]!
}

function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(src, path))
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => normalize(join(dirname(file), match[1]!)))
}

describe('src/ layers', () => {
  test('every folder of src/ is a known layer', () => {
    const folders = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    expect(folders.sort()).toEqual(Object.keys(RANK).sort())
  })

  test('imports only go down the layers (or stay in their folder); shared files import only shared files', () => {
    const violations: string[] = []
    for (const file of sourceFiles()) {
      const from = layerOf(file)
      if (relative(src, file) === 'index.ts') continue
      for (const target of importsOf(file)) {
        const to = layerOf(target)
        const allowed = from === '' ? to === '' : to === '' || to === from || RANK[to]! < RANK[from]!
        if (!allowed) violations.push(`${relative(src, file)} imports ${relative(src, target)}`)
      }
    }
    expect(violations).toEqual([])
  })
})
