/**
 * Which web pages may use the gateway from a browser. A gateway that holds
 * the upstream's key (`upstreamKey`) would lend it to any page that points a
 * browser at it, so once it holds one (or is given a list), a browser
 * request is served only from:
 * - the gateway's own origin (its chat page: the `Origin` is the request's
 *   own scheme and host; the node bridge refuses hosts it does not know, so a
 *   rebound name cannot pose as it);
 * - an origin of `allowedOrigins` (`*`: any page, a choice made on purpose).
 *
 * Any other `Origin` gets a 403 and nothing is sent upstream. CORS preflights
 * (`OPTIONS` with `Access-Control-Request-Method`) are answered here, for the
 * allowed origins only, and what is served to one carries
 * `Access-Control-Allow-Origin`. A request without an `Origin` (a server, a
 * command line, an SDK outside the browser) is served as before. With
 * neither a key nor a list, the gateway checks no origin (as before).
 */
import type { Dialect } from './dialects.ts'

export interface BrowserOrigins {
  /** The answer to a request refused, or to a preflight; undefined when it is to be served (then `allow`). */
  gate(request: Request, url: URL, error: Dialect['error']): Response | undefined
  /** What is served to an allowed cross-origin request: with its CORS headers. */
  allow(request: Request, url: URL, response: Response): Response
}

/** Seconds a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE = '600'

/** An origin as the `Origin` header writes it: scheme, host and port, lowercase, no path. */
function normalOrigin(origin: string): string {
  let end = origin.length
  while (end > 0 && origin.charCodeAt(end - 1) === 0x2f) end--
  return origin.slice(0, end).toLowerCase()
}

/** The origin check, or undefined when none applies (no key held, no list given). */
export function browserOrigins(allowedOrigins: readonly string[] | undefined, holdsKey: boolean): BrowserOrigins | undefined {
  if (allowedOrigins === undefined && !holdsKey) return undefined
  const allowed = new Set((allowedOrigins ?? []).map(normalOrigin))
  const anyOrigin = allowed.has('*')
  /** The cross-origin `Origin` of a request, or undefined when it has none or is the gateway's own. */
  const crossOrigin = (request: Request, url: URL): string | undefined => {
    const origin = request.headers.get('origin')
    if (origin === null || normalOrigin(origin) === url.origin.toLowerCase()) return undefined
    return origin
  }
  const isAllowed = (origin: string): boolean => anyOrigin || allowed.has(normalOrigin(origin))
  return {
    gate(request, url, error) {
      const origin = crossOrigin(request, url)
      if (origin === undefined) return undefined
      if (!isAllowed(origin)) {
        return error(403, `This gateway is not for pages at ${JSON.stringify(origin)}: it serves its own origin and the allowed origins (--allowed-origins) only.`, 'forbidden_origin')
      }
      const method = request.headers.get('access-control-request-method')
      if (request.method !== 'OPTIONS' || method === null) return undefined
      const headers = new Headers({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-max-age': PREFLIGHT_MAX_AGE,
        vary: 'origin',
      })
      const asked = request.headers.get('access-control-request-headers')
      if (asked !== null) headers.set('access-control-allow-headers', asked)
      return new Response(null, { status: 204, headers })
    },
    allow(request, url, response) {
      const origin = crossOrigin(request, url)
      if (origin === undefined) return response
      const headers = new Headers(response.headers)
      headers.set('access-control-allow-origin', origin)
      headers.append('vary', 'origin')
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
    },
  }
}
