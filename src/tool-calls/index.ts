export { createToolCallSynthesizer, type ToolCallSynthesizer, type ToolCallSynthesizerOptions } from './synthesizer.ts'
export { ToolCallSynthesizerStream, type ToolCallSynthesizerStreamOptions } from './synthesizer-stream.ts'
