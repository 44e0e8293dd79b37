/**
 * The job queue over Kysely, in the executions table. A claim is one UPDATE whose WHERE picks
 * the oldest available job, so two workers never lease the same job: SQLite runs each write
 * statement alone (PostgreSQL will add FOR UPDATE SKIP LOCKED to the subquery).
 */
import type { Kysely } from 'kysely'
import type { FlowError } from '../../engine/flow-error.js'
import type {
  Job,
  JobOutcome,
  JobQueue,
  NewJob,
  RecoveryReport,
  WorkerInfo,
} from '../../queue/queue.js'
import type { Database } from '../schema.js'

type Row = Database['executions']

export class KyselyQueue implements JobQueue {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(job: NewJob): Promise<void> {
    const at = job.queuedAt.toISOString()
    await this.db
      .insertInto('executions')
      .values({
        id: job.id,
        request_id: job.requestId,
        project_id: job.projectId,
        flow: job.flow,
        flow_version: job.flowVersion,
        trigger: 'trigger',
        application: null,
        stage: null,
        endpoint: null,
        status: 'queued',
        started_at: at,
        finished_at: null,
        duration_ms: null,
        error_code: null,
        error_message: null,
        worker_group: job.workerGroup,
        attempts: 0,
        max_attempts: job.maxAttempts,
        available_at: at,
        lease_owner: null,
        lease_expires_at: null,
        queued_at: at,
        inputs: JSON.stringify(job.inputs),
        body: job.body === undefined ? null : JSON.stringify(job.body),
        context: JSON.stringify(job.context),
        result: null,
        error: null,
      })
      .execute()
  }

  async claim(
    workerId: string,
    groups: readonly string[],
    leaseMs: number,
    now: Date,
  ): Promise<Job | undefined> {
    if (groups.length === 0) return undefined
    const at = now.toISOString()
    const row = await this.db
      .updateTable('executions')
      .set((eb) => ({
        status: 'running',
        lease_owner: workerId,
        lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
        attempts: eb(eb.fn.coalesce('attempts', eb.lit(0)), '+', 1),
        started_at: at,
      }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('executions')
          .select('id')
          .where('status', '=', 'queued')
          .where('worker_group', 'in', [...groups])
          .where('available_at', '<=', at)
          .orderBy('available_at')
          .orderBy('id')
          .limit(1),
      )
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst()
    return row ? toJob(row) : undefined
  }

  async renew(id: string, workerId: string, leaseMs: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('executions')
      .set({ lease_expires_at: new Date(now.getTime() + leaseMs).toISOString() })
      .where('id', '=', id)
      .where('lease_owner', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async complete(id: string, workerId: string, outcome: JobOutcome): Promise<boolean> {
    const error: FlowError | null = outcome.status === 'failed' ? outcome.error : null
    const result = await this.db
      .updateTable('executions')
      .set({
        status: outcome.status,
        result:
          outcome.status === 'succeeded' && outcome.result !== undefined
            ? JSON.stringify(outcome.result)
            : null,
        error: error === null ? null : JSON.stringify(error),
        error_code: error?.code ?? null,
        error_message: error?.message ?? null,
        finished_at: outcome.finishedAt.toISOString(),
        duration_ms: outcome.durationMs,
        lease_owner: null,
        lease_expires_at: null,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async release(id: string, workerId: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('executions')
      .set((eb) => ({
        status: 'queued',
        lease_owner: null,
        lease_expires_at: null,
        available_at: now.toISOString(),
        // A released job did not really try: its attempt is given back.
        attempts: eb('attempts', '-', 1),
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async recoverExpired(now: Date, backoffMs: (attempt: number) => number): Promise<RecoveryReport> {
    const at = now.toISOString()
    return this.db.transaction().execute(async (trx) => {
      const expired = await trx
        .selectFrom('executions')
        .select(['id', 'attempts', 'max_attempts', 'lease_owner'])
        .where('status', '=', 'running')
        .where('lease_expires_at', '<', at)
        .execute()
      const retried: string[] = []
      const failed: string[] = []
      for (const job of expired) {
        const attempts = Number(job.attempts ?? 0)
        const base = trx
          .updateTable('executions')
          .where('id', '=', job.id)
          .where('status', '=', 'running')
          .where('lease_expires_at', '<', at)
        if (attempts >= Number(job.max_attempts ?? 1)) {
          const error = {
            code: 'WORKER_LOST',
            message: `The worker running this execution stopped answering, ${attempts} time${attempts === 1 ? '' : 's'}; no attempt is left`,
            details: { attempts },
          }
          await base
            .set({
              status: 'failed',
              error: JSON.stringify(error),
              error_code: error.code,
              error_message: error.message,
              finished_at: at,
              lease_owner: null,
              lease_expires_at: null,
            })
            .execute()
          failed.push(job.id)
        } else {
          await base
            .set({
              status: 'queued',
              available_at: new Date(now.getTime() + backoffMs(attempts)).toISOString(),
              error_code: 'WORKER_LOST',
              error_message: `attempt ${attempts} lost its worker; retrying`,
              lease_owner: null,
              lease_expires_at: null,
            })
            .execute()
          retried.push(job.id)
        }
      }
      return { retried, failed }
    })
  }

  async heartbeat(worker: WorkerInfo, now: Date): Promise<void> {
    const values = {
      id: worker.id,
      groups: JSON.stringify(worker.groups),
      concurrency: worker.concurrency,
      host: worker.host,
      pid: worker.pid,
      started_at: worker.startedAt.toISOString(),
      heartbeat_at: now.toISOString(),
    }
    await this.db
      .insertInto('workers')
      .values(values)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          heartbeat_at: values.heartbeat_at,
          groups: values.groups,
          concurrency: values.concurrency,
        }),
      )
      .execute()
  }

  async removeWorker(id: string): Promise<void> {
    await this.db.deleteFrom('workers').where('id', '=', id).execute()
  }

  async liveWorkers(since: Date): Promise<WorkerInfo[]> {
    const rows = await this.db
      .selectFrom('workers')
      .selectAll()
      .where('heartbeat_at', '>=', since.toISOString())
      .execute()
    return rows.map((r) => ({
      id: r.id,
      groups: JSON.parse(r.groups) as string[],
      concurrency: Number(r.concurrency),
      host: r.host,
      pid: Number(r.pid),
      startedAt: new Date(r.started_at),
    }))
  }
}

function toJob(row: Row): Job {
  return {
    id: row.id,
    requestId: row.request_id,
    projectId: row.project_id,
    flow: row.flow,
    flowVersion: Number(row.flow_version),
    workerGroup: row.worker_group ?? 'default',
    maxAttempts: Number(row.max_attempts ?? 1),
    attempts: Number(row.attempts ?? 0),
    inputs: JSON.parse(row.inputs ?? '{}') as Record<string, unknown>,
    body: row.body === null ? undefined : (JSON.parse(row.body) as unknown),
    context: JSON.parse(row.context ?? '{}') as Record<string, unknown>,
    queuedAt: new Date(row.queued_at ?? row.started_at),
  }
}
