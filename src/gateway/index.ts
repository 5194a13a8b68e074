export {
  createChatCompletionsGateway,
  declaredToolNames,
  gatewayError,
  upstreamChatUrl,
  type ChatCompletionsGateway,
  type ChatCompletionsGatewayOptions,
  type GatewayForward,
  type GatewayUpstreamDialect,
  type HeaderFields,
} from './handler.ts'
