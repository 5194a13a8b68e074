export {
  createChatCompletionsGateway,
  declaredToolNames,
  gatewayError,
  upstreamChatUrl,
  type ChatCompletionsGateway,
  type ChatCompletionsGatewayOptions,
  type GatewayForward,
} from './handler.ts'
