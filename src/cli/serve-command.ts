/**
 * `dsml-streams serve` (what `npm start` runs): the local gateway. Serves `createChatCompletionsGateway` on
 * http://127.0.0.1:8787 through a node:http bridge. With `--upstream URL` (or
 * `DSML_UPSTREAM`) it proxies to that API; with neither it answers from the
 * built-in replay upstream (real captured leaks), in-process through the
 * gateway's injectable `fetch`. Node glue (src/cli/ may use node: modules).
 * Its flags: `SERVE_USAGE`.
 */
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import type { Diagnostic } from '../dsml/types.ts'
import { type ChatCompletionsGateway, createChatCompletionsGateway, type ChatCompletionsGatewayOptions, displayUpstream } from '../gateway/handler.ts'
import { BUILT_IN_CAPTURES, builtInCaptures, readCaptures } from './captures.ts'
import { createChatPageRoutes } from './chat-page-routes.ts'
import { isLoopbackBind } from '../node/allowed-hosts.ts'
import { createNodeServer, type ExchangeSummary, NODE_SERVER_DEFAULTS as DEFAULTS } from '../node/node-bridge.ts'
import { createNodeFetch } from './node-fetch.ts'
import { createReplayUpstream, defaultCaptureOf, type ReplayUpstream, type ReplayUpstreamOptions } from './replay-upstream.ts'
import { withoutTrailingSlashes } from '../request-paths.ts'
import { commandFailure, readCommandLine } from './command-line.ts'
import { loggable } from './log-text.ts'

const MIB = 1024 * 1024

export const SERVE_USAGE = `Usage: dsml-streams serve [options]   (npm start -- [options] in a checkout)

Runs a local gateway that proxies POST /v1/chat/completions, POST /v1/messages
(Anthropic) and POST /v1/responses (each under any prefix) to an upstream and
repairs leaked DSML tool calls in the response and in the request history.
Every other request passes through to the upstream.

  --port N             port to listen on (default 8787; 0 picks a free one)
  --host HOST          address to listen on (default 127.0.0.1)
  --upstream URL       upstream base URL; /chat/completions is appended
                       (e.g. https://api.deepseek.com). Default: $DSML_UPSTREAM,
                       else the built-in replay of real captured leaks
  --anthropic-upstream URL  base URL for /v1/messages; /v1/messages is appended
                       (e.g. https://api.deepseek.com/anthropic). Default: --upstream
  --upstream-dialect D chat-completions (default) | lingma: what the upstream of
                       /v1/chat/completions speaks. lingma translates each request
                       to Lingma's wire (Encode=1 body) and its stream back to
                       Chat Completions; Lingma's request signing is not done
                       here (point --upstream at a relay that signs)
  --mode MODE          recover (default) | strip | off
  --preset PRESET      relaxed (default) | strict
  --prevent            add the preventive directive to every request's system
                       instructions, and the one-time recovery nudge after a
                       turn whose call was written as text (for DeepSeek)
  --known-tools A,B    only these tool names may be recovered
                       (default: the tools each request declares)
  --fixtures PATH      captures for the replay upstream
  --delay MS           replay: send SSE events MS apart (default 0)
  --headers-timeout S  seconds the upstream has to answer; past it a 504 (default 60)
  --idle-timeout S     seconds of upstream silence that end a stream with an
                       error event (default 120)
  --keep-alive S       seconds between keep-alive comments while a streaming
                       upstream is silent (default 15; 0: none)
  --max-in-flight N    requests served at once, each counted once its body has
                       arrived; past it a JSON 503 (default ${DEFAULTS.maxInFlight})
  --max-body-mb N      largest request body, in MiB (default ${DEFAULTS.maxBodyBytes / MIB}; 413 beyond)
  --max-bodies-mb N    request bodies held at once, in MiB, from their first
                       byte until answered; past it a JSON 503 (default ${DEFAULTS.maxBodyBytesInFlight / MIB})
  --request-timeout S  seconds a client has to send its whole request; past it
                       a 408 and the connection closed (default ${DEFAULTS.requestTimeoutMs / 1000})
  --max-connections N  connections open at once; past it new ones are closed
                       (default ${DEFAULTS.maxConnections})
  --upstream-key-env NAME  the environment variable holding the upstream's key
                       (default DSML_UPSTREAM_KEY): the gateway sends it upstream
                       (authorization: Bearer, x-api-key for /v1/messages) in
                       place of the client's, so clients and the chat page need
                       none; browser pages may then use the gateway only from
                       its own origin and --allowed-origins (others get a 403)
  --allowed-origins A,B  origins whose pages may use the gateway from a browser
                       (https://app.example; "*" for any); CORS preflights are
                       answered for these only
  --allowed-hosts A,B  host names requests may name besides localhost and IP
                       addresses (bound to loopback, others get a 403: DNS
                       rebinding); "*" answers every host
  --drain-seconds N    on SIGINT or SIGTERM, how long requests in flight may
                       take to finish before their connections are closed
                       (default 30; a signal again 2 s later, or a third,
                       exits at once)
  --created SECONDS    replay: the "created" time of every completion (default:
                       now), for output that is the same on every run
  -h, --help           this text

Every option can also be set in the environment: DSML_ and its name in capitals,
dashes as underscores (--max-in-flight 64 is DSML_MAX_IN_FLIGHT=64; --prevent is
DSML_PREVENT=1). A flag given wins. PORT is read too, after DSML_PORT.
`

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

function fail(message: string): never {
  commandFailure('serve', message, 2)
}

const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  upstream: { type: 'string' },
  'anthropic-upstream': { type: 'string' },
  'upstream-dialect': { type: 'string' },
  'upstream-key-env': { type: 'string' },
  'allowed-origins': { type: 'string' },
  mode: { type: 'string' },
  preset: { type: 'string' },
  'known-tools': { type: 'string' },
  prevent: { type: 'boolean' },
  fixtures: { type: 'string' },
  delay: { type: 'string' },
  created: { type: 'string' },
  'drain-seconds': { type: 'string' },
  'max-in-flight': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'idle-timeout': { type: 'string' },
  'keep-alive': { type: 'string' },
  'max-body-mb': { type: 'string' },
  'max-bodies-mb': { type: 'string' },
  'request-timeout': { type: 'string' },
  'max-connections': { type: 'string' },
  'allowed-hosts': { type: 'string' },
} as const

/** The environment variable of an option: `DSML_` and its name in capitals, dashes as underscores. */
export function environmentVariableOf(option: string): string {
  return `DSML_${option.toUpperCase().replaceAll('-', '_')}`
}

const TRUE_WORDS = ['1', 'true', 'yes']
const FALSE_WORDS = ['0', 'false', 'no']

function parseCli(argv: string[]) {
  const parsed: { [Name in keyof typeof SERVE_OPTIONS]?: (typeof SERVE_OPTIONS)[Name]['type'] extends 'boolean' ? boolean : string } & { help?: boolean } =
    readCommandLine('serve', argv, SERVE_OPTIONS).values
  // What no flag gave, the environment may (an empty variable is not set).
  for (const [name, option] of Object.entries(SERVE_OPTIONS) as Array<[keyof typeof SERVE_OPTIONS, { type: 'string' | 'boolean' }]>) {
    if (parsed[name] !== undefined) continue
    const variable = environmentVariableOf(name)
    const value = process.env[variable]
    if (value === undefined || value === '') continue
    if (option.type === 'string') {
      ;(parsed as Record<string, unknown>)[name] = value
      continue
    }
    const word = value.trim().toLowerCase()
    if (!TRUE_WORDS.includes(word) && !FALSE_WORDS.includes(word)) fail(`${variable} must be 1, true or yes (or 0, false, no), got ${JSON.stringify(value)}`)
    ;(parsed as Record<string, unknown>)[name] = TRUE_WORDS.includes(word)
  }
  const port = Number(parsed.port ?? process.env.PORT ?? 8787)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer from 0 to 65535, got ${parsed.port}`)
  const created = parsed.created === undefined ? undefined : Number(parsed.created)
  if (created !== undefined && !Number.isSafeInteger(created)) fail(`--created must be a whole number of seconds, got ${parsed.created}`)
  const seconds = (flag: 'headers-timeout' | 'idle-timeout' | 'keep-alive' | 'request-timeout', fallback: number): number => {
    const value = Number(parsed[flag] ?? fallback)
    if (!Number.isFinite(value) || value < 0) fail(`--${flag} must be a number of seconds, got ${parsed[flag]}`)
    return value
  }
  const headersTimeout = seconds('headers-timeout', 60)
  const idleTimeout = seconds('idle-timeout', 120)
  const keepAlive = seconds('keep-alive', 15)
  const requestTimeout = seconds('request-timeout', DEFAULTS.requestTimeoutMs / 1000)
  const count = (flag: 'max-in-flight' | 'max-connections', fallback: number, what: string): number => {
    const value = Number(parsed[flag] ?? fallback)
    if (!Number.isInteger(value) || value < 1) fail(`--${flag} must be a whole number of ${what}, at least 1, got ${parsed[flag]}`)
    return value
  }
  const maxInFlight = count('max-in-flight', DEFAULTS.maxInFlight, 'requests')
  const maxConnections = count('max-connections', DEFAULTS.maxConnections, 'connections')
  const mebibytes = (flag: 'max-body-mb' | 'max-bodies-mb', fallback: number): number => {
    const value = Number(parsed[flag] ?? fallback)
    if (!Number.isFinite(value) || value <= 0) fail(`--${flag} must be a positive number of MiB, got ${parsed[flag]}`)
    return Math.floor(value * MIB)
  }
  const maxBodyBytes = mebibytes('max-body-mb', DEFAULTS.maxBodyBytes / MIB)
  const maxBodyBytesInFlight = mebibytes('max-bodies-mb', DEFAULTS.maxBodyBytesInFlight / MIB)
  if (maxBodyBytesInFlight < maxBodyBytes) fail(`--max-bodies-mb must be at least --max-body-mb, got ${parsed['max-bodies-mb']}`)
  const host = parsed.host ?? '127.0.0.1'
  const allowedList = parsed['allowed-hosts']
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  // Bound to loopback, only local names (and the allowed ones) are answered; "*" or another bind: every name, unless listed.
  const allowedHosts = allowedList?.includes('*') ? undefined : (allowedList ?? (isLoopbackBind(host) ? [] : undefined))
  const drainSeconds = Number(parsed['drain-seconds'] ?? 30)
  if (!Number.isFinite(drainSeconds) || drainSeconds < 0) fail(`--drain-seconds must be a number of seconds, got ${parsed['drain-seconds']}`)
  const delay = Number(parsed.delay ?? 0)
  if (!Number.isFinite(delay) || delay < 0) fail(`--delay must be a number of milliseconds, got ${parsed.delay}`)
  const mode = parsed.mode ?? 'recover'
  if (mode !== 'recover' && mode !== 'strip' && mode !== 'off') fail(`--mode must be recover, strip or off, got ${mode}`)
  const preset = parsed.preset ?? 'relaxed'
  if (preset !== 'relaxed' && preset !== 'strict') fail(`--preset must be relaxed or strict, got ${preset}`)
  const upstreamDialect = parsed['upstream-dialect'] ?? 'chat-completions'
  if (upstreamDialect !== 'chat-completions' && upstreamDialect !== 'lingma') fail(`--upstream-dialect must be chat-completions or lingma, got ${upstreamDialect}`)
  if (parsed['anthropic-upstream'] !== undefined && parsed.upstream === undefined) {
    fail('--anthropic-upstream needs --upstream too (without one, the built-in replay answers every route)')
  }
  const knownTools = parsed['known-tools']
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const keyVariable = parsed['upstream-key-env'] ?? 'DSML_UPSTREAM_KEY'
  const upstreamKey = process.env[keyVariable] || undefined
  if (parsed['upstream-key-env'] !== undefined && upstreamKey === undefined) fail(`--upstream-key-env ${keyVariable}: the environment variable ${keyVariable} is not set`)
  const allowedOrigins = parsed['allowed-origins']
    ?.split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '')
  return {
    help: parsed.help === true,
    port,
    host,
    allowedHosts,
    upstream: parsed.upstream,
    upstreamKey,
    keyVariable,
    allowedOrigins,
    anthropicUpstream: parsed['anthropic-upstream'],
    upstreamDialect: upstreamDialect as 'chat-completions' | 'lingma',
    prevent: parsed.prevent === true,
    mode: mode as 'recover' | 'strip' | 'off',
    preset: preset as 'relaxed' | 'strict',
    knownTools,
    fixtures: parsed.fixtures === undefined ? undefined : resolve(parsed.fixtures),
    delay,
    created,
    drainSeconds,
    maxInFlight,
    maxConnections,
    requestTimeout,
    headersTimeout,
    idleTimeout,
    keepAlive,
    maxBodyBytes,
    maxBodyBytesInFlight,
  }
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

export function serve(argv: string[]): void {
  const cli = parseCli(argv)
  if (cli.help) {
    console.log(SERVE_USAGE)
    return
  }

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
