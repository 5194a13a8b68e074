import { defineBuildConfig } from 'unbuild'

// One entry per public subpath in package.json "exports", and the `dsml-streams` command ("bin").
export default defineBuildConfig({
  entries: ['src/index', 'src/dsml/index', 'src/sse/index', 'src/chat-completions/index', 'src/anthropic/index', 'src/responses/index', 'src/lingma/index', 'src/parts/index', 'src/ai-sdk/index', 'src/gateway/index', 'src/node/index', 'src/cli/bin'],
  outDir: 'dist',
  declaration: 'node16',
  clean: true,
  sourcemap: true,
  failOnWarn: true,
  // Types only (the AI SDK adapter is written against them; no declaration the package emits names them).
  externals: ['@ai-sdk/provider', 'json-schema'],
  rollup: { emitCJS: false, esbuild: { target: 'es2022', minify: false } },
})
