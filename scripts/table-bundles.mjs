// Bundles the portable test tables to run against the built package (test/package-tables.ts).
//
// 1. Sorts the cases files: one esbuild pass over all of them, with the package's entry points
//    (the `exports` of package.json: src/<entry>/index.ts ↔ dist/<entry>/index.mjs) left
//    external. A cases file that still reaches a source module (src/**/*.ts) tests something the
//    package does not export: it runs on the sources only, and the first such module is the
//    reason. Data under src/ is not the package's code: the built-in captures (JSON), and the
//    replay upstream's wire framings (src/cli/replay-framing.ts and src/responses/stream-events.ts, which
//    import nothing but types).
// 2. Bundles the others with test/package-tables.ts, each entry point replaced by its build:
//    - an ES module for Node, Deno and Bun, the build imported from dist/ and the test
//      dependencies (fast-check, ai, …) from node_modules;
//    - a classic script for workerd, the edge runtime's VM and Chromium, everything inside,
//      exposing `packageTables.run(print, filter)`.
//    Both carry the files under test/fixtures/sse that the tables read (test/support/test-files.ts).
//
// Runs after `npm run build`; writes to .tables/ (ignored by git).
//   node scripts/table-bundles.mjs    builds, and prints which files run where
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { EDGE_CONDITIONS } from './runtimes/platforms.mjs'

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..')
// Outside node_modules: Deno will not load a module there that imports files outside it.
const out = join(root, '.tables')
const carriedDirectory = 'fixtures/sse'

/** Source entry (absolute) → built entry (absolute), from package.json's exports. */
function packageEntries() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const entries = new Map()
  for (const target of Object.values(manifest.exports)) {
    if (typeof target === 'string') continue
    const built = target.default
    const source = built.replace(/^\.\/dist\//, 'src/').replace(/\.mjs$/, '.ts')
    entries.set(join(root, source), join(root, built))
  }
  return entries
}

/** Every cases file under test/, relative to test/ as test/suites.ts names them, sorted as there. */
function casesFiles() {
  return readdirSync(join(root, 'test'), { recursive: true })
    .map((path) => path.split(sep).join('/'))
    .filter((path) => path.endsWith('.cases.ts'))
    .map((path) => `./${path}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** Relative imports of a package entry point go to its build: left as an import of dist/ (`external`), or bundled. */
function builtEntries(external) {
  const entries = packageEntries()
  return {
    name: 'built-entries',
    setup(context) {
      context.onResolve({ filter: /^\.\.?\// }, (args) => {
        const built = entries.get(resolve(args.resolveDir, args.path))
        if (built === undefined) return undefined
        return external ? { path: built, external: true } : { path: built }
      })
    },
  }
}

/**
 * A source module that is the library's code, so a table that reaches it cannot run against the
 * build. The one exception is a module that imports nothing at run time (the replay upstream's
 * wire framings, `DATA_MODULES`): it is input data for the tables, not code under test.
 */
function isLibrarySource(path, inputs) {
  if (!path.startsWith('src/') || !path.endsWith('.ts')) return false
  return (inputs[path]?.imports.length ?? 0) > 0 || !DATA_MODULES.has(path)
}

/** Source modules bundled as input data; each must import nothing (checked on every build). */
const DATA_MODULES = new Set(['src/cli/replay-framing.ts', 'src/responses/stream-events.ts'])

/** Which cases files reach only the package's entry points, and which reach its internals (with the first one). */
export async function sortCasesFiles() {
  const files = casesFiles()
  const result = await build({
    absWorkingDir: root,
    entryPoints: files.map((file) => join('test', file)),
    bundle: true,
    write: false,
    outdir: out,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
    plugins: [builtEntries(true)],
  })
  const inputs = result.metafile.inputs
  const firstSourceModule = (start) => {
    const seen = new Set([start])
    const queue = [start]
    while (queue.length > 0) {
      const path = queue.shift()
      if (isLibrarySource(path, inputs)) return path
      for (const next of inputs[path]?.imports ?? []) {
        if (next.external || seen.has(next.path)) continue
        seen.add(next.path)
        queue.push(next.path)
      }
    }
    return undefined
  }
  const packageFiles = []
  const sourcesOnly = []
  for (const file of files) {
    const module = firstSourceModule(join('test', file).split(sep).join('/'))
    if (module === undefined) packageFiles.push(file)
    else sourcesOnly.push({ file, module })
  }
  return { packageFiles, sourcesOnly }
}

/** The files the tables read through readTestFile, as a script that sets them before anything else runs. */
function carriedFiles() {
  const files = {}
  for (const name of readdirSync(join(root, 'test', carriedDirectory)).sort()) {
    files[`${carriedDirectory}/${name}`] = readFileSync(join(root, 'test', carriedDirectory, name), 'utf8')
  }
  return `globalThis.dsmlTestFiles = ${JSON.stringify(files)};`
}

function entrySource(packageFiles, sourcesOnly, call) {
  const lines = [`import { runPackageTables, runPackageTablesAsMain } from './test/package-tables.ts'`]
  packageFiles.forEach((file, index) => lines.push(`import * as table${index} from ${JSON.stringify(`./test/${file.slice(2)}`)}`))
  lines.push(`const tables = { files: [${packageFiles.map((file, index) => `[${JSON.stringify(file)}, table${index}]`).join(', ')}], sourcesOnly: ${JSON.stringify(sourcesOnly)} }`)
  lines.push(call)
  return lines.join('\n')
}

/** A bundle of the package tables holds no source module: the library in it is the build, or the run proves nothing. */
function assertBuiltOnly(result, what) {
  const inputs = Object.keys(result.metafile.inputs)
  const sources = inputs.filter((path) => isLibrarySource(path, result.metafile.inputs))
  if (sources.length > 0) throw new Error(`${what} bundles source modules instead of the build: ${sources.join(', ')}`)
  return inputs
}

/**
 * Builds both bundles. Returns the ES module's path, the classic script's text, and the sorting.
 */
export async function buildTableBundles() {
  const { packageFiles, sourcesOnly } = await sortCasesFiles()
  mkdirSync(out, { recursive: true })
  // What both bundles share: the tables and the files they read, bundled from the project's root.
  const common = { absWorkingDir: root, bundle: true, banner: { js: carriedFiles() }, metafile: true, logLevel: 'error' }
  const entry = (call, sourcefile) => ({ contents: entrySource(packageFiles, sourcesOnly, call), resolveDir: root, loader: 'ts', sourcefile })
  const modulePath = join(out, 'package-tables.mjs')
  const moduleBuild = await build({
    ...common,
    stdin: entry('await runPackageTablesAsMain(tables)', 'package-tables-main.ts'),
    outfile: modulePath,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    plugins: [builtEntries(true)],
  })
  assertBuiltOnly(moduleBuild, 'the ES module')
  const script = await build({
    ...common,
    stdin: entry('export function run(print, filter) { return runPackageTables(tables, { print, filter }) }', 'package-tables-script.ts'),
    write: false,
    format: 'iife',
    globalName: 'packageTables',
    platform: 'browser',
    conditions: EDGE_CONDITIONS,
    plugins: [builtEntries(false)],
  })
  if (!assertBuiltOnly(script, 'the classic script').some((path) => path.startsWith('dist/'))) throw new Error('the classic script holds nothing from dist/')
  const scriptPath = join(out, 'package-tables.js')
  writeFileSync(scriptPath, script.outputFiles[0].text)
  return { modulePath, scriptPath, packageFiles, sourcesOnly }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildTableBundles()
  console.log(`${built.packageFiles.length} cases files against the package: ${relative(root, built.modulePath)}, ${relative(root, built.scriptPath)}`)
  console.log(`${built.sourcesOnly.length} on the sources only:`)
  for (const entry of built.sourcesOnly) console.log(`  ${entry.file} (imports ${entry.module})`)
}
