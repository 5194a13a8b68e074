/**
 * `dsml-streams/node`: the gateway (or any web-standard fetch handler) on
 * Node's `http` server and the frameworks built on it — the bridge
 * `dsml-streams serve` runs on, with its limits. The bridge is Node glue and
 * lives with the command (`src/cli/node-bridge.ts`, the one place `node:`
 * modules are imported); this entry only names it for users.
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { createChatCompletionsGateway } from 'dsml-streams/gateway'
 * import { createNodeListener } from 'dsml-streams/node'
 *
 * const app = express()
 * app.use('/api', createNodeListener(createChatCompletionsGateway({ upstream: 'https://api.deepseek.com' })))
 * ```
 */
export {
  createNodeListener,
  createNodeServer,
  NODE_SERVER_DEFAULTS,
  type ExchangeSummary,
  type FetchHandler,
  type NodeListenerOptions,
  type NodeServerOptions,
} from '../cli/node-bridge.ts'
