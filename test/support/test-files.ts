/**
 * Reads a UTF-8 file under test/ (e.g. `fixtures/sse/<id>.sse`) in any
 * runtime. A bundle of the tables (scripts/table-bundles.mjs) carries the files
 * it needs in `globalThis.dsmlTestFiles`, set before any test module runs, so
 * workerd, the edge runtime and a browser page read them without a file system.
 * On the sources: Deno.readTextFile, Bun.file, or Node's fs through
 * `process.getBuiltinModule` (Node ≥ 20.16; not a `node:` import, so the module
 * stays portable). Each file is read once.
 */

interface RuntimeGlobals {
  dsmlTestFiles?: Record<string, string>
  Deno?: { readTextFile(path: URL): Promise<string> }
  Bun?: { file(path: URL): { text(): Promise<string> } }
  process?: { getBuiltinModule?: (id: string) => unknown }
}

const reads = new Map<string, Promise<string>>()

/** `path` is relative to test/, with `/` separators. */
export function readTestFile(path: string): Promise<string> {
  let pending = reads.get(path)
  if (pending === undefined) {
    pending = readOnce(path)
    reads.set(path, pending)
  }
  return pending
}

async function readOnce(path: string): Promise<string> {
  const runtime = globalThis as unknown as RuntimeGlobals
  if (runtime.dsmlTestFiles !== undefined) {
    const carried = runtime.dsmlTestFiles[path]
    if (carried === undefined) throw new Error(`test/${path} is not among the files this bundle carries (scripts/table-bundles.mjs)`)
    return carried
  }
  const url = new URL(`../${path}`, import.meta.url)
  if (runtime.Deno) return runtime.Deno.readTextFile(url)
  if (runtime.Bun) return runtime.Bun.file(url).text()
  const fs = runtime.process?.getBuiltinModule?.('fs') as { readFileSync(path: URL, encoding: 'utf8'): string } | undefined
  if (fs) return fs.readFileSync(url, 'utf8')
  throw new Error(`Cannot read test/${path}: no file system here, and no bundle carries it`)
}
