/**
 * The command line of `dsml-streams serve`: its usage text (`SERVE_USAGE`),
 * its options, each also read from the environment (`DSML_` and its name),
 * and `parseServeCommandLine`, which checks them and fills in the defaults.
 * A mistake is one line and exit 2 (`command-line.ts`). Node glue.
 */
import { resolve } from 'node:path'
import { isLoopbackBind } from './allowed-hosts.ts'
import { commandFailure, readCommandLine } from './command-line.ts'
import { NODE_SERVER_DEFAULTS as DEFAULTS } from './node-bridge.ts'

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
  --stream-tool-calls  recovered tool calls stream as they form: announced at
                       their name, string arguments as they arrive
  --unrecovered-note   where markup that held a call is removed without one
                       (cut off, an undeclared tool, arguments against the
                       schema), write a note in the text naming the tool and why
  --runaway-repeat N   end a response that repeats one tag N times in a row
                       inside markup, or one character 256 x N times, with
                       finish length, and cancel the upstream (default 64; 0: off)
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


export function fail(message: string): never {
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
  'unrecovered-note': { type: 'boolean' },
  'stream-tool-calls': { type: 'boolean' },
  'runaway-repeat': { type: 'string' },
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

/** The options `argv` (and the environment) give `serve`, checked, with their defaults. */
export function parseServeCommandLine(argv: string[]) {
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
  const runawayRepeat = Number(parsed['runaway-repeat'] ?? 64)
  if (!Number.isInteger(runawayRepeat) || runawayRepeat < 0 || runawayRepeat === 1) fail(`--runaway-repeat must be 0 (off) or a whole number of tags, at least 2, got ${parsed['runaway-repeat']}`)
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
    unrecoveredNote: parsed['unrecovered-note'] === true,
    streamToolCalls: parsed['stream-tool-calls'] === true,
    runawayRepeat,
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
