// The docs, type-checked and run: every TypeScript block of README.md and docs/*.md is written out as a module
// and checked against the package by its name (the built declarations), as a user would paste it into a
// project with Node's and the DOM's types; a block marked ```ts runnable is also run, against the replay
// upstream (`dsml-streams replay`, its URL in REPLAY_URL). A block that names something it never defines,
// calls the API in a way it no longer takes, or no longer does what it shows, fails here. Runs after
// `npm run build`.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { root, startReplay, stopAll } from './support/processes.ts'

const directory = join(root, '.docs-blocks')

/** Every ```ts block of the README and the docs: its file, its number in that file, its code. */
function typeScriptBlocks(): Array<{ file: string; index: number; code: string; runnable: boolean }> {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]
  const blocks: Array<{ file: string; index: number; code: string; runnable: boolean }> = []
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    let index = 0
    for (const match of text.matchAll(/^```ts( runnable)?\n([\s\S]*?)^```$/gm)) blocks.push({ file, index: index++, code: match[2]!, runnable: match[1] !== undefined })
  }
  return blocks
}

test('every TypeScript block of the README and docs/ type-checks against the package, as written', () => {
  const blocks = typeScriptBlocks()
  expect(blocks.length).toBeGreaterThanOrEqual(10)
  // Inside the package, so that `dsml-streams` resolves to it by name (its exports, its built declarations).
  rmSync(directory, { recursive: true, force: true })
  mkdirSync(directory)
  const names = blocks.map(({ file, index, code }) => {
    const name = `${file.replace(/[/.]/g, '-')}-${index}.ts`
    // Each block is a module of its own: its names do not meet another block's.
    writeFileSync(join(directory, name), `${code}\nexport {}\n`)
    return name
  })
  writeFileSync(
    join(directory, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'], strict: true, noEmit: true, skipLibCheck: true },
      files: names,
    }),
  )
  let output = ''
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(directory, 'tsconfig.json')], { cwd: root, encoding: 'utf8' })
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error)
  }
  expect(output).toBe('')
}, 120_000)

test('the blocks marked runnable run as written against the replay upstream, and show the recovered calls', async () => {
  const runnable = typeScriptBlocks().filter((block) => block.runnable)
  expect(runnable.length).toBeGreaterThanOrEqual(1)
  const replay = await startReplay()
  try {
    mkdirSync(directory, { recursive: true })
    for (const { file, index, code } of runnable) {
      const path = join(directory, `run-${file.replace(/[/.]/g, '-')}-${index}.ts`)
      writeFileSync(path, `${code}\nexport {}\n`)
      const output = execFileSync(process.execPath, ['--import', 'tsx', path], { cwd: root, encoding: 'utf8', env: { ...process.env, REPLAY_URL: replay.url } })
      expect(output, `${file} block ${index}`).toContain("'builtin_web_search', 'builtin_web_search' ] tool_calls")
    }
  } finally {
    stopAll()
  }
}, 120_000)
