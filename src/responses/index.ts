export { createResponsesDecoder, type ResponsesDecoder } from './decoder.ts'
export { createResponsesEncoder, type ResponsesEncoder } from './encoder.ts'
export { createResponsesRepair, type ResponsesRepair, type ResponsesRepairOptions } from './repair.ts'
export { responsesRequestOptions, sanitizeResponsesRequest, type SanitizeResponsesRequestOptions } from './request.ts'
export { repairResponsesObject, repairResponsesResponse } from './response.ts'
export { ResponsesDecoderStream, ResponsesEncoderStream, ResponsesRepairStream } from './streams.ts'
// A message the fused machine forwards without decoding (the encoder's interface names it).
export type { ForwardedMessage } from '../dialect-kit/forwarded-message.ts'
