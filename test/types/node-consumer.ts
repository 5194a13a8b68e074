// The Node-only entry, checked in the Node project only (tsconfig.node.json): dsml-streams/node needs node:http's types.
import { createServer } from 'node:http'
import { createChatCompletionsGateway } from 'dsml-streams/gateway'
import { createNodeListener } from 'dsml-streams/node'

export const server = createServer(createNodeListener(createChatCompletionsGateway({ upstream: 'https://api.deepseek.com' }), { maxInFlight: 64 }))
