// The built type declarations check in the two common consumer setups, without skipLibCheck: a
// Node-only project (lib ES2022, @types/node, NodeNext) and a browser project (lib ES2022, DOM,
// DOM.Iterable, Bundler). test/types/consumer.ts imports every entry and the README's first uses.
// test/types/ai-majors/consumer.ts, an AI SDK project, checks the same way against each AI SDK major's own
// types (ai 5, 6 and 7, installed side by side as npm aliases). Runs after `npm run build` (npm test builds first).
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))

for (const config of ['tsconfig.node.json', 'tsconfig.browser.json', 'ai-majors/tsconfig.ai5.json', 'ai-majors/tsconfig.ai6.json', 'ai-majors/tsconfig.ai7.json']) {
  test(`the package's types check under test/types/${config}`, () => {
    let output = ''
    try {
      execFileSync(process.execPath, [tsc, '-p', `test/types/${config}`], { cwd: root, encoding: 'utf8' })
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error)
    }
    expect(output).toBe('')
  }, 120_000)
}
