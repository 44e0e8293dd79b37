/**
 * What the store keeps, in the shapes the rest of flowgate uses (no SQL types here).
 */
import { isoTime } from '../core/time.js'
import type { ApplicationDocument, UserDocument, ApiKeyDocument } from '../project/project-model.js'

/** One project as applied: its flowgate.yaml content and the source of every flow. */
export interface ProjectApplication {
  readonly owner: string
  readonly name: string
  readonly users: readonly UserDocument[]
  readonly apiKeys: readonly ApiKeyDocument[]
  readonly workerGroups: readonly string[]
  readonly applications: readonly ApplicationDocument[]
  readonly flows: readonly FlowSource[]
}

export interface FlowSource {
  readonly name: string
  /** File name as the user wrote it (`flows/greet.flow.yaml`), for diagnostics. */
  readonly file: string
  readonly source: string
  /** sha256 of `source`: a different hash makes a new version. */
  readonly hash: string
}

export interface StoredFlow extends FlowSource {
  readonly version: number
}

export interface StoredProject extends Omit<ProjectApplication, 'flows'> {
  readonly id: string
  readonly flows: readonly StoredFlow[]
  readonly appliedAt: string
}

export interface StoredConfiguration {
  /** Increases on every apply; other processes poll it to know when to reload. */
  readonly revision: number
  readonly projects: readonly StoredProject[]
}

export interface ApplyOutcome {
  readonly revision: number
  readonly flows: readonly {
    readonly name: string
    readonly version: number
    readonly changed: boolean
  }[]
}

export type ExecutionStatus = 'queued' | 'running' | 'succeeded' | 'failed'
export type ExecutionTrigger = 'http' | 'authentication' | 'trigger'

export interface ExecutionRecord {
  readonly id: string
  /** Shared by every run one request caused (authentication and business runs). */
  readonly requestId: string
  readonly projectId: string
  readonly flow: string
  readonly flowVersion: number
  readonly trigger: ExecutionTrigger
  readonly application: string | null
  readonly stage: string | null
  readonly endpoint: string | null
  readonly status: ExecutionStatus
  readonly startedAt: string
  readonly finishedAt: string | null
  readonly durationMs: number | null
  readonly errorCode: string | null
  readonly errorMessage: string | null
  /** Queued runs (triggers) only. */
  readonly workerGroup?: string | null
  readonly attempts?: number
  readonly maxAttempts?: number
  /** The run's `$result`, kept for trigger runs (not for business endpoints). */
  readonly result?: unknown
  /** The whole flow error, kept for trigger runs. */
  readonly error?: Readonly<Record<string, unknown>> | null
}

/** What a record of a finished run is made from; times in epoch milliseconds. */
export interface FinishedRun {
  readonly id: string
  readonly requestId: string
  readonly projectId: string
  readonly flow: string
  readonly flowVersion: number
  readonly trigger: ExecutionTrigger
  readonly application: string | null
  readonly stage: string | null
  readonly endpoint: string | null
  readonly startedAt: number
  readonly finishedAt: number
  readonly durationMs: number
  /** Present when the run failed. */
  readonly error: { readonly code: string; readonly message: string } | undefined
}

/** The execution record of a finished run (gateway requests and synchronous triggers). */
export function finishedExecution(run: FinishedRun): ExecutionRecord {
  return {
    id: run.id,
    requestId: run.requestId,
    projectId: run.projectId,
    flow: run.flow,
    flowVersion: run.flowVersion,
    trigger: run.trigger,
    application: run.application,
    stage: run.stage,
    endpoint: run.endpoint,
    status: run.error === undefined ? 'succeeded' : 'failed',
    startedAt: isoTime(run.startedAt),
    finishedAt: isoTime(run.finishedAt),
    durationMs: run.durationMs,
    errorCode: run.error?.code ?? null,
    errorMessage: run.error?.message ?? null,
  }
}

export interface ExecutionQuery {
  readonly flow?: string
  readonly projectId?: string
  readonly requestId?: string
  readonly limit: number
}

export function projectId(owner: string, name: string): string {
  return `${owner}/${name}`
}
