/**
 * `dsml-streams serve` (what `npm start` runs): the local gateway. Serves `createChatCompletionsGateway` on
 * http://127.0.0.1:8787 through a node:http bridge. With `--upstream URL` (or
 * `DSML_UPSTREAM`) it proxies to that API; with neither it answers from the
 * built-in replay upstream (real captured leaks), in-process through the
 * gateway's injectable `fetch`. Node glue (src/cli/ may use node: modules).
 * Its flags: `SERVE_USAGE` (serve-options.ts).
 */
export { environmentVariableOf, SERVE_USAGE } from './serve-options.ts'
import type { AddressInfo } from 'node:net'
import type { Diagnostic } from '../dsml/types.ts'
import { type ChatCompletionsGateway, createChatCompletionsGateway, type ChatCompletionsGatewayOptions, displayUpstream } from '../gateway/handler.ts'
import { BUILT_IN_CAPTURES, builtInCaptures, readCaptures } from './captures.ts'
import { createChatPageRoutes } from './chat-page-routes.ts'
import { createMetricsEndpoint } from './metrics-endpoint.ts'
import { createNodeServer, type ExchangeSummary } from './node-bridge.ts'
import { createNodeFetch } from './node-fetch.ts'
import { createReplayUpstream, defaultCaptureOf, type ReplayUpstream, type ReplayUpstreamOptions } from './replay-upstream.ts'
import { withoutTrailingSlashes } from '../request-paths.ts'
import { fail, parseServeCommandLine, SERVE_USAGE } from './serve-options.ts'
import { loggable } from './log-text.ts'

/** The replay upstream has no network address; the injected fetch answers for it. */
const REPLAY_BASE_URL = 'http://replay.invalid/v1'

interface RequestLog {
  model?: string
  stream?: boolean
  repairedMessages: number
  mode?: string
  diagnostics: Map<string, number>
  /** From the upstream request leaving to its body's last byte, when it was read to its end. */
  upstreamMs?: number
}

function replayOptions(cli: { delay: number; created: number | undefined }): ReplayUpstreamOptions {
  return cli.created === undefined ? { delayMs: cli.delay } : { delayMs: cli.delay, created: cli.created }
}

function formatLog(summary: ExchangeSummary, log: RequestLog | undefined): string {
  const url = new URL(summary.request.url)
  // Every field from the request escaped: request data never forges a log line.
  const parts = [new Date().toISOString().slice(11, 19), loggable(summary.request.method), loggable(url.pathname), String(summary.status || '-')]
  if (log !== undefined) {
    if (log.model !== undefined) parts.push(`model=${loggable(log.model)}`)
    parts.push(log.stream ? 'stream' : 'json')
    if (log.mode !== undefined && log.mode !== 'recover') parts.push(`mode=${log.mode}`)
    parts.push(`history-repaired=${log.repairedMessages}`)
    const counts = [...log.diagnostics].map(([kind, count]) => `${kind}=${count}`)
    parts.push(`diagnostics: ${counts.length === 0 ? 'none' : counts.join(' ')}`)
  }
  if (summary.outcome !== 'complete') parts.push(`(${summary.outcome})`)
  parts.push(`${Math.round(summary.durationMs)} ms`)
  // What the gateway added to the exchange: its whole time less the upstream's.
  if (summary.outcome === 'complete' && log?.upstreamMs !== undefined) parts.push(`(gateway ${(summary.durationMs - log.upstreamMs).toFixed(1)} ms)`)
  return parts.join(' ')
}

/** A curl of `route`: for the replay, of its default capture (`replayCapture`); else a request with the client's key, unless the gateway holds one. */
function curlCommand(base: string, replayCapture: string | undefined, route: 'chat' | 'messages', keyHeld: boolean): string {
  const replay = replayCapture !== undefined
  const content = replay ? 'Look up the funding rounds of Qichacha' : 'List the files in the current directory'
  const body: Record<string, unknown> = { model: replayCapture ?? 'deepseek-v4-flash', stream: true }
  if (route === 'messages') body.max_tokens = 1024
  body.messages = [{ role: 'user', content }]
  const auth = replay || keyHeld ? '' : route === 'chat' ? ` -H "authorization: Bearer $DEEPSEEK_API_KEY"` : ` -H "x-api-key: $DEEPSEEK_API_KEY"`
  return `curl -sN ${base}/v1/${route === 'chat' ? 'chat/completions' : 'messages'} -H 'content-type: application/json'${auth} -d '${JSON.stringify(body)}'`
}

/** A second stop signal within this long of the first is the same stop sent twice (see `stop` in `serve`). */
const REPEATED_SIGNAL_MS = 2000

export async function serve(argv: string[]): Promise<void> {
  const cli = parseServeCommandLine(argv)
  if (cli.help) {
    console.log(SERVE_USAGE)
    return
  }
  // GET /metrics: the repair's counters and the gateway's histograms, through one meter.
  const metrics = await createMetricsEndpoint()

  const logs = new WeakMap<Request, RequestLog>()
  // The log of the request being forwarded: the gateway calls onForward, then at once its fetch.
  let forwarding: RequestLog | undefined
  let upstreamLabel = ''
  const options: ChatCompletionsGatewayOptions = {
    upstream: cli.upstream ?? REPLAY_BASE_URL,
    mode: cli.mode,
    preset: cli.preset,
    onForward(forward) {
      forwarding = {
        model: typeof forward.body.model === 'string' ? forward.body.model : undefined,
        stream: forward.body.stream === true,
        repairedMessages: forward.repairedMessages,
        mode: forward.mode,
        diagnostics: new Map(),
      }
      logs.set(forward.request, forwarding)
    },
    onDiagnostic(diagnostic: Diagnostic, request: Request) {
      const log = logs.get(request)
      if (log !== undefined) log.diagnostics.set(diagnostic.kind, (log.diagnostics.get(diagnostic.kind) ?? 0) + 1)
    },
  }
  if (cli.knownTools !== undefined) options.knownTools = cli.knownTools
  if (cli.upstreamKey !== undefined) options.upstreamKey = cli.upstreamKey
  if (cli.allowedOrigins !== undefined) options.allowedOrigins = cli.allowedOrigins
  if (cli.anthropicUpstream !== undefined) options.anthropicUpstream = cli.anthropicUpstream
  options.upstreamDialect = cli.upstreamDialect
  options.upstreamHeadersTimeoutMs = cli.headersTimeout * 1000
  options.upstreamIdleTimeoutMs = cli.idleTimeout * 1000
  options.keepAliveMs = cli.keepAlive * 1000
  if (cli.unrecoveredNote) options.unrecoveredNote = true
  if (cli.streamToolCalls) options.streamToolCalls = true
  if (metrics.meter !== undefined) options.meter = metrics.meter
  options.runawayRepeat = cli.runawayRepeat
  if (cli.prevent) {
    options.preventiveDirective = true
    options.recoveryNudge = true
  }
  let replay: ReplayUpstream | undefined
  /** The capture the replay serves by default (undefined with a real upstream). */
  let replayCapture: string | undefined
  if (cli.upstream === undefined) {
    let captures: ReturnType<typeof builtInCaptures>
    try {
      captures = cli.fixtures === undefined ? builtInCaptures() : readCaptures(cli.fixtures)
    } catch (error) {
      fail(`cannot read --fixtures ${cli.fixtures}: ${error instanceof Error ? error.message : String(error)}`)
    }
    replay = createReplayUpstream(captures, replayOptions(cli))
    replayCapture = defaultCaptureOf(captures)
    options.fetch = replay
    upstreamLabel = `built-in replay of ${captures.length} real captured leaks (${cli.fixtures ?? BUILT_IN_CAPTURES}); the request's "model" picks a capture, default ${replayCapture}`
  }

  // A real upstream is reached over node:http(s): Node's global fetch costs more CPU per call than the repair.
  if (replay === undefined) {
    const upstreamLogs = new WeakMap<Request, RequestLog>()
    const nodeFetch = createNodeFetch({
      onBodyEnd(request, upstreamMs) {
        const log = upstreamLogs.get(request)
        if (log !== undefined) log.upstreamMs = upstreamMs
      },
    })
    options.fetch = (request) => {
      if (forwarding !== undefined) upstreamLogs.set(request, forwarding)
      forwarding = undefined
      return nodeFetch(request)
    }
  }
  let gateway: ChatCompletionsGateway
  try {
    gateway = createChatCompletionsGateway(options)
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error))
  }
  if (cli.upstream !== undefined) {
    // Printed without query (it may hold a key); a URL with credentials was refused above.
    upstreamLabel = cli.anthropicUpstream === undefined ? displayUpstream(cli.upstream) : `${displayUpstream(cli.upstream)} (Messages: ${displayUpstream(cli.anthropicUpstream)})`
  }
  if (cli.upstreamDialect === 'lingma') upstreamLabel += '; /v1/chat/completions goes to it in the Lingma wire'

  // The chat page at /, whatever the upstream: its left pane reads the replay of real leaks, raw.
  const page = createChatPageRoutes(replay ?? createReplayUpstream(builtInCaptures(), replayOptions(cli)))
  // With the replay upstream, GET /captures (or /v1/captures) lists what it can replay.
  const handler = async (request: Request): Promise<Response> => {
    const pageResponse = page(request)
    if (pageResponse !== undefined) return pageResponse
    const path = withoutTrailingSlashes(new URL(request.url).pathname)
    if (replay !== undefined && request.method === 'GET' && (path === '/captures' || path === '/v1/captures')) return replay(request)
    if (request.method === 'GET' && path === '/metrics') return metrics.serve()
    return gateway(request)
  }
  const server = createNodeServer(handler, {
    maxInFlight: cli.maxInFlight,
    maxBodyBytes: cli.maxBodyBytes,
    maxBodyBytesInFlight: cli.maxBodyBytesInFlight,
    // Node takes whole milliseconds only.
    requestTimeoutMs: Math.round(cli.requestTimeout * 1000),
    maxConnections: cli.maxConnections,
    ...(cli.allowedHosts === undefined ? {} : { allowedHosts: cli.allowedHosts }),
    onFinish(summary) {
      console.log(formatLog(summary, logs.get(summary.request)))
    },
  })

  server.on('error', (error: NodeJS.ErrnoException) => {
    const where = `${cli.host}:${cli.port}`
    if (error.code === 'EADDRINUSE') console.error(`dsml-streams serve: cannot listen on ${where}: the port is in use (try --port ${cli.port + 1}, or --port 0)`)
    else console.error(`dsml-streams serve: cannot listen on ${where}: ${error.message}`)
    process.exit(1)
  })

  server.listen(cli.port, cli.host, () => {
    const address = server.address() as AddressInfo
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    const base = `http://${host}:${address.port}`
    console.log(`dsml-streams gateway listening on ${base}`)
    console.log(`chat page (the repair, live, in your browser): ${base}/`)
    console.log(`upstream: ${upstreamLabel}`)
    console.log(`metrics (Prometheus): ${base}/metrics${metrics.meter === undefined ? ' (needs the optional OpenTelemetry packages)' : ''}`)
    console.log(`mode: ${cli.mode}, preset: ${cli.preset}${cli.knownTools ? `, known tools: ${cli.knownTools.join(', ')}` : ''}`)
    if (cli.upstreamKey !== undefined) console.log(`upstream key: held (from $${cli.keyVariable}); browser pages: this origin${cli.allowedOrigins?.length ? ` and ${cli.allowedOrigins.join(', ')}` : ' only'}`)
    else if (cli.allowedOrigins !== undefined) console.log(`browser pages: this origin${cli.allowedOrigins.length > 0 ? ` and ${cli.allowedOrigins.join(', ')}` : ' only'}`)
    console.log(`\ntry it:\n  ${curlCommand(base, replayCapture, 'chat', cli.upstreamKey !== undefined)}\n`)
    console.log(`Anthropic Messages:\n  ${curlCommand(base, replayCapture, 'messages', cli.upstreamKey !== undefined)}\n`)
    if (replay !== undefined) console.log(`other captures: curl -s ${base}/captures, then send one's id as "model"\n`)
  })

  let firstSignalAt: number | undefined
  let signals = 0
  const stop = (signal: string): void => {
    signals++
    if (firstSignalAt !== undefined) {
      // One Ctrl-C reaches both npm and the gateway (npm forwards its copy), and a service manager signals the
      // whole process group: a second signal this soon is the same stop. Later, or a third, forces the exit.
      if (signals < 3 && performance.now() - firstSignalAt < REPEATED_SIGNAL_MS) {
        console.log(`${signal} again within ${REPEATED_SIGNAL_MS / 1000} s: still closing (a third signal exits at once)`)
        return
      }
      console.log(`${signal} again: exiting now`)
      process.exit(1)
    }
    firstSignalAt = performance.now()
    // Stop accepting; let the exchanges in flight finish, up to the drain time; then exit 0.
    console.log(`${signal}: closing the gateway (in-flight requests get up to ${cli.drainSeconds} s; a signal again after ${REPEATED_SIGNAL_MS / 1000} s, or a third, exits at once)`)
    server.close(() => process.exit(0))
    // A keep-alive connection whose exchange has finished is closed as soon as it is idle: the
    // server accepts nothing new, and a client must not keep it serving over an old connection.
    server.closeIdleConnections()
    setInterval(() => server.closeIdleConnections(), 100).unref()
    setTimeout(() => {
      console.log('drain time over: closing the remaining connections')
      server.closeAllConnections()
    }, cli.drainSeconds * 1000).unref()
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}
