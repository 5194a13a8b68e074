/**
 * Request paths, and which dialect a path is for: the one routing rule the
 * gateway and `createRepairFetch` follow.
 *
 * A dialect's route is matched by its last segments, under any prefix, so
 * that a gateway mounted at `/api` (a Next.js route, a Hono sub-app) and an
 * SDK whose base URL has a path of its own are routed alike:
 * - `…/chat/completions` → Chat Completions;
 * - `…/v1/messages`, or `/messages` alone → Anthropic Messages (the Anthropic
 *   SDKs append `/v1/messages` to their base URL; an OpenAI thread's
 *   `/threads/ID/messages` is not this route);
 * - `…/responses` → the OpenAI Responses API (`/responses/ID` is not).
 *
 * Paths are read without regular expressions: a path is request data, and a
 * pattern such as `/\/+$/` backtracks on a long run of slashes that does not
 * end the path (one request of 16,000 slashes blocked the event loop for
 * 381 ms). Every loop here is linear.
 */

const SLASH = 0x2f

/** The path without the slashes that end it (`/` stays `/`). */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length
  while (end > 1 && path.charCodeAt(end - 1) === SLASH) end--
  return end === path.length ? path : path.slice(0, end)
}

/** The dialects a request path may be routed to. */
export type DialectRoute = 'chat-completions' | 'anthropic-messages' | 'responses'

/** The dialect whose route `pathname` is (trailing slashes ignored), or undefined. */
export function dialectRouteOf(pathname: string): DialectRoute | undefined {
  const path = withoutTrailingSlashes(pathname)
  if (path.endsWith('/chat/completions')) return 'chat-completions'
  if (path.endsWith('/v1/messages') || path === '/messages') return 'anthropic-messages'
  if (path.endsWith('/responses')) return 'responses'
  return undefined
}

/**
 * The part of a request path the API behind it reads: what follows its last
 * `v1` segment (`/api/v1/models` → `/models`), or the whole path when it has
 * none (`/models`). Trailing slashes are ignored; `''` for nothing after it.
 */
export function apiPathOf(pathname: string): string {
  const path = withoutTrailingSlashes(pathname)
  let start = -1
  for (let at = path.indexOf('/v1'); at !== -1; at = path.indexOf('/v1', at + 1)) {
    const after = at + 3
    if (after === path.length || path.charCodeAt(after) === SLASH) start = after
  }
  const rest = start === -1 ? path : path.slice(start)
  return rest === '/' ? '' : rest
}
