export * from './chat-completions/index.ts'
export * from './dsml/index.ts'
export * from './sse/index.ts'
export * from './parts/index.ts'
// The gateway's helpers (`declaredToolNames`, `gatewayError`, `upstreamChatUrl`) stay on `dsml-streams/gateway`.
export { createChatCompletionsGateway, type ChatCompletionsGateway, type ChatCompletionsGatewayOptions, type GatewayForward } from './gateway/index.ts'
