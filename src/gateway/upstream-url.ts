/**
 * Where the gateway sends a request, and how it prints where: the upstream
 * base URL with a route appended, and the same without what may be secret.
 */
import { withoutTrailingSlashes } from '../request-paths.ts'

/** `/chat/completions` appended to the base URL (see `upstreamUrl`). */
export function upstreamChatUrl(upstream: string, search = ''): string {
  return upstreamUrl(upstream, '/chat/completions', search)
}

/**
 * `route` appended to the base URL (its trailing slashes ignored). The base's
 * own query (an `api-version`, a key) is kept on every upstream request,
 * then the route's and the client's. A base with credentials
 * (`user:password@`) is refused: `fetch` refuses such URLs, and they would be
 * printed.
 */
export function upstreamUrl(upstream: string, route: string, search: string): string {
  let base: URL
  try {
    base = new URL(upstream)
  } catch {
    throw new TypeError(`Cannot create gateway: "upstream" must be an absolute http(s) URL, got ${JSON.stringify(unparsedForDisplay(upstream))}`)
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`Cannot create gateway: "upstream" must be an http(s) URL, got ${JSON.stringify(displayUrl(base))}`)
  }
  if (base.username !== '' || base.password !== '') {
    throw new TypeError(
      `Cannot create gateway: "upstream" must not carry credentials (user:password@), got ${JSON.stringify(displayUrl(base))}: send them as headers (the client's are forwarded), or add them in prepareUpstream`,
    )
  }
  const path = withoutTrailingSlashes(base.pathname)
  const target = new URL(`${base.origin}${path === '/' ? '' : path}${route}`)
  const query = new URLSearchParams(base.search)
  for (const [name, value] of target.searchParams) query.append(name, value)
  for (const [name, value] of new URLSearchParams(search)) query.append(name, value)
  const text = query.toString()
  return `${target.origin}${target.pathname}${text === '' ? '' : `?${text}`}`
}

/** A URL as it may be printed: no credentials, and no query (it may hold a key). */
function displayUrl(url: URL): string {
  const path = withoutTrailingSlashes(url.pathname)
  return `${url.protocol}//${url.host}${path === '/' ? '' : path}`
}

/**
 * Text that is not a URL, as it may be printed: what a URL's credentials
 * (before an `@`), query and fragment would be is left out, so a mistyped
 * `https://user:password@host /v1?key=…` does not print its secrets.
 */
function unparsedForDisplay(text: string): string {
  let end = text.length
  for (const separator of ['?', '#']) {
    const at = text.indexOf(separator)
    if (at !== -1 && at < end) end = at
  }
  const shown = text.slice(0, end)
  const at = shown.lastIndexOf('@')
  if (at === -1) return shown
  const authority = shown.indexOf('//')
  return `${authority !== -1 && authority < at ? shown.slice(0, authority + 2) : ''}…@${shown.slice(at + 1)}`
}

/** The upstream as shown in the status page and errors: no credentials, no query. */
export function displayUpstream(upstream: string): string {
  return displayUrl(new URL(upstream))
}
