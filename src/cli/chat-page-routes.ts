/**
 * The routes of the chat page (`chat-page.ts`) beside the gateway in
 * `dsml-streams serve`: the page at `/`, its module, the built library under
 * `/lib/` (the `.mjs` files of `dist/`, nothing else), its one dependency
 * under `/vendor/`, and the replay upstream, raw, under `/replay/` (what the
 * page's left pane shows). Node glue: it reads the build from disk.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CHAT_PAGE_HTML, CHAT_PAGE_SCRIPT } from './chat-page.ts'
import type { ReplayUpstream } from './replay-upstream.ts'

/** The build: `dist/` beside this module when it is built, else the checkout's `dist/`. */
function libraryDirectory(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url))
  for (const candidate of [resolve(here, '..'), resolve(here, '../../dist')]) if (existsSync(join(candidate, 'index.mjs'))) return candidate
  return undefined
}

function file(path: string, type: string): Response {
  return new Response(readFileSync(path), { headers: { 'content-type': type, 'cache-control': 'no-cache' } })
}

const JAVASCRIPT = 'text/javascript; charset=utf-8'

/** The page's answer for `request`, or undefined when the request is not the page's (the gateway's then). */
export function createChatPageRoutes(replay: ReplayUpstream): (request: Request) => Promise<Response> | undefined {
  const library = libraryDirectory()
  return (request) => {
    const url = new URL(request.url)
    const path = url.pathname
    if (path.startsWith('/replay/')) {
      const inner = new URL(request.url)
      inner.pathname = path.slice('/replay'.length)
      return replay(new Request(inner, request))
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
    if (path === '/') return Promise.resolve(new Response(CHAT_PAGE_HTML, { headers: { 'content-type': 'text/html; charset=utf-8' } }))
    if (path === '/chat-page.mjs') return Promise.resolve(new Response(CHAT_PAGE_SCRIPT, { headers: { 'content-type': JAVASCRIPT } }))
    if (path === '/vendor/eventsource-parser.mjs') return Promise.resolve(file(fileURLToPath(import.meta.resolve('eventsource-parser')), JAVASCRIPT))
    if (path.startsWith('/lib/')) {
      if (library === undefined) return Promise.resolve(new Response('The library is not built: run npm run build.', { status: 503 }))
      const target = libraryFile(library, path.slice('/lib'.length))
      if (target === undefined || !target.startsWith(library + sep) || !target.endsWith('.mjs') || !existsSync(target)) return Promise.resolve(new Response('Not found', { status: 404 }))
      return Promise.resolve(file(target, JAVASCRIPT))
    }
    return undefined
  }
}

/** The file a `/lib/…` path names under `library`, or undefined when its escapes are malformed (`%zz`: no such file). */
function libraryFile(library: string, path: string): string | undefined {
  try {
    return resolve(library, `.${decodeURIComponent(path)}`)
  } catch {
    return undefined
  }
}
