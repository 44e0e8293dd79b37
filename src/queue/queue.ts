/**
 * The queue of triggered runs: durable jobs (executions with status queued/running), leased
 * by workers, retried when a worker dies. One implementation per storage backend; every
 * backend passes `test/contract/store.contract.ts`.
 *
 * The guarantee is at-least-once: a job whose worker dies mid-run is run again (up to its
 * maximum attempts), so a flow with side effects may see them twice (see docs/trigger.md).
 */
import type { FlowError } from '../engine/flow-error.js'

export interface NewJob {
  readonly id: string
  readonly requestId: string
  readonly projectId: string
  readonly flow: string
  readonly flowVersion: number
  readonly workerGroup: string
  readonly maxAttempts: number
  readonly inputs: Readonly<Record<string, unknown>>
  /** `$body` of the run when the flow wraps it. */
  readonly body: unknown
  readonly context: Readonly<Record<string, unknown>>
  readonly queuedAt: Date
}

export interface Job extends NewJob {
  readonly attempts: number
}

export type JobOutcome =
  | {
      readonly status: 'succeeded'
      readonly result: unknown
      readonly finishedAt: Date
      readonly durationMs: number
    }
  | {
      readonly status: 'failed'
      readonly error: FlowError
      readonly finishedAt: Date
      readonly durationMs: number
    }

export interface WorkerInfo {
  readonly id: string
  readonly groups: readonly string[]
  readonly concurrency: number
  readonly host: string
  readonly pid: number
  readonly startedAt: Date
}

export interface RecoveryReport {
  readonly retried: readonly string[]
  readonly failed: readonly string[]
}

export interface JobQueue {
  /** Durable before it resolves: an accepted job is never lost. */
  enqueue(job: NewJob): Promise<void>
  /** Leases the oldest available job of these groups, counting one more attempt. */
  claim(
    workerId: string,
    groups: readonly string[],
    leaseMs: number,
    now: Date,
  ): Promise<Job | undefined>
  /** Extends a lease this worker still holds; false when it lost it. */
  renew(id: string, workerId: string, leaseMs: number, now: Date): Promise<boolean>
  /** Records the outcome if this worker still holds the lease; false otherwise. */
  complete(id: string, workerId: string, outcome: JobOutcome): Promise<boolean>
  /** Gives a job back untouched (a graceful stop that could not finish it). */
  release(id: string, workerId: string, now: Date): Promise<boolean>
  /** Jobs whose lease expired: queued again after a backoff, or failed when out of attempts. */
  recoverExpired(now: Date, backoffMs: (attempt: number) => number): Promise<RecoveryReport>
  heartbeat(worker: WorkerInfo, now: Date): Promise<void>
  removeWorker(id: string): Promise<void>
  /** Workers whose last heartbeat is not older than `since`. */
  liveWorkers(since: Date): Promise<WorkerInfo[]>
}
