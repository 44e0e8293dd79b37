/**
 * The options of a flow run started by the gateway or by a worker: the same logger, fetch and
 * shutdown signal for every run of the process, the project's flows for `call` steps, and
 * the execution id the run reports in `$context`.
 */
import type { FetchLike, FlowLogger } from '../engine/blocks/block.js'
import type { FlowRegistry } from '../engine/flow-registry.js'
import type { RunOptions } from '../engine/interpreter.js'

export interface RunEnvironment {
  readonly flowLogger: FlowLogger
  readonly fetch?: FetchLike
  /** Aborted when the process shuts down hard. */
  readonly signal?: AbortSignal
}

export function runOptions(
  environment: RunEnvironment,
  registry: FlowRegistry,
  executionId: string,
  timeoutMs?: number,
): RunOptions {
  return {
    registry,
    executionId,
    logger: environment.flowLogger,
    ...(environment.fetch !== undefined && { fetch: environment.fetch }),
    ...(environment.signal !== undefined && { signal: environment.signal }),
    ...(timeoutMs !== undefined && { timeoutMs }),
  }
}
