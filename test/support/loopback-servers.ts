/**
 * node:http servers on 127.0.0.1 for the Node-only tests that need real sockets: `listen` starts
 * one on a free port (from a listener, or a server already made) and gives its origin; `closeAll` (after each test) closes every one started,
 * connections included.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LoopbackServers {
  listen(handler: ((req: IncomingMessage, res: ServerResponse) => void) | Server): Promise<string>
  closeAll(): Promise<void>
}

export function loopbackServers(): LoopbackServers {
  const servers: Server[] = []
  return {
    async listen(handler) {
      const server = typeof handler === 'function' ? createServer(handler) : handler
      servers.push(server)
      server.listen(0, '127.0.0.1')
      await once(server, 'listening')
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    async closeAll() {
      for (const server of servers.splice(0)) {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
    },
  }
}
