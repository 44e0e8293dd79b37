/**
 * The flow engine's public API: compile a flow document once, run it many times. No HTTP
 * server, no SQL: callers hand in inputs, body, headers and context and get outputs or a
 * structured error back.
 */
export {
  compileFlow,
  engineDefaults,
  type CompileOptions,
  type CompileResult,
} from './compile-flow.js'
export { runFlow, type RunOptions, type RunRequest, type RunResult } from './interpreter.js'
export { convertValue, hasType, type Conversion } from './convert.js'
export { checkCallGraph, type FlowRegistry } from './flow-registry.js'
export type { FlowError } from './flow-error.js'
export type { FetchLike, FlowLogger } from './blocks/block.js'
export { defaultExpressionLimits, type ExpressionLimits } from './expressions/guards.js'
export { expressionSource, compileTemplate, type Template } from './expressions/template.js'
export * from './definition.js'
