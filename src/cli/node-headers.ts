/**
 * Header fields between node:http and the web `Headers`, both ways, for the Node glue (the bridge
 * and the upstream fetch). Node glue, `src/cli/` only.
 */
import type { OutgoingHttpHeaders } from 'node:http'

/** A message's raw header lines (`rawHeaders`: name, value, name, value…) as web `Headers`, repeats kept. */
export function webHeaders(rawHeaders: readonly string[]): Headers {
  const headers = new Headers()
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) headers.append(rawHeaders[index]!, rawHeaders[index + 1]!)
  return headers
}

/** Web `Headers` as node:http writes them: repeated fields joined, `set-cookie` kept as its separate lines. */
export function nodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const fields: OutgoingHttpHeaders = {}
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') fields[name] = value
  })
  const cookies = headers.getSetCookie()
  if (cookies.length > 0) fields['set-cookie'] = cookies
  return fields
}
