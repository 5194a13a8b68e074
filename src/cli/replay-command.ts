/**
 * `dsml-streams replay`: the built-in replay upstream on its own, behind a
 * node:http server: real captured leaks in every wire format the gateway
 * speaks (Chat Completions, Anthropic Messages, the Responses API, Lingma),
 * to point a client or another gateway at. Node glue.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { BUILT_IN_CAPTURES, builtInCaptures, readCaptures } from './captures.ts'
import { createNodeListener } from './node-bridge.ts'
import { createReplayUpstream, defaultCaptureOf } from './replay-upstream.ts'
import { commandFailure, readCommandLine } from './command-line.ts'

export const REPLAY_USAGE = `Usage: dsml-streams replay [options]

Serves real captured DeepSeek leaks as an upstream, with no key: POST
/v1/chat/completions, /v1/messages, /v1/responses and Lingma's chat path,
GET /captures. The request's "model" picks a capture.

  --port N        port to listen on (default 8788; 0 picks a free one)
  --host HOST     address to listen on (default 127.0.0.1)
  --fixtures PATH captures to serve (default: ${BUILT_IN_CAPTURES})
  --delay MS      send SSE events MS apart, on a fixed schedule (default 0)
  -h, --help      this text
`

function fail(message: string): never {
  commandFailure('replay', message, 2)
}

export function replay(argv: string[]): void {
  const parsed = readCommandLine('replay', argv, { port: { type: 'string' }, host: { type: 'string' }, fixtures: { type: 'string' }, delay: { type: 'string' } }).values
  if (parsed.help === true) {
    console.log(REPLAY_USAGE)
    return
  }
  const port = Number(parsed.port ?? 8788)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer from 0 to 65535, got ${parsed.port}`)
  const delayMs = Number(parsed.delay ?? 0)
  if (!Number.isFinite(delayMs) || delayMs < 0) fail(`--delay must be a number of milliseconds, got ${parsed.delay}`)
  let captures: ReturnType<typeof builtInCaptures>
  try {
    captures = parsed.fixtures === undefined ? builtInCaptures() : readCaptures(resolve(parsed.fixtures))
  } catch (error) {
    fail(`cannot read --fixtures ${parsed.fixtures}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const upstream = createReplayUpstream(captures, { delayMs })
  const host = parsed.host ?? '127.0.0.1'
  const server = createServer(createNodeListener(upstream))
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') console.error(`dsml-streams replay: cannot listen on ${host}:${port}: the port is in use (try --port ${port + 1}, or --port 0)`)
    else console.error(`dsml-streams replay: cannot listen on ${host}:${port}: ${error.message}`)
    process.exit(1)
  })
  server.listen(port, host, () => {
    const address = server.address() as AddressInfo
    console.log(`dsml-streams replay upstream on http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`)
    console.log(`${captures.length} captures; default ${defaultCaptureOf(captures)}`)
  })
  const stop = (): void => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
