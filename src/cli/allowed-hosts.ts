/**
 * Which `Host` the local gateway answers. A page on any site can make a
 * browser send requests to a name its own DNS points at 127.0.0.1 (DNS
 * rebinding): the browser then treats the gateway as that site, and reads its
 * answers. Such a request names the attacker's host, so a gateway bound to a
 * loopback address answers only requests whose `Host` is an IP address,
 * `localhost` (or a name under `.localhost`, which browsers resolve to
 * loopback themselves), or a name the user allowed; others get a 403.
 */

/** The host name of a `Host` header, lower-cased, without its port (`[::1]` keeps its brackets) or a trailing dot (`localhost.` is `localhost`). */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase()
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']')
    return end === -1 ? lower : lower.slice(0, end + 1)
  }
  const colon = lower.lastIndexOf(':')
  const name = colon === -1 ? lower : lower.slice(0, colon)
  return name.endsWith('.') ? name.slice(0, -1) : name
}

const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/

/** Whether `name` (a host name as `hostName` gives it) can only be reached by its address: rebinding needs a name. */
function isAddressOrLocalhost(name: string): boolean {
  return IPV4.test(name) || name.startsWith('[') || name === 'localhost' || name.endsWith('.localhost')
}

/** Whether the address a server listens on (`--host`) is loopback only. */
export function isLoopbackBind(address: string): boolean {
  const name = address.toLowerCase()
  return name === 'localhost' || name === '::1' || name === '[::1]' || /^127\.(?:\d{1,3}\.){2}\d{1,3}$/.test(name)
}

/**
 * Whether a request with this `Host` header is answered. `allowed` holds the
 * extra host names (lower case, no port); with `undefined` every host is.
 * A request with no `Host` (HTTP/1.0) is answered: a browser always sends one.
 */
export function hostAllowed(host: string | undefined, allowed: ReadonlySet<string> | undefined): boolean {
  if (allowed === undefined || host === undefined) return true
  const name = hostName(host)
  return isAddressOrLocalhost(name) || allowed.has(name)
}
