/**
 * The load bench's floor (`bench/load.ts` starts it): a node:http proxy that repairs nothing. It
 * forwards each request to the upstream as it came and pipes the answer back, over keep-alive
 * connections, so the round through it measures what any proxy hop in Node costs on this machine:
 * the sockets, the HTTP parsing on both sides, the process in between. The gateway's own cost is
 * what it takes beyond this.
 *
 * Usage: tsx bench/load-pass-through.ts UPSTREAM_ORIGIN — prints `listening on http://127.0.0.1:PORT`.
 */
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

const upstream = new URL(process.argv[2]!)
const agent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 4000 })

const server = createServer((req, res) => {
  const headers = { ...req.headers, host: upstream.host }
  const outgoing = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  outgoing.on('error', () => res.destroy())
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy()
  })
  req.pipe(outgoing)
})
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`))
