#!/usr/bin/env node
// `npm start [-- options]`: the gateway (`dsml-streams serve`) from dist/, built first only when it is missing or older
// than what it is built from (src/, build.config.ts, package.json), saying so; a fresh dist/ starts at once.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..')
const bin = join(root, 'dist/cli/bin.mjs')

/** The newest modification time under `path` (a file, or a folder read recursively). */
function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)))
  return latest
}

const sources = ['src', 'build.config.ts', 'package.json'].map((name) => join(root, name))
const stale = !existsSync(bin) || Math.max(...sources.map(newest)) > statSync(bin).mtimeMs
if (stale) {
  const started = Date.now()
  console.error(existsSync(bin) ? 'building dist/ (src/ changed since the last build)…' : 'building dist/ (none yet)…')
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (build.status !== 0) {
    console.error(`the build failed (npm run build, exit ${build.status}): see above`)
    process.exit(1)
  }
  console.error(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}
// The command in this process: `serve` and the options given to npm start.
process.argv = [process.argv[0], bin, 'serve', ...process.argv.slice(2)]
await import(pathToFileURL(bin).href)
